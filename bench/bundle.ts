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
    name: "`sapling-llm/runtime` + `sapling-llm/constraints` (a project that declares `@check`/`@assert`)",
    // What its generated client imports: the whole runtime entry, and evaluateConstraint.
    path: {
      contents: `export * from ${JSON.stringify(runtimeEntry)};\nexport { evaluateConstraint } from ${JSON.stringify(resolve(src, "constraints", "index.ts"))};`,
    },
  },
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

/** Where a source file's bytes count: its room, with the Jinja engine and the provider adapters apart. */
function partOf(source: string): string {
  const parts = source.split("/");
  if (parts[0] !== "src" || parts.length < 3) return source;
  if ((parts[1] === "prompt" && parts[2] === "jinja") || (parts[1] === "llm" && parts[2] === "providers")) {
    return `src/${parts[1]}/${parts[2]}/`;
  }
  return `src/${parts[1]}/`;
}

/** The runtime entry's minified bytes by part, largest first, with each part's largest files. */
function roomRows(sourceBytes: Map<string, number>): string[][] {
  const parts = new Map<string, [string, number][]>();
  for (const [source, bytes] of sourceBytes) {
    const files = parts.get(partOf(source)) ?? [];
    files.push([source, bytes]);
    parts.set(partOf(source), files);
  }
  const total = [...sourceBytes.values()].reduce((sum, bytes) => sum + bytes, 0);
  const sum = (files: [string, number][]): number => files.reduce((all, [, bytes]) => all + bytes, 0);
  return [...parts]
    .sort((a, b) => sum(b[1]) - sum(a[1]))
    .map(([part, files]) => [
      `\`${part}\``,
      kilobytes(sum(files)),
      `${((sum(files) / total) * 100).toFixed(0)}%`,
      files
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([source, bytes]) => `${source.slice(part.length)} ${kilobytes(bytes)}`)
        .join(", "),
    ]);
}

export async function benchBundle(): Promise<string> {
  const rows: string[][] = [];
  let runtimeSources = new Map<string, number>();
  for (const entry of entries) {
    const size = await measureEntryBundle(entry.path);
    if (entry.path === runtimeEntry) runtimeSources = size.sourceBytes;
    rows.push([
      entry.name,
      String(size.inputs),
      kilobytes(size.minified),
      `${kilobytes(size.gzipped)} (${size.gzipped.toLocaleString("en-US")} B)`,
      `${size.lazyGzipped.toLocaleString("en-US")} B`,
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
    "`import()` reaches loads when first used and is counted apart, in the lazy column). The baseline is the runtime entry's",
    `gzipped size on 2026-12-01 (${runtimeBundleBaseline.toLocaleString("en-US")} B), and the streaming issue allowed features 10% over it.`,
    "Tool calls (issue 18), observability (issue 19) and paced streams (issue 16) took it to 93,453 B (16.4% over).",
    "Every module in it was on a path the runtime uses (esbuild's metafile: no compiler, Node-only or duplicated",
    "code worth counting), so the first cut was Bedrock's adapter (Converse, SigV4, event streams, AWS credential",
    "files: 6.3 KB gzipped), now `sapling-llm/aws-bedrock` (docs/decisions/0020-aws-bedrock-entry-point.md): 87,174 B.",
    "Parser work then took it to 88,451 B, 111 B over, and the second cut is Vertex AI's adapter (its URLs, Claude on",
    "Vertex, service-account JWTs signed with WebCrypto, key files: 3.5 KB gzipped), now `sapling-llm/vertex-ai`",
    "(docs/decisions/0021-vertex-ai-entry-point.md). A generated client imports each only when its .baml can call",
    "that provider. The second to fourth rows are what such projects ship (the runtime entry and `evaluateConstraint`,",
    "`awsBedrock` or `vertexAi`). The budget is issue 36's target, 80 KB, reached by loading the call path and the",
    "prompt room on a call's first request (0043, 0048; below). test/bundle-size.test.ts fails above the budget.",
    "Bytes, so the numbers do not depend on the machine.",
    "Packages (zod, ai) are never bundled into these entries: none of them imports one.",
    "Source: `bench/bundle.ts`.",
    "",
    markdownTable(
      ["entry point", "source files", "minified", "gzipped", "lazy (gzipped)", "vs baseline", "budget"],
      rows,
    ),
    "",
    "### The call path and the prompt room, loaded on first use",
    "",
    "The release's merges took the runtime entry to 110,920 B (at its budget then). Issue 36 loads what only a call",
    "needs on the call's first request (docs/decisions/0043-lazy-call-path.md), each step measured in turn with",
    "`measureEntryBundle(runtimeEntry)` of bench/bundle/measure-entry-bundle.ts (a `.mts` file with a top-level",
    "`await`, run with `npx tsx`):",
    "",
    markdownTable(
      ["step", "entry, gzipped", "lazy, gzipped"],
      [
        ["before (f88384e)", "110,920 B", "1,670 B"],
        [
          "provider adapters, HTTP model, SSE reading; Vertex AI's wire formats handed over",
          "101,696 B",
          "12,960 B",
        ],
        ["option reading and the role policy leave the llm door", "100,320 B", "14,259 B"],
        ["the runtime's `runAttempt` (with `askModel`, the recording fetch)", "98,851 B", "17,184 B"],
        ["the media URL policy's host checks (the CLI loads them)", "97,040 B", "19,843 B"],
        ["finish reason policy, `Retry-After`, SSE decoder leave the llm door", "96,397 B", "20,436 B"],
        ["the adapters' chunk prefetched while run-attempt loads", "96,421 B", "20,434 B"],
        ["parser merges beside it (69c62b0)", "103,163 B", "20,417 B"],
        [
          "the prompt room with a call's first prompt (0048); `toJsonSchema` in `output-schema`",
          "84,191 B",
          "41,706 B",
        ],
        [
          "a call's run (attempts, deadline, recorder, `b.request`) with the call path",
          "81,875 B",
          "44,586 B",
        ],
      ],
    ),
    "",
    "A page that calls a model loads, on its first call, run-attempt (2,933 B) and the adapters (13,058 B), side by side:",
    "112,523 B in all for a plain OpenAI call, 1,603 B more than before (more files, each gzipped apart). Entries",
    "bundled alone that use a sliver of the runtime door now also load the llm files the lazy chunks share with it",
    "(esbuild puts a file shared by an entry and a lazy chunk in a chunk the entry loads): against f88384e,",
    "`sapling-llm/zod` +568 B, `sapling-llm/json-schema` +562 B, `sapling-llm/ai-sdk` +746 B and `sapling-llm/batch`",
    "+5,773 B (its runtime errors bring llm-error.ts, redaction and the provider table); in an application these",
    "chunks are the ones its runtime entry loads already. `sapling-llm`, `stream-client`, `react` and",
    "`object-stream` are unchanged. With the prompt room lazy too (docs/decisions/0048-lazy-prompt-renderer.md), a",
    "page that only parses loads 81,875 B (−21,288 B against 69c62b0), and a page's first plain call 122,107 B in",
    "all (+2,859 B: run-call 5,818 B, the prompt room 21,235 B, the adapters 13,068 B, each gzipped apart). A project",
    "that declares `@check`/`@assert` loads the prompt room with `sapling-llm/constraints` (second row). What the",
    "runtime entry holds now, from esbuild's metafile (minified bytes each source file puts in the files that load",
    "with the entry; `npx tsx bench/bundle/entry-sources.ts` lists them file by file):",
    "",
    markdownTable(["part", "minified", "share", "largest files"], roomRows(runtimeSources)),
    "",
  ].join("\n");
}
