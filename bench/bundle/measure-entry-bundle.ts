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
 * Gzipped bytes of the runtime entry measured when this budget was set (2026-12-01, after the streaming and
 * provider work of issues 1–15), and the budget: that plus 10%. Features may grow the core entry by at most
 * that much; moving something optional behind its own entry point is how to stay under it.
 */
export const runtimeBundleBaseline = 80_309;
/**
 * What issue 31 ("safe by default") adds on top of the 10% for features: code every user needs and no
 * entry point can hold back. The entry measured 88,128 bytes gzipped before it; the media URL policy and
 * the secrets scrubbed by value took it to 91,560, and the linear-time matcher of `regex_match` (3,440
 * bytes; docs/decisions/0023-template-limits.md), the template limits and the own-table lookups to 95,472.
 */
export const runtimeSafetyAllowance = 7_500;

/**
 * What the rest of the 2026-12-06 release adds to every call, measured at its merges (97,421 bytes gzipped
 * with all of it): issue 30's parser rules (gathered objects scored per object, map key collisions,
 * final-answer markers, exact enum case, big integers), issue 35's request rules (default roles, o1's
 * system turn folded, parts kept for filtered metadata), `validateOutput` (what `extract` re-asks with)
 * and the pacing of partials by their cost. Issue 36 loads the media URL downloader only for calls that send
 * media by URL (97,165 bytes, 1,669 more in its lazy chunk) and takes 500 bytes back. The way further down is
 * the one-engine parser of issue 29, which removes the stream twins of the coercers (about a quarter of the
 * parser's bytes).
 *
 * The second round of merges (2026-12-06 evening) took the entry to 105,900 bytes: issue 38's sections
 * reading (label lines, DSPy markers, tags, headings and the YAML subset, every call's parser: +6,270),
 * issue 29's `end()` (+1,675, of which the candidate list restated in `stream/end-candidates.ts` is
 * transitional: it goes when `parseValue` reads through the same reader), issue 35's
 * `openai-transcriptions` provider and multipart bodies (+606), and issue 36's names (−120). The 80 KB
 * target of issue 36 needs the stream twins gone first.
 *
 * The third round (2026-12-06, night) took it to 109,621 bytes, each merge measured in turn: issue 30's
 * third round (a fence alone on its line ends an unclosed string, the fence-is-the-answer rule for
 * `string`, stray quotes, jsonrepair's repairs: +1,062), issue 38's verdict lines, lone closing tags,
 * `Action Input:` and YAML fixes (+705), issue 29's streams of many entries (maps copied key by key, the
 * build marker: +380) and its shown-then-replaced fixes (+367), the real answers' rules (a `string`
 * section's text over blank lines, doubled closing quotes: +301), issue 35's BAML runtime extras (+271),
 * BAML's XML wrapper tags (+204), one error brand (+150), a sections value that did not grow starts over
 * (+140), and the sections reading's speed fix (+141). Then 110,920: long sections read line by line in
 * streams and the YAML folding rule in one place (+1,063), a container kept as written in a string field
 * (+226), provider options in the order written (+10). Then 111,534: issue 30's last items (a function
 * call's arguments, also in its envelope, read as the class, in final mode and streams; a label with no
 * bullet under it no empty list; bullets with a colon under a list of strings as their text: +614).
 *
 * Issue 36 then loaded the call path on a call's first request (docs/decisions/0043-lazy-call-path.md): the
 * provider adapters with the HTTP model, option reading and SSE decoding (110,920 → 100,320), the runtime's
 * `runAttempt` (98,851), the media URL policy's host checks (97,040), the llm files only the room uses
 * (96,397) and the adapters' prefetch (96,421 bytes; 20,434 more in lazy chunks). The allowance is now
 * what is left of the release's growth over the other two, plus 619 bytes, and the 614 of issue 30's last
 * items merged beside it (97,192 bytes with both). What is left above the 80 KB
 * target (81,920 bytes): the parser (about 50 KB of the entry gzipped; issue 29's one engine removes the
 * stream twins of its coercers, some 11–12 KB), and the prompt renderer (about 4.6 KB), which can load
 * lazily once the Jinja engine and constraint evaluation, which `parse` needs synchronously, are a room of
 * their own.
 *
 * Merged beside the lazy call path (2026-12-07, each branch measured on its own against 110,920 first): issue
 * 29's `finish()` announcing what the end replaced (`endChange`, which brings `finalAsPartial` and the
 * partial-value checks into the entry: +2,306), issue 38's sections streamed by what arrived with BAML's XML
 * map entries and TOON lists and tables (+2,234), issue 30's label lines read as a list of records (+836)
 * and issue 29's one coercer each for union, map and list (+100): 102,717 bytes with everything. Those four
 * are parser code every call carries; they go back down with the class merge and the second candidate
 * extraction of issue 29. Then issue 38's list target read from its item tags (`<list><item>…`, once the
 * whole text as one item: a silently wrong value): +448, 103,165 bytes.
 */
export const runtimeReleaseAllowance = 7_348;

/**
 * The baseline plus 10% (88,340 bytes), what the streaming issue (16) allows. Tool calls, reasoning,
 * observability and paced streams had grown the entry to 93,453 bytes (+16%); moving the `aws-bedrock`
 * adapter to `sapling-llm/aws-bedrock` (docs/decisions/0020-aws-bedrock-entry-point.md) brought it back
 * under, and moving `vertex-ai`'s to `sapling-llm/vertex-ai` (0021) made room again (docs/benchmarks.md,
 * "Bundle size"). Issue 31's safety allowance and the release allowance come on top.
 */
export const runtimeBundleBudget = 88_340 + runtimeSafetyAllowance + runtimeReleaseAllowance;

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
