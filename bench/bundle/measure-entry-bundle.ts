/**
 * What an entry point costs a web page: the entry bundled as `esbuild --bundle --minify --format=esm
 * --platform=browser` (any `node:` import fails the build), then gzipped (zlib's default level, as `gzip`
 * uses). Shared by `npm run bench -- bundle` and test/bundle-size.test.ts, which holds the runtime entry to
 * its budget.
 */
import { resolve } from "node:path";
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
 * What the rest of the 2026-12-06 release adds to every call, measured at its merge (97,421 bytes gzipped
 * with all of it): issue 30's parser rules (gathered objects scored per object, map key collisions,
 * final-answer markers, exact enum case, big integers), issue 35's request rules (default roles, o1's
 * system turn folded, parts kept for filtered metadata), `validateOutput` (what `extract` re-asks with)
 * and the pacing of partials by their cost. The way back down is issue 36's: the one-engine parser of
 * issue 29 removes the stream twins of the coercers (about a quarter of the parser's bytes).
 */
export const runtimeReleaseAllowance = 2_100;

/**
 * The baseline plus 10% (88,340 bytes), what the streaming issue (16) allows. Tool calls, reasoning,
 * observability and paced streams had grown the entry to 93,453 bytes (+16%); moving the `aws-bedrock`
 * adapter to `sapling-llm/aws-bedrock` (docs/decisions/0020-aws-bedrock-entry-point.md) brought it back
 * under, and moving `vertex-ai`'s to `sapling-llm/vertex-ai` (0021) made room again (docs/benchmarks.md,
 * "Bundle size"). Issue 31's safety allowance and the release allowance come on top.
 */
export const runtimeBundleBudget = 88_340 + runtimeSafetyAllowance + runtimeReleaseAllowance;

export interface EntryBundleSize {
  /** Bytes of the minified bundle. */
  minified: number;
  /** Bytes after gzip. */
  gzipped: number;
  /** Source files that contributed code. */
  inputs: number;
  /** The minified text, for checks on what it contains. */
  text: string;
}

/**
 * Bundles `entry` for the browser, minified, and counts its bytes before and after gzip. `entry` is a file,
 * or the text of a module (`{ contents }`, imports resolved from the repository root) for what an
 * application takes from several entries.
 */
export async function measureEntryBundle(entry: string | { contents: string }): Promise<EntryBundleSize> {
  const entries =
    typeof entry === "string"
      ? { entryPoints: [entry] }
      : { stdin: { contents: entry.contents, resolveDir: root, loader: "ts" as const } };
  const result = await build({
    ...entries,
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new Error(`esbuild produced no output for ${JSON.stringify(entry)}`);
  const inputs = Object.values(result.metafile.outputs).reduce(
    (total, file) => total + Object.values(file.inputs).filter((input) => input.bytesInOutput > 0).length,
    0,
  );
  return {
    minified: output.contents.byteLength,
    gzipped: gzipSync(output.contents).byteLength,
    inputs,
    text: output.text,
  };
}
