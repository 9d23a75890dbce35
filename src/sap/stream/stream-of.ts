import type { CoerceContext } from "../coerce/coerce-context.js";
import type { CoerceFailure, CoerceSuccess } from "../coerce/coerce-result.js";
import { FLAG_PENALTIES } from "../flags.js";
import type { StreamCoerceContext } from "./stream-coerce-context.js";

/**
 * What the kinds' one coercer per kind needs of a stream, apart from the stream's context itself (a
 * module of its own, with no heavy imports, so `kinds/` reach it without a cycle through the coercer
 * table): whether a read is a stream's, what a partial counts as still to come, and what it shows for a
 * container final mode will reject.
 */

/**
 * The stream's context when `context` reads a stream (prefix mode: the coercer keeps its state between
 * chunks in the stream's slots and builds the partial view), else undefined (a one-shot read: the state
 * is local to the call).
 */
export function streamOf(context: CoerceContext): StreamCoerceContext | undefined {
  return (context as Partial<StreamCoerceContext>).slots === undefined
    ? undefined
    : (context as StreamCoerceContext);
}

/** A streaming coerce result: a success also counts the fields not written yet (for choosing readings). */
export type StreamSuccess = CoerceSuccess & { pending?: number };

/** How many fields of a partial value are still to come (0 for anything but streaming containers). */
export function pendingOf(result: CoerceSuccess): number {
  return (result as StreamSuccess).pending ?? 0;
}

/**
 * Prefix mode's answer to a container final mode rejects as a whole once it is closed (a list or map
 * none of whose items fit): as for a field that will fail (`invalidField` in field-rules), the value
 * shown stays, flagged `WillFail` (penalty 100: any reading that fits wins), and only the final parse
 * fails. A partial never turns what it showed into null for it.
 */
export function shownButWillFail(
  failed: CoerceFailure,
  value: unknown,
  context: StreamCoerceContext,
): StreamSuccess {
  const { issue } = failed;
  const detail = `${issue.found}; the final parse will fail (${issue.code})`;
  const flags = context.collectFlags ? [{ kind: "WillFail" as const, path: issue.path, detail }] : [];
  return { ok: true, value, flags, score: FLAG_PENALTIES.WillFail, checks: [] };
}
