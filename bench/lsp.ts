/**
 * `lsp` benchmark: the language server on the 1 MB generated project of the `language` section (20 files),
 * driven over JSON-RPC in this process as an editor drives it. Measures, per edit of one file, the time
 * from sending `didChange` to receiving that file's `publishDiagnostics` (an error appears, then goes
 * away), with the server's default 25 ms debounce; the target is at most 150 ms after the debounce. Also
 * hover, completion and rename round trips, and a whole `compile` for comparison. Medians after warm-up.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { pathToFileURL } from "node:url";
import {
  createProtocolConnection,
  type Diagnostic,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver/node";
import { nodeHost } from "../src/cli/commands/lsp-host.js";
import { compile } from "../src/language/index.js";
import { startLanguageServer } from "../src/lsp/index.js";
import { generateProject } from "./language.js";

const debounceMs = 25;
const warmup = 4;
const edits = 20;

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function positionAt(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, offset);
  return { line: before.split("\n").length - 1, character: offset - (before.lastIndexOf("\n") + 1) };
}

export async function benchLsp(): Promise<string> {
  const sources = generateProject();
  const bytes = Object.values(sources).reduce((sum, text) => sum + text.length, 0);
  const root = mkdtempSync(join(tmpdir(), "sapling-bench-lsp-"));
  const dir = join(root, "baml_src");
  mkdirSync(dir);
  for (const [file, text] of Object.entries(sources)) writeFileSync(join(dir, file), text);
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  startLanguageServer({ input: toServer, output: fromServer, host: nodeHost({ env: {} }), debounceMs });
  const connection = createProtocolConnection(
    new StreamMessageReader(fromServer),
    new StreamMessageWriter(toServer),
  );
  const waiting = new Map<string, (diagnostics: Diagnostic[]) => void>();
  connection.onNotification(
    "textDocument/publishDiagnostics",
    (params: { uri: string; diagnostics: Diagnostic[] }) => {
      waiting.get(params.uri)?.(params.diagnostics);
    },
  );
  connection.listen();
  const diagnosticsOf = (uri: string) => new Promise<Diagnostic[]>((resolve) => waiting.set(uri, resolve));
  await connection.sendRequest("initialize", {
    processId: null,
    rootUri: pathToFileURL(root).href,
    capabilities: {},
  });
  await connection.sendNotification("initialized", {});

  const [file, text] = Object.entries(sources)[0] as [string, string];
  const uri = pathToFileURL(join(dir, file)).href;
  const opened = diagnosticsOf(uri);
  await connection.sendNotification("textDocument/didOpen", {
    textDocument: { uri, languageId: "baml", version: 1, text },
  });
  await opened;

  // Each edit types over one word: `street string` ↔ `street Strng` (an unknown type, then fixed again).
  const offset = text.indexOf("street string") + "street ".length;
  const range = (length: number) => ({
    start: positionAt(text, offset),
    end: positionAt(text, offset + length),
  });
  let current = "string";
  let version = 1;
  const latencies: number[] = [];
  for (let index = 0; index < warmup + edits; index++) {
    const next = current === "string" ? "Strng" : "string";
    const published = diagnosticsOf(uri);
    const start = performance.now();
    await connection.sendNotification("textDocument/didChange", {
      textDocument: { uri, version: ++version },
      contentChanges: [{ range: range(current.length), text: next }],
    });
    const diagnostics = await published;
    const elapsed = performance.now() - start;
    if (diagnostics.length > 0 !== (next === "Strng"))
      throw new Error("the edit did not produce the expected diagnostics");
    current = next;
    if (index >= warmup) latencies.push(elapsed);
  }

  const request = async (method: string, params: unknown): Promise<number> => {
    const samples: number[] = [];
    for (let index = 0; index < warmup + edits; index++) {
      const start = performance.now();
      await connection.sendRequest(method, params);
      if (index >= warmup) samples.push(performance.now() - start);
    }
    return median(samples);
  };
  const at = (needle: string, delta: number) => positionAt(text, text.indexOf(needle) + delta);
  const hover = await request("textDocument/hover", {
    textDocument: { uri },
    position: at("class Customer0", 8),
  });
  const completion = await request("textDocument/completion", {
    textDocument: { uri },
    position: at("  status Status0", 9),
  });
  const references = await request("textDocument/references", {
    textDocument: { uri },
    position: at("class Address0", 8),
    context: { includeDeclaration: true },
  });
  const compileSamples: number[] = [];
  for (let index = 0; index < warmup + 7; index++) {
    const start = performance.now();
    compile(sources);
    if (index >= warmup) compileSamples.push(performance.now() - start);
  }
  const work = (await connection.sendRequest("sapling/projectWork", { uri })) as {
    parses: number;
    checks: number;
    reusedFileChecks: number;
    files: number;
  };
  const load = loadavg()[0] ?? 0;
  connection.dispose();
  toServer.end();
  rmSync(root, { recursive: true, force: true });

  const edit = median(latencies);
  const rows: [string, string][] = [
    [`didChange → publishDiagnostics (incl. ${debounceMs} ms debounce)`, `${edit.toFixed(1)} ms`],
    ["the same, after the debounce (target ≤ 150 ms)", `${(edit - debounceMs).toFixed(1)} ms`],
    ["hover (round trip)", `${hover.toFixed(1)} ms`],
    ["completion in a type position (round trip)", `${completion.toFixed(1)} ms`],
    ["find references across 20 files (round trip)", `${references.toFixed(1)} ms`],
    ["for comparison: a whole `compile` of the project", `${median(compileSamples).toFixed(1)} ms`],
  ];
  return [
    "## Language server",
    "",
    `The \`language\` section's generated project (${(bytes / 1000).toFixed(0)} kB in ${work.files} files), open in \`sapling lsp\` ` +
      `driven over JSON-RPC in-process. Each edit types over one word of one file (an unknown type appears, then is fixed). ` +
      `Median of ${edits} runs after ${warmup} warm-up runs. Work over all ${warmup + edits} edits and the requests: ` +
      `${work.parses} file parses (${work.files} at start, one per edit), ${work.checks} project checks, which re-used ` +
      `the declaration checks of ${work.reusedFileChecks} files (the incremental checker re-runs only the files an edit can reach). ` +
      `Load average during the run: ${load.toFixed(1)} on ${cpus().length} cores (the \`compile\` row shows what that load costs).`,
    "",
    "| measure | median |",
    "|---|---:|",
    ...rows.map(([label, value]) => `| ${label} | ${value} |`),
    "",
  ].join("\n");
}
