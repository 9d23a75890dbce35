import type { Ir, IrIndex, Type } from "../../ir/index.js";
import { originFlags, SECTIONS_REPAIR } from "../choose/candidate.js";
import type { ConstraintEvaluator } from "../coerce/coerce-context.js";
import { placeFlags, scoreFlags } from "../flags.js";
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
  const { result, source } = reading;
  // Node offsets count from the start of their prose region (a fence's parser starts after its header
  // line, which the region does not record: those flags point at the whole reading).
  const { region, root } = source;
  // (A reading of the answer after reasoning blocks counts from where that answer starts.)
  const from = reader.base;
  const prose = !source.combined && region?.kind !== "fence";
  const base = prose ? from + (region?.start ?? 0) : undefined;
  const rooted = region && root && prose;
  const span = rooted
    ? {
        start: from + region.start + root.start,
        end: root.node.complete ? from + region.start + root.end : text.length,
      }
    : { start: from, end: text.length };
  // As at the end of a read: where the value was read from, and whether its text had to be repaired.
  const repairs = source.labels
    ? ["key: value lines"]
    : source.sections
      ? [SECTIONS_REPAIR]
      : [...(root?.repairs ?? [])];
  if (root && !root.node.complete && !repairs.includes("unclosed container"))
    repairs.push("unclosed container");
  if (region?.kind === "fence" && !region.closed && root) repairs.push("unclosed fence");
  const origin = source.combined ? "combined" : region?.kind === "fence" ? "fence" : "prose";
  const surrounded =
    rooted === true && (text.slice(0, span.start).trim() !== "" || text.slice(span.end).trim() !== "");
  const where = originFlags({ origin, fenceTag: region?.tag, surrounded, repairs });
  const flags = placeFlags([...result.flags, ...where], base, span);
  return { value: reading.value, flags, score: scoreFlags(flags), checks: [...result.checks] };
}
