/**
 * Runs one parser on one corpus case (final mode) and judges the outcome against the careful reading:
 * `correct` (the expected value, or a failure where the answer holds no value), `wrong` (a value, but not
 * the expected one — silently wrong), or `failed` (threw although a value was there).
 */
import type { CorpusCase } from "../corpus/corpus-case.js";
import { deepEqual } from "./deep-equal.js";
import type { ParserUnderTest } from "./parser-under-test.js";

export type Verdict = "correct" | "wrong" | "failed";

export interface Judgement {
  verdict: Verdict;
  /** The value returned, or the error message. */
  detail: unknown;
}

export async function judgeAnswer(parser: ParserUnderTest, corpusCase: CorpusCase): Promise<Judgement> {
  let value: unknown;
  try {
    value = await parser.parse(corpusCase, corpusCase.answer, "final");
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { verdict: "error" in corpusCase.expected ? "correct" : "failed", detail: message };
  }
  if ("error" in corpusCase.expected) return { verdict: "wrong", detail: value };
  return { verdict: deepEqual(value, corpusCase.expected.value) ? "correct" : "wrong", detail: value };
}
