/**
 * Section "Parse speed": median time per answer at 0.5, 2, 20 and 200 KB, final mode for every parser and
 * partial (prefix) mode for the parsers that have one. Each size has the same 12 answers (4 object schemas
 * × clean / chatty-fenced / messy). Per answer, a parser runs until a time budget is spent (fast calls in
 * batches); at 200 KB a parser slower than the budget runs once. The cell is the median over the 12
 * per-answer medians; ratios compare with the first parser (Sapling when present).
 */

import { type SizeSeriesVariant, sizeSeriesVariants } from "../corpus/answer-variants.js";
import type { CorpusCase, CorpusSize } from "../corpus/corpus-case.js";
import { corpusSizes } from "../corpus/corpus-case.js";
import { formatDuration, formatRatio, markdownTable } from "./markdown-table.js";
import { measureTime, median } from "./measure-time.js";
import type { ParseMode, ParserUnderTest } from "./parser-under-test.js";

/** Time budget per (parser, answer, mode): enough samples for small answers, one run for huge slow ones. */
const budgetMs: Record<CorpusSize, number> = { "0.5k": 30, "2k": 40, "20k": 100, "200k": 200 };

/**
 * Partial mode stops timing further answers of a size once this much time is spent on it: a prefix parse
 * that slow cannot keep up with a stream anyway, and BAML at 200 KB would otherwise add a minute.
 */
const partialCellCapMs = 10_000;

interface Cell {
  medianMs: number;
  /** Answers for which the parser returned a value (not necessarily the right one). */
  parsed: number;
  /** Answers timed (fewer than `total` when the partial-mode cap stopped the cell). */
  timed: number;
  total: number;
}

async function measureCell(
  parser: ParserUnderTest,
  cases: readonly CorpusCase[],
  mode: ParseMode,
): Promise<Cell> {
  const perAnswer: number[] = [];
  let parsed = 0;
  const started = performance.now();
  for (const corpusCase of cases) {
    if (mode === "partial" && performance.now() - started > partialCellCapMs) break;
    const call = async (): Promise<void> => {
      try {
        await parser.parse(corpusCase, corpusCase.answer, mode);
      } catch {
        // Failing is timed too: a parser that gives up fast is still measured on the same answers.
      }
    };
    try {
      await parser.parse(corpusCase, corpusCase.answer, mode);
      parsed += 1;
    } catch {
      // Counted as not parsed.
    }
    perAnswer.push((await measureTime(call, { budgetMs: budgetMs[corpusCase.size] })).medianMs);
  }
  return { medianMs: median(perAnswer), parsed, timed: perAnswer.length, total: cases.length };
}

function table(
  parsers: readonly ParserUnderTest[],
  cells: Map<string, Map<CorpusSize, Cell>>,
  sizes: readonly CorpusSize[],
  sizeLabel: (size: CorpusSize) => string,
): string {
  const [reference, ...others] = parsers;
  if (reference === undefined) return "";
  const header = [
    "answer size",
    ...parsers.map((parser) => parser.name),
    ...others.map((parser) => `${parser.name} ÷ ${reference.name}`),
  ];
  const rows = sizes.map((size) => {
    const cell = (parser: ParserUnderTest): Cell => cells.get(parser.name)?.get(size) as Cell;
    return [
      sizeLabel(size),
      ...parsers.map((parser) => {
        const { medianMs, parsed, timed, total } = cell(parser);
        const notes = [
          ...(timed < total ? [`${timed}/${total} timed`] : []),
          ...(parsed < timed ? [`${parsed}/${timed} parsed`] : []),
        ];
        return `${formatDuration(medianMs)}${notes.length > 0 ? ` (${notes.join(", ")})` : ""}`;
      }),
      ...others.map((parser) => formatRatio(cell(parser).medianMs, cell(reference).medianMs)),
    ];
  });
  return markdownTable(header, rows);
}

export async function speedSection(
  finalParsers: readonly ParserUnderTest[],
  partialParsers: readonly ParserUnderTest[],
  sizeSeries: readonly CorpusCase[],
): Promise<string> {
  const sizes = corpusSizes.filter((size) => sizeSeries.some((corpusCase) => corpusCase.size === size));
  // Variant-major order, so a capped partial-mode cell has still timed every schema's clean answer.
  const casesOf = (size: CorpusSize): CorpusCase[] =>
    sizeSeries
      .filter((corpusCase) => corpusCase.size === size)
      .sort(
        (left, right) =>
          sizeSeriesVariants.indexOf(left.variant as SizeSeriesVariant) -
          sizeSeriesVariants.indexOf(right.variant as SizeSeriesVariant),
      );
  const sizeLabel = (size: CorpusSize): string => {
    const bytes = casesOf(size).map((corpusCase) => Buffer.byteLength(corpusCase.answer));
    return `${size.replace("k", " KB")} (${Math.min(...bytes)}–${Math.max(...bytes)} B, ${bytes.length} answers)`;
  };
  const run = async (
    parsers: readonly ParserUnderTest[],
    mode: ParseMode,
  ): Promise<Map<string, Map<CorpusSize, Cell>>> => {
    const cells = new Map<string, Map<CorpusSize, Cell>>();
    for (const parser of parsers) {
      const bySize = new Map<CorpusSize, Cell>();
      for (const size of sizes) bySize.set(size, await measureCell(parser, casesOf(size), mode));
      cells.set(parser.name, bySize);
    }
    return cells;
  };
  const finalCells = await run(finalParsers, "final");
  const partialCells = await run(partialParsers, "partial");
  return [
    "### Parse speed by answer size",
    "",
    "The same answers at every size: the 4 object schemas × `clean` (compact JSON), `chatty-fenced` and `messy` " +
      "(see bench/corpus/README.md). Each cell is the median over those answers of the per-answer median time; " +
      `per answer a parser runs until a budget is spent (${corpusSizes.map((size) => `${budgetMs[size]} ms at ${size.replace("k", " KB")}`).join(", ")}; ` +
      "calls under 0.2 ms are timed in batches), and only once when a single run takes longer than that. " +
      "Failed parses are timed too; *(n/12 parsed)* says how many answers gave a value at all. In partial mode a " +
      `size stops taking further answers once ${partialCellCapMs / 1000} s have been spent on it (*k/12 timed*; ` +
      "answers are taken clean first, then chatty-fenced, then messy, each over the 4 schemas). The *÷ Sapling* " +
      "columns divide that parser's time by Sapling's (above 1× = slower than Sapling).",
    "",
    "Final mode (a whole answer):",
    "",
    table(finalParsers, finalCells, sizes, sizeLabel),
    "",
    "Partial mode (the answer treated as a streaming prefix: BAML's `allowPartials`, Sapling's `parsePartial`, the AI SDK's parser without validation):",
    "",
    table(partialParsers, partialCells, sizes, sizeLabel),
  ].join("\n");
}
