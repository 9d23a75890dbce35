/**
 * Section "Streaming": the CPU cost of having a partial value after every 16-character chunk, for the 2 KB
 * and 20 KB clean, chatty-fenced and messy answers of the 4 object schemas (12 streams per size). Re-parsing
 * strategies parse every prefix (sampled and scaled when that would exceed the per-stream budget, said in
 * the table); an incremental stream parser is fed every chunk. Medians over the streams; ratios compare
 * with the first strategy (Sapling when present).
 */
import type { CorpusCase, CorpusSize } from "../corpus/corpus-case.js";
import { formatDuration, formatRatio, markdownTable } from "./markdown-table.js";
import { median } from "./measure-time.js";
import { type StreamCost, type StreamStrategy, splitIntoChunks } from "./stream-strategy.js";

export const streamChunkSize = 16;
export const streamingSizes: readonly CorpusSize[] = ["2k", "20k"];
export const streamingVariants: readonly string[] = ["clean", "chatty-fenced", "messy"];

/** Per-stream time budget for re-parsing strategies before they switch to sampled prefixes. */
const budgetMs = 800;

export async function streamingSection(
  strategies: readonly StreamStrategy[],
  cases: readonly CorpusCase[],
): Promise<string> {
  const [reference] = strategies;
  if (reference === undefined) return "";
  const rows: string[][] = [];
  for (const size of streamingSizes) {
    const streams = cases.filter(
      (corpusCase) => corpusCase.size === size && streamingVariants.includes(corpusCase.variant),
    );
    const chunkCounts = streams.map(
      (corpusCase) => splitIntoChunks(corpusCase.answer, streamChunkSize).length,
    );
    const results = new Map<string, StreamCost[]>();
    for (const strategy of strategies) {
      const costs: StreamCost[] = [];
      for (const corpusCase of streams) {
        costs.push(
          await strategy.cost(corpusCase, splitIntoChunks(corpusCase.answer, streamChunkSize), budgetMs),
        );
      }
      results.set(strategy.name, costs);
    }
    const totalOf = (strategy: StreamStrategy): number =>
      median((results.get(strategy.name) ?? []).map((cost) => cost.totalMs));
    for (const strategy of strategies) {
      const costs = results.get(strategy.name) ?? [];
      const strides = costs.map((cost) => cost.stride);
      const maxStride = Math.max(...strides);
      const totalMs = totalOf(strategy);
      rows.push([
        `${size.replace("k", " KB")} (${Math.min(...chunkCounts)}–${Math.max(...chunkCounts)} chunks)`,
        strategy.name,
        strategy.incremental
          ? "incremental"
          : maxStride === 1
            ? "every prefix"
            : `every prefix (est. from 1 in ≤${maxStride})`,
        formatDuration(totalMs),
        formatDuration(totalMs / median(chunkCounts)),
        formatDuration(median(costs.map((cost) => cost.lastChunkMs))),
        `${Math.round((costs.reduce((sum, cost) => sum + cost.valueShare, 0) / costs.length) * 100)}%`,
        strategy === reference ? "1×" : formatRatio(totalMs, totalOf(reference)),
      ]);
    }
  }
  return [
    "### Streaming: a partial after every chunk",
    "",
    `Each answer is cut into ${streamChunkSize}-character chunks and a partial value is produced after every chunk. ` +
      "Re-parsing strategies parse the whole buffer again each time (what BAML's runtime does on each 50 ms tick, " +
      "and what the AI SDK's `streamObject` does per chunk); when timing every prefix of a stream would exceed " +
      `${budgetMs} ms, every k-th prefix (always including the last) is timed and the sum multiplied by k — the ` +
      "table says so. Streams: the `clean`, `chatty-fenced` and `messy` answers of the 4 object schemas (12 per size). Medians over the " +
      "streams; *last chunk* is the cost of the partial after the final chunk (what each tick costs once the " +
      "answer is long); *chunks with a value* is the mean share of chunks after which the parser had a partial " +
      `value to show; the last column compares whole-stream cost with ${reference.name}.`,
    "",
    markdownTable(
      [
        "stream",
        "parser",
        "how",
        "whole stream",
        "mean per chunk",
        "last chunk",
        "chunks with a value",
        `÷ ${reference.name}`,
      ],
      rows,
    ),
  ].join("\n");
}
