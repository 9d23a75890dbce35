import type { Ir, IrIndex, Type } from "../../ir/index.js";
import type { ConstraintEvaluator } from "../coerce/coerce-context.js";
import type { ParseResult } from "../parse-value.js";
import { indexOf } from "./index-of.js";
import { PartialReader } from "./partial-reader.js";

export interface PartialParseOptions {
  /** Evaluates `@check`/`@assert` expressions (run on complete values only); required when the type has any. */
  constraintEvaluator?: ConstraintEvaluator;
}

/**
 * Parse the beginning of an answer still being written into the *partial* value of `type` (BAML's
 * `parseStream`): fields not written yet are null (lists `[]`, maps `{}`), strings show their text so far,
 * numbers, bools, enums, literals and `@stream.done` values appear only once complete, `@stream.not_null`
 * holds back the enclosing object, `@stream.with_state` wraps `{ value, state }`. Nothing usable yet is
 * `null` (`[]` for a list, `{}` for a map). Never throws for any text (only for a misconfigured type). Gives exactly what a stream parser
 * fed the same text in any chunks shows.
 */
export function parsePartial(
  text: string,
  type: Type,
  ir: Ir | IrIndex,
  options: PartialParseOptions = {},
): ParseResult {
  const reader = new PartialReader(type, indexOf(ir), {
    constraintEvaluator: options.constraintEvaluator,
    collectFlags: true,
  });
  reader.push(text);
  const reading = reader.read();
  if (!reading) {
    return {
      value: reader.nothingYet(),
      flags: [{ kind: "Pending", path: "$", detail: "nothing usable written yet" }],
      score: 0,
      checks: [],
    };
  }
  const { result } = reading;
  return { value: reading.value, flags: [...result.flags], score: result.score, checks: [...result.checks] };
}
