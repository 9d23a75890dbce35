import type { FinishReason } from "../llm/index.js";
import type { Flag } from "../sap/index.js";

/**
 * Whether an answer was cut before it ended, and which fields of the parsed value are incomplete. One rule
 * for every place that reports it: the Collector's `FunctionLog`, `BamlClientFinishReasonError`,
 * `sapling call` and the `x-sapling-*` headers of `sapling serve`.
 */
export interface AnswerCompleteness {
  /**
   * The answer was cut: the model stopped on its token limit (normalized finish reason `length`), or its
   * text ended inside a value (the parser flagged something `Incomplete`).
   */
  truncated: boolean;
  /**
   * JSONPath-like paths of the fields the answer did not finish: values cut mid-way (`Incomplete` flags),
   * and, when the answer was cut, fields it never reached that were filled with `null` or `[]`.
   */
  incompleteFields: string[];
}

/** A complete answer: not cut, nothing incomplete. */
export const COMPLETE_ANSWER: AnswerCompleteness = { truncated: false, incompleteFields: [] };

// Flags for a field the answer never wrote: in a cut answer that field was lost, not left out on purpose.
const NEVER_WRITTEN = new Set<Flag["kind"]>(["DefaultFromMissing", "EmptyFromMissing"]);

/** The completeness of an answer from its normalized finish reason and the parser's flags. */
export function answerCompleteness(
  finishReason: FinishReason | undefined,
  flags: readonly Flag[],
): AnswerCompleteness {
  const truncated = finishReason === "length" || flags.some((flag) => flag.kind === "Incomplete");
  const paths = new Set<string>();
  for (const flag of flags) {
    if (flag.kind === "Incomplete" || (truncated && NEVER_WRITTEN.has(flag.kind))) paths.add(flag.path);
  }
  return { truncated, incompleteFields: [...paths] };
}
