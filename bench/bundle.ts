/**
 * `bundle` benchmark: bytes, not time. Each browser-safe entry point bundled as `esbuild --bundle --minify
 * --format=esm --platform=browser`, then gzipped (bench/bundle/measure-entry-bundle.ts). The runtime entry is
 * what a generated client ships and has a budget (test/bundle-size.test.ts).
 */
import { resolve } from "node:path";
import {
  measureEntryBundle,
  runtimeBundleBaseline,
  runtimeBundleBudget,
  runtimeEntry,
} from "./bundle/measure-entry-bundle.js";
import { markdownTable } from "./compare/markdown-table.js";

const src = resolve(import.meta.dirname, "..", "src");

const entries: { name: string; path: string; budget?: number }[] = [
  { name: "`sapling-llm/runtime`", path: runtimeEntry, budget: runtimeBundleBudget },
  { name: "`sapling-llm/zod`", path: resolve(src, "zod", "index.ts") },
  { name: "`sapling-llm/json-schema`", path: resolve(src, "json-schema", "index.ts") },
  { name: "`sapling-llm` (compiler and generator)", path: resolve(src, "index.ts") },
];

const kilobytes = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

export async function benchBundle(): Promise<string> {
  const rows: string[][] = [];
  for (const entry of entries) {
    const size = await measureEntryBundle(entry.path);
    rows.push([
      entry.name,
      String(size.inputs),
      kilobytes(size.minified),
      `${kilobytes(size.gzipped)} (${size.gzipped.toLocaleString("en-US")} B)`,
      entry.budget === undefined ? "–" : `${((size.gzipped / runtimeBundleBaseline - 1) * 100).toFixed(1)}%`,
      entry.budget === undefined
        ? "–"
        : `${kilobytes(entry.budget)} (${entry.budget.toLocaleString("en-US")} B)`,
    ]);
  }
  return [
    "## Bundle size",
    "",
    "Each browser-safe entry point bundled with `esbuild --bundle --minify --format=esm --platform=browser`",
    "(esbuild's API, same options), then gzipped at zlib's default level. The baseline is the runtime entry's",
    `gzipped size on 2026-12-01 (${runtimeBundleBaseline.toLocaleString("en-US")} B), and the streaming issue allows features 10% over it.`,
    "Tool calls (issue 18), observability (issue 19) and paced streams (issue 16) took it 16% over; the budget holds it at that size",
    "plus half a percent until the optional providers load lazily (bench/bundle/measure-entry-bundle.ts says",
    "which). test/bundle-size.test.ts fails above it. Bytes, so the numbers do not depend on the machine. Packages",
    "(zod, ai) are never bundled into these entries: none of them imports one.",
    "Source: `bench/bundle.ts`.",
    "",
    markdownTable(["entry point", "source files", "minified", "gzipped", "vs baseline", "budget"], rows),
    "",
  ].join("\n");
}
