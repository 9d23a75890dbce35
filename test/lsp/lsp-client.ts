/**
 * An editor's side of the Language Server Protocol for tests: a JSON-RPC connection to a `sapling lsp`
 * server (in this process over streams, or a spawned `sapling lsp --stdio`), with the notifications it
 * received and helpers to open, edit and query documents.
 */
import { PassThrough } from "node:stream";
import { pathToFileURL } from "node:url";
import {
  createProtocolConnection,
  type Diagnostic,
  type ProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver/node";
import { nodeHost } from "../../src/cli/commands/lsp-host.js";
import { startLanguageServer } from "../../src/lsp/index.js";

export interface TestEditor {
  connection: ProtocolConnection;
  /** The latest diagnostics published for each URI. */
  diagnostics: Map<string, Diagnostic[]>;
  /** Resolves once diagnostics for `uri` satisfy `accept` (now or later). */
  diagnosticsFor: (uri: string, accept: (diagnostics: Diagnostic[]) => boolean) => Promise<Diagnostic[]>;
  open: (uri: string, text: string) => void;
  /** Replaces the whole text of an open document (a full-text change). */
  change: (uri: string, text: string) => void;
  /** Replaces `from` with `to` in an open document, as an incremental change, and returns the new text. */
  replace: (uri: string, from: string, to: string) => string;
  text: (uri: string) => string;
  close: () => Promise<void>;
}

export function fileUri(path: string): string {
  return pathToFileURL(path).href;
}

/** A server in this process, talked to over in-memory streams exactly as over stdio. */
export async function startInProcessEditor(rootPath: string): Promise<TestEditor> {
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  startLanguageServer({ input: toServer, output: fromServer, host: nodeHost({ env: {} }), debounceMs: 5 });
  const connection = createProtocolConnection(
    new StreamMessageReader(fromServer),
    new StreamMessageWriter(toServer),
  );
  return connect(connection, rootPath, async () => {
    connection.dispose();
    toServer.end();
  });
}

/** Drives an existing connection: `initialize`, then document helpers. */
export async function connect(
  connection: ProtocolConnection,
  rootPath: string,
  dispose: () => Promise<void>,
): Promise<TestEditor> {
  const diagnostics = new Map<string, Diagnostic[]>();
  const waiters: {
    uri: string;
    accept: (items: Diagnostic[]) => boolean;
    resolve: (items: Diagnostic[]) => void;
  }[] = [];
  const texts = new Map<string, { text: string; version: number }>();
  connection.onNotification(
    "textDocument/publishDiagnostics",
    (params: { uri: string; diagnostics: Diagnostic[] }) => {
      diagnostics.set(params.uri, params.diagnostics);
      for (const waiter of [...waiters]) {
        if (waiter.uri === params.uri && waiter.accept(params.diagnostics)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(params.diagnostics);
        }
      }
    },
  );
  connection.listen();
  const root = fileUri(rootPath);
  await connection.sendRequest("initialize", {
    processId: null,
    rootUri: root,
    workspaceFolders: [{ uri: root, name: "root" }],
    capabilities: {},
  });
  await connection.sendNotification("initialized", {});
  return {
    connection,
    diagnostics,
    diagnosticsFor: (uri, accept) => {
      const current = diagnostics.get(uri);
      if (current && accept(current)) return Promise.resolve(current);
      return new Promise((resolve) => waiters.push({ uri, accept, resolve }));
    },
    open: (uri, text) => {
      texts.set(uri, { text, version: 1 });
      void connection.sendNotification("textDocument/didOpen", {
        textDocument: { uri, languageId: "baml", version: 1, text },
      });
    },
    change: (uri, text) => {
      const version = (texts.get(uri)?.version ?? 0) + 1;
      texts.set(uri, { text, version });
      void connection.sendNotification("textDocument/didChange", {
        textDocument: { uri, version },
        contentChanges: [{ text }],
      });
    },
    replace: (uri, from, to) => {
      const current = texts.get(uri);
      if (!current) throw new Error(`${uri} is not open`);
      const offset = current.text.indexOf(from);
      if (offset < 0) throw new Error(`${JSON.stringify(from)} is not in ${uri}`);
      const start = positionAt(current.text, offset);
      const end = positionAt(current.text, offset + from.length);
      const text = current.text.slice(0, offset) + to + current.text.slice(offset + from.length);
      texts.set(uri, { text, version: current.version + 1 });
      void connection.sendNotification("textDocument/didChange", {
        textDocument: { uri, version: current.version + 1 },
        contentChanges: [{ range: { start, end }, text: to }],
      });
      return text;
    },
    text: (uri) => texts.get(uri)?.text ?? "",
    close: dispose,
  };
}

/** Line and character (UTF-16) of an offset. */
export function positionAt(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length - 1;
  return { line, character: offset - (before.lastIndexOf("\n") + 1) };
}

/** The position of `needle` (plus `delta` characters) in `text`. */
export function positionOf(
  text: string,
  needle: string,
  delta = 0,
  occurrence = 0,
): { line: number; character: number } {
  let offset = -1;
  for (let index = 0; index <= occurrence; index++) offset = text.indexOf(needle, offset + 1);
  if (offset < 0) throw new Error(`${JSON.stringify(needle)} not found`);
  return positionAt(text, offset + delta);
}
