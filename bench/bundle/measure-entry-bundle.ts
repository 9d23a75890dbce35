/**
 * What an entry point costs a web page: the entry bundled as `esbuild --bundle --minify --splitting
 * --format=esm --platform=browser` (any `node:` import fails the build), then the files a page loads with it
 * gzipped one by one (zlib's default level, as `gzip` uses); a chunk only an `import()` reaches is counted
 * apart, since it loads only for the feature that needs it. esbuild assigns whole files to chunks, so a file
 * a room's door re-exports stays in the entry's files even when only an `import()` uses it. Shared by `npm run bench -- bundle` and test/bundle-size.test.ts, which holds the runtime entry to
 * its budget.
 */
import { relative, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = resolve(import.meta.dirname, "..", "..");

/** The runtime entry (`sapling-llm/runtime`, what generated clients import). */
export const runtimeEntry = resolve(root, "src", "runtime", "index.ts");

/**
 * Gzipped bytes of the runtime entry on 2026-12-01, after the streaming and provider work of issues 1–15:
 * what the bench's "over baseline" column compares with.
 */
export const runtimeBundleBaseline = 80_309;

/**
 * The runtime entry's budget: issue 36's target, 80 KB gzipped. How the entry got there:
 *
 * - The baseline plus 10% (88,340) was issue 16's budget; Bedrock's and Vertex AI's adapters left for entry
 *   points of their own to stay under it (docs/decisions/0020-aws-bedrock-entry-point.md, 0021). Issue 31's
 *   safety work (the media URL policy, secrets scrubbed by value, the linear-time `regex_match`, 0023) and the
 *   2026-12-06 release (issues 29, 30, 35, 38: the parser's rules, sections reading, request rules) then
 *   took it to 111,534.
 * - The call path loading on a call's first request (0043: the adapters, option reading, SSE decoding, the
 *   media URL policy's host checks, `runAttempt`): 96,421. Parser merges beside it: 103,163.
 * - The prompt room loading with a call's first prompt (0048: the Jinja engine, the prompt and output-format
 *   renderers; `@check`/`@assert` of a parse without a call evaluated by the `sapling-llm/constraints`
 *   evaluator the generated client passes): 84,191. A call's run (its attempts in plan order, the deadline,
 *   the recorder, `b.request`'s request) loading with the call path: 81,875.
 * - Parser merges beside it (XML map targets, markdown tables, chat-message tool calls, repeated-key label
 *   records, answer markers, YAML speed; the one class coercer took 580 off): 84,357. What only a call's
 *   adapters use leaving the `llm` door (0049): the adapter helpers for the Bedrock and Vertex AI rooms to
 *   `provider-helpers`, 83,090; the provider table to `provider-table`, 82,363; a request's failures
 *   (`LlmHttpError`, …) to `provider-helpers`, 81,141. Then the parser's last merges of 2026-12-07
 *   (a markdown table's rows as one grown node, long lines read from their ends (0051), bullet and
 *   numbered records (0050)): 81,754.
 *
 * What is left is what a parse needs: the parser (about 56 KB of the entry gzipped), TypeBuilder, errors,
 * Collector, tracing, streams, output plans, and the `llm` door's `LlmError`, `LlmLoadError` and redaction.
 */
export const runtimeBundleBudget = 80 * 1024;

export interface EntryBundleSize {
  /** Bytes of the minified files a page loads with the entry (the entry and the chunks it imports statically). */
  minified: number;
  /** The same files after gzip, each file on its own (as a server sends them). */
  gzipped: number;
  /** Gzipped bytes of the chunks only an `import()` loads, when the feature that needs them is first used. */
  lazyGzipped: number;
  /** Source files that contributed code to the files a page loads with the entry. */
  inputs: number;
  /** Minified bytes each source file (path from the repository root) puts in the files a page loads with the entry. */
  sourceBytes: Map<string, number>;
  /** The minified text of those files, for checks on what they contain. */
  text: string;
}

/** Where esbuild would write (nothing is written): output paths in the metafile are relative to `root`. */
const outdir = resolve(root, "bundle-measure-out");

/**
 * Bundles `entry` for the browser, minified and split as an application's bundler splits it (each `import()`
 * its own chunk), and counts the bytes a page loads with the entry, before and after gzip, and apart from them
 * the lazy chunks. `entry` is a file, or the text of a module (`{ contents }`, imports resolved from the
 * repository root) for what an application takes from several entries.
 */
export async function measureEntryBundle(entry: string | { contents: string }): Promise<EntryBundleSize> {
  const entries =
    typeof entry === "string"
      ? { entryPoints: [entry] }
      : { stdin: { contents: entry.contents, resolveDir: root, loader: "ts" as const } };
  const result = await build({
    ...entries,
    absWorkingDir: root,
    bundle: true,
    minify: true,
    splitting: true,
    outdir,
    format: "esm",
    platform: "browser",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const outputs = result.metafile.outputs;
  const entryOutput = Object.keys(outputs).find((path) => outputs[path]?.entryPoint !== undefined);
  if (entryOutput === undefined) throw new Error(`esbuild produced no output for ${JSON.stringify(entry)}`);
  // What loads with the entry: the entry's file and every chunk reached through static imports.
  const initial = new Set<string>();
  const pending = [entryOutput];
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    if (initial.has(path)) continue;
    initial.add(path);
    for (const imported of outputs[path]?.imports ?? []) {
      if (imported.kind === "import-statement" && !imported.external) pending.push(imported.path);
    }
  }
  const files = new Map(result.outputFiles.map((file) => [relative(root, file.path), file.contents]));
  const bytesOf = (path: string): Uint8Array => {
    const contents = files.get(path);
    if (contents === undefined) throw new Error(`esbuild reported ${path} but produced no such file`);
    return contents;
  };
  const loaded = [...initial];
  const lazy = Object.keys(outputs).filter((path) => path.endsWith(".js") && !initial.has(path));
  const sourceBytes = new Map<string, number>();
  for (const path of loaded) {
    for (const [source, input] of Object.entries(outputs[path]?.inputs ?? {})) {
      if (input.bytesInOutput > 0)
        sourceBytes.set(source, (sourceBytes.get(source) ?? 0) + input.bytesInOutput);
    }
  }
  const gzippedBytes = (paths: string[]): number =>
    paths.reduce((total, path) => total + gzipSync(bytesOf(path)).byteLength, 0);
  return {
    minified: loaded.reduce((total, path) => total + bytesOf(path).byteLength, 0),
    gzipped: gzippedBytes(loaded),
    lazyGzipped: gzippedBytes(lazy),
    inputs: sourceBytes.size,
    sourceBytes,
    text: loaded.map((path) => new TextDecoder().decode(bytesOf(path))).join("\n"),
  };
}
