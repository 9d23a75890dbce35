import type { Ir, IrIndex, Type } from "../ir/index.js";
import { quickAnswer } from "./choose/settle-answer.js";
import type { ConstraintEvaluator } from "./coerce/coerce-context.js";
import type { CheckResult } from "./coerce/coerce-result.js";
import type { Flag } from "./flags.js";
import { indexOf } from "./stream/index-of.js";
import { parsePartial } from "./stream/parse-partial.js";
import { PartialReader } from "./stream/partial-reader.js";
import type { WorkCounter } from "./work-counter.js";
import { workMeter } from "./work-meter.js";

export interface ParseOptions {
  /**
   * Prefix mode: the text is the beginning of an answer still being written. Answered by the streaming
   * parser's `parsePartial` (so a one-shot prefix parse and a stream agree): fields not written yet are
   * null (lists `[]`), and an answer with nothing usable yet is `null`.
   */
  partial?: boolean;
  /** Evaluates `@check`/`@assert` expressions; required when the type has any. */
  constraintEvaluator?: ConstraintEvaluator;
  /**
   * Counts the work done (characters read, coercer calls): for tests and fuzz runs that check an answer
   * costs work in proportion to its length. Final mode only.
   */
  work?: WorkCounter;
}

export interface ParseResult {
  value: unknown;
  /** Every repair made, with where and what; empty for a perfect answer. */
  flags: Flag[];
  /** Sum of the flags' penalties (0 = the answer was exactly the type). */
  score: number;
  /** Results of every `@check` and `@assert` evaluated. */
  checks: CheckResult[];
}

/**
 * Parse a model's answer into a value of `type`. Valid JSON that exactly is a value of the type is read
 * by `JSON.parse` and a strict walk; any other answer is read as a stream read to its end (one reader
 * for both modes: `PartialReader.end`): every plausible reading (valid JSON, fences, objects in prose,
 * label lines and sections, the text itself) coerced toward the type, and the one with the lowest score
 * kept (ties: a fence beats prose, else the earlier one). Throws `SapParseError` — with the path, the
 * expected type, what was found and the raw text — when no reading fits.
 */
export function parseValue(
  text: string,
  type: Type,
  ir: Ir | IrIndex,
  options: ParseOptions = {},
): ParseResult {
  // Prefix mode is the streaming parser's: the same reading a stream parser shows after this text.
  if (options.partial) return parsePartial(text, type, ir, options);
  const index = indexOf(ir);
  const quick = quickAnswer(text, type, index, options);
  if (quick.result) return quick.result;
  const work = options.work;
  const before = workMeter.steps;
  try {
    const reader = new PartialReader(type, index, {
      constraintEvaluator: options.constraintEvaluator,
      collectFlags: false,
    });
    reader.pushLast(text);
    return reader.end(text, options, quick);
  } finally {
    if (work) work.steps += workMeter.steps - before;
  }
}
