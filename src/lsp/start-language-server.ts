import {
  type Connection,
  createConnection,
  ErrorCodes,
  FileChangeType,
  type Location,
  ProposedFeatures,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
  TextDocumentSyncKind,
  TextDocuments,
  type TextEdit,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { formatBamlFile } from "../language/index.js";
import type { BamlProject, ProjectFile } from "./baml-project.js";
import { codeLenses, renderTestPromptCommand } from "./code-lenses.js";
import { completeAt } from "./completion.js";
import { documentSymbols } from "./document-symbols.js";
import { hoverAt, templatePathAt } from "./hover.js";
import type { LanguageServerHost } from "./language-server-host.js";
import { projectDiagnostics } from "./lsp-diagnostics.js";
import { definitionOf, type ProjectLocation, referencesOf, symbolAt } from "./navigation.js";
import { renameEdits, renameTarget } from "./rename.js";
import { uriToPath, Workspace } from "./workspace.js";

export interface LanguageServerOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  host: LanguageServerHost;
  /** How long diagnostics wait after the last keystroke (at most 50 ms; default 25). */
  debounceMs?: number;
}

/** A running server; `closed` resolves when the client sends `exit` or the input stream ends. */
export interface LanguageServer {
  connection: Connection;
  closed: Promise<void>;
}

/** The custom request that reports a project's work counters (tests check that edits stay incremental). */
export const projectWorkRequest = "sapling/projectWork";

/**
 * `sapling lsp`: a Language Server Protocol server over the given streams. Diagnostics are published for
 * every file of a project after each change (debounced); navigation, hover, completion, rename,
 * formatting, outline and the "render prompt" lens answer from the files' kept parses and the symbol table.
 */
export function startLanguageServer(options: LanguageServerOptions): LanguageServer {
  const connection = createConnection(
    ProposedFeatures.all,
    new StreamMessageReader(options.input),
    new StreamMessageWriter(options.output),
  );
  const documents = new TextDocuments(TextDocument);
  const workspace = new Workspace(options.host);
  const debounceMs = Math.min(options.debounceMs ?? 25, 50);
  const timers = new Map<BamlProject, NodeJS.Timeout>();
  const published = new Map<string, string>();

  let open = true;
  const publish = (project: BamlProject): void => {
    timers.delete(project);
    if (!open) return;
    for (const [uri, diagnostics] of projectDiagnostics(project)) {
      const key = JSON.stringify(diagnostics);
      if (published.get(uri) === key) continue;
      published.set(uri, key);
      void connection.sendDiagnostics({ uri, diagnostics });
    }
  };
  const schedule = (project: BamlProject): void => {
    clearTimeout(timers.get(project));
    timers.set(
      project,
      setTimeout(() => publish(project), debounceMs),
    );
  };
  const clear = (uri: string): void => {
    if (published.get(uri) === "[]") return;
    published.set(uri, "[]");
    void connection.sendDiagnostics({ uri, diagnostics: [] });
  };

  connection.onInitialize(() => ({
    capabilities: {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
      hoverProvider: true,
      definitionProvider: true,
      referencesProvider: true,
      renameProvider: { prepareProvider: true },
      completionProvider: { triggerCharacters: [".", "@"] },
      documentFormattingProvider: true,
      documentSymbolProvider: true,
      codeLensProvider: { resolveProvider: false },
      executeCommandProvider: { commands: [renderTestPromptCommand] },
      workspace: { workspaceFolders: { supported: true } },
    },
    serverInfo: { name: "sapling", version: options.host.version },
  }));

  documents.onDidChangeContent(async ({ document }) => {
    const located = await workspace.locate(document.uri);
    if (!located) return;
    // The manager updates its document in place, so a change only has to drop the file's caches.
    located.project.setDocument(located.path, document);
    located.project.changed(located.path);
    schedule(located.project);
  });
  documents.onDidClose(async ({ document }) => {
    const located = await workspace.locate(document.uri);
    const path = uriToPath(document.uri);
    if (!located || path === undefined) return;
    const text = await options.host.readFile(path);
    if (text === undefined) {
      located.project.remove(located.path);
      clear(document.uri);
    } else located.project.setText(located.path, document.uri, text, 0, false);
    schedule(located.project);
  });
  connection.onDidChangeWatchedFiles(async ({ changes }) => {
    for (const change of changes) {
      const path = uriToPath(change.uri);
      const located =
        path === undefined || !path.endsWith(".baml") ? undefined : await workspace.locate(change.uri);
      if (!located || path === undefined || documents.get(change.uri)) continue;
      if (change.type === FileChangeType.Deleted) {
        if (located.project.remove(located.path)) clear(change.uri);
      } else {
        const text = await options.host.readFile(path);
        if (text !== undefined) located.project.setText(located.path, change.uri, text, 0, false);
      }
      schedule(located.project);
    }
  });

  /** Runs a request on the file a URI names, once its project is loaded. */
  const onFile = async <Result>(
    uri: string,
    answer: (project: BamlProject, file: ProjectFile) => Result,
    fallback: Result,
  ): Promise<Result> => {
    const found = await workspace.file(uri);
    return found ? answer(found.project, found.file) : fallback;
  };
  const toLocation = ({ file, span }: ProjectLocation): Location => ({
    uri: file.uri,
    range: { start: file.document.positionAt(span.start), end: file.document.positionAt(span.end) },
  });

  connection.onHover(({ textDocument, position }) =>
    onFile(
      textDocument.uri,
      (project, file) => {
        const hover = hoverAt(project, file, file.document.offsetAt(position));
        if (!hover) return null;
        return {
          contents: { kind: "markdown" as const, value: hover.markdown },
          range: {
            start: file.document.positionAt(hover.span.start),
            end: file.document.positionAt(hover.span.end),
          },
        };
      },
      null,
    ),
  );
  connection.onDefinition(({ textDocument, position }) =>
    onFile(
      textDocument.uri,
      (project, file) => {
        const symbol = symbolAt(project, file, file.document.offsetAt(position));
        const found = symbol && definitionOf(project, symbol.namespace, symbol.name);
        if (found) return toLocation(found);
        const hover = fieldDefinition(project, file, file.document.offsetAt(position));
        return hover ? toLocation(hover) : null;
      },
      null,
    ),
  );
  connection.onReferences(({ textDocument, position, context }) =>
    onFile(
      textDocument.uri,
      (project, file) => {
        const symbol = symbolAt(project, file, file.document.offsetAt(position));
        if (!symbol) return [];
        return referencesOf(project, symbol.namespace, symbol.name, context.includeDeclaration).map(
          toLocation,
        );
      },
      [],
    ),
  );
  connection.onPrepareRename(({ textDocument, position }) =>
    onFile(
      textDocument.uri,
      (project, file) => {
        const target = renameTarget(project, file, file.document.offsetAt(position));
        if ("error" in target) throw new ResponseError(ErrorCodes.InvalidRequest, target.error);
        return {
          range: {
            start: file.document.positionAt(target.span.start),
            end: file.document.positionAt(target.span.end),
          },
          placeholder: target.name,
        };
      },
      null,
    ),
  );
  connection.onRenameRequest(({ textDocument, position, newName }) =>
    onFile(
      textDocument.uri,
      (project, file) => {
        const edits = renameEdits(project, file, file.document.offsetAt(position), newName);
        if ("error" in edits) throw new ResponseError(ErrorCodes.InvalidRequest, edits.error);
        const changes: Record<string, TextEdit[]> = {};
        for (const location of edits) {
          const list = changes[location.file.uri] ?? [];
          list.push({ range: toLocation(location).range, newText: newName });
          changes[location.file.uri] = list;
        }
        return { changes };
      },
      null,
    ),
  );
  connection.onCompletion(({ textDocument, position }) =>
    onFile(
      textDocument.uri,
      (project, file) => completeAt(project, file, file.document.offsetAt(position)),
      [],
    ),
  );
  connection.onDocumentFormatting(({ textDocument }) =>
    onFile(
      textDocument.uri,
      (_project, file) => {
        const text = file.document.getText();
        const formatted = formatBamlFile(text);
        // A file with syntax errors is left as it is: formatting it could lose what the user meant.
        if (formatted.skipped?.reason === "syntax-errors") {
          connection.console.info(
            `not formatting ${file.path}: ${formatted.skipped.syntaxErrors} syntax error(s)`,
          );
          return [];
        }
        if (formatted.text === text) return [];
        const end = file.document.positionAt(text.length);
        return [{ range: { start: { line: 0, character: 0 }, end }, newText: formatted.text }];
      },
      [],
    ),
  );
  connection.onDocumentSymbol(({ textDocument }) =>
    onFile(
      textDocument.uri,
      (project, file) => documentSymbols(project.parsed(file).file, file.document),
      [],
    ),
  );
  connection.onCodeLens(({ textDocument }) => onFile(textDocument.uri, codeLenses, []));
  connection.onExecuteCommand(async ({ command, arguments: args }) => {
    if (command !== renderTestPromptCommand)
      throw new ResponseError(ErrorCodes.InvalidRequest, `unknown command ${command}`);
    const [uri, testName, functionName] = (args ?? []) as unknown[];
    if (typeof uri !== "string" || typeof testName !== "string" || typeof functionName !== "string")
      throw new ResponseError(
        ErrorCodes.InvalidParams,
        `${command} takes a file URI, a test name and a function name`,
      );
    const found = await workspace.locate(uri);
    if (!found) throw new ResponseError(ErrorCodes.InvalidParams, `${uri} is not a file of a BAML project`);
    try {
      return await options.host.renderTestPrompt({
        dir: found.project.dir,
        sources: found.project.sources(),
        testName,
        functionName,
      });
    } catch (error) {
      throw new ResponseError(
        ErrorCodes.InternalError,
        error instanceof Error ? error.message : String(error),
      );
    }
  });
  connection.onRequest(projectWorkRequest, async (params: { uri: string }) => {
    const found = await workspace.locate(params.uri);
    return found ? { ...found.project.work, files: found.project.files.size } : null;
  });

  const closed = new Promise<void>((resolve) => {
    const close = () => {
      open = false;
      for (const timer of timers.values()) clearTimeout(timer);
      resolve();
    };
    connection.onExit(close);
    options.input.once("end", close);
    options.input.once("close", close);
  });
  documents.listen(connection);
  connection.listen();
  return { connection, closed };
}

/** Go to definition on a field: its declaration, from the class body or a `{{ arg.field }}` path. */
function fieldDefinition(
  project: BamlProject,
  file: ProjectFile,
  offset: number,
): ProjectLocation | undefined {
  const field = templatePathAt(project, file, offset)?.field;
  const owner = field && project.files.get(field.owner.file);
  return field && owner ? { file: owner, span: field.field.name.span } : undefined;
}
