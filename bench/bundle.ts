/**
 * `bundle` benchmark: bytes, not time. Each browser-safe entry point bundled as `esbuild --bundle --minify
 * --splitting --format=esm --platform=browser`, then what loads with it gzipped (bench/bundle/measure-entry-bundle.ts). The runtime entry is
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

const entries: { name: string; path: string | { contents: string }; budget?: number }[] = [
  { name: "`sapling-llm/runtime`", path: runtimeEntry, budget: runtimeBundleBudget },
  {
    name: "`sapling-llm/runtime` + `sapling-llm/aws-bedrock` (a project with Bedrock clients)",
    // What its generated client imports: the whole runtime entry, and awsBedrock.
    path: {
      contents: `export * from ${JSON.stringify(runtimeEntry)};\nexport { awsBedrock } from ${JSON.stringify(resolve(src, "aws-bedrock", "index.ts"))};`,
    },
  },
  {
    name: "`sapling-llm/runtime` + `sapling-llm/vertex-ai` (a project with Vertex AI clients)",
    // What its generated client imports: the whole runtime entry, and vertexAi.
    path: {
      contents: `export * from ${JSON.stringify(runtimeEntry)};\nexport { vertexAi } from ${JSON.stringify(resolve(src, "vertex-ai", "index.ts"))};`,
    },
  },
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
    "Each browser-safe entry point bundled with `esbuild --bundle --minify --splitting --format=esm --platform=browser`",
    "(esbuild's API, same options), then the files that load with it gzipped at zlib's default level (a chunk only an",
    "`import()` reaches, such as the media URL downloader, loads when first used and is not counted). The baseline is the runtime entry's",
    `gzipped size on 2026-12-01 (${runtimeBundleBaseline.toLocaleString("en-US")} B), and the streaming issue allows features 10% over it: the budget.`,
    "Tool calls (issue 18), observability (issue 19) and paced streams (issue 16) took it to 93,453 B (16.4% over).",
    "Every module in it was on a path the runtime uses (esbuild's metafile: no compiler, Node-only or duplicated",
    "code worth counting), so the first cut was Bedrock's adapter (Converse, SigV4, event streams, AWS credential",
    "files: 6.3 KB gzipped), now `sapling-llm/aws-bedrock` (docs/decisions/0020-aws-bedrock-entry-point.md): 87,174 B.",
    "Parser work then took it to 88,451 B, 111 B over, and the second cut is Vertex AI's adapter (its URLs, Claude on",
    "Vertex, service-account JWTs signed with WebCrypto, key files: 3.5 KB gzipped), now `sapling-llm/vertex-ai`",
    "(docs/decisions/0021-vertex-ai-entry-point.md). A generated client imports each only when its .baml can call",
    "that provider. The second and third rows are what such projects ship (the runtime entry and `awsBedrock` or",
    "`vertexAi`); with Vertex AI, about 0.3 KB more than the runtime alone was before its move, the cost of the",
    "seam. test/bundle-size.test.ts fails above the budget. Bytes, so the numbers do not depend on the machine.",
    "Packages (zod, ai) are never bundled into these entries: none of them imports one.",
    "Source: `bench/bundle.ts`.",
    "",
    markdownTable(["entry point", "source files", "minified", "gzipped", "vs baseline", "budget"], rows),
    "",
  ].join("\n");
}
