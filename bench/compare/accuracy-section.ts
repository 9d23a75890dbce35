/**
 * Section "Accuracy": every parser on every committed corpus case (0.5–20 KB), final mode, judged strictly
 * against the value a careful human extracts. Reports the share correct, the silently wrong values, the
 * failures, and a table per variant.
 */
import type { CorpusCase } from "../corpus/corpus-case.js";
import { type Judgement, judgeAnswer, type Verdict } from "./judge-answer.js";
import { formatShare, markdownTable } from "./markdown-table.js";
import type { ParserUnderTest } from "./parser-under-test.js";

export interface AccuracyResult {
  markdown: string;
  /** parser name → case id → judgement, for the notes on disagreements. */
  judgements: Map<string, Map<string, Judgement>>;
}

export async function accuracySection(
  parsers: readonly ParserUnderTest[],
  cases: readonly CorpusCase[],
): Promise<AccuracyResult> {
  const judgements = new Map<string, Map<string, Judgement>>();
  for (const parser of parsers) {
    const byCase = new Map<string, Judgement>();
    for (const corpusCase of cases) byCase.set(corpusCase.id, await judgeAnswer(parser, corpusCase));
    judgements.set(parser.name, byCase);
  }
  const count = (parser: ParserUnderTest, verdict: Verdict, subset: readonly CorpusCase[]): number =>
    subset.filter((corpusCase) => judgements.get(parser.name)?.get(corpusCase.id)?.verdict === verdict)
      .length;

  const summary = markdownTable(
    ["parser", "correct", "silently wrong value", "failed (value was there)"],
    parsers.map((parser) => [
      parser.name,
      formatShare(count(parser, "correct", cases), cases.length),
      String(count(parser, "wrong", cases)),
      String(count(parser, "failed", cases)),
    ]),
  );

  const variantOf = (corpusCase: CorpusCase): string =>
    `${corpusCase.schema === "ticket" ? "ticket: " : ""}${corpusCase.variant}`;
  const variants = [...new Set(cases.map(variantOf))];
  const perVariant = markdownTable(
    ["variant", "cases", ...parsers.map((parser) => parser.name)],
    variants.map((variant) => {
      const subset = cases.filter((corpusCase) => variantOf(corpusCase) === variant);
      return [
        variant,
        String(subset.length),
        ...parsers.map((parser) => {
          const wrong = count(parser, "wrong", subset);
          return `${count(parser, "correct", subset)}${wrong > 0 ? ` (${wrong} wrong)` : ""}`;
        }),
      ];
    }),
  );

  const markdown = [
    "### Accuracy on the corpus",
    "",
    `${cases.length} committed answers (bench/corpus/cases: 5 schemas, 0.5–20 KB), each parsed once in final mode. ` +
      "Strict: a parse is correct only when its value deep-equals what a careful human extracts (or, for the " +
      "answers that name no value, when it fails). *Silently wrong* = a value came back, but not the right one.",
    "",
    summary,
    "",
    "Correct answers per variant (in parentheses: silently wrong values):",
    "",
    perVariant,
  ].join("\n");
  return { markdown, judgements };
}
