import type { Class, Field } from "../../../ir/index.js";
import { type CheckResult, type CoerceFailure, failure, NONE } from "../../coerce/coerce-result.js";
import { FLAG_PENALTIES, type Flag } from "../../flags.js";
import type { JsonishNode } from "../../lenient/jsonish-node.js";
import type { StreamCoerceContext } from "../../stream/stream-coerce-context.js";
import { pendingOf } from "../../stream/stream-of.js";
import { invalidField, missingField } from "./field-rules.js";

/** What one field contributes to the object: its value, or a reason to hold the whole object back. */
export interface FieldOutcome {
  /** The node it was read from (undefined: not written yet). */
  node: JsonishNode | undefined;
  /** It was read from a complete node, so it is final. */
  complete: boolean;
  value: unknown;
  score: number;
  pending: number;
  flags: readonly Flag[];
  checks: readonly CheckResult[];
  /** A `@stream.not_null` field without a value, or a complete value that does not fit. */
  failure?: CoerceFailure;
}

/**
 * One field of a partial object in a stream (the rules are on `classCoercer`): its value, `null` (or `[]`,
 * `{}`, a `{ value, state }` wrapper) while it is not written or not ready, or the reason the whole
 * object is held back. No closures: this runs on every chunk.
 */
export function readField(
  declaration: Class,
  field: Field,
  fieldNode: JsonishNode | undefined,
  fieldPath: string,
  context: StreamCoerceContext,
  closed = false,
): FieldOutcome {
  const attrs = field.type.attrs;
  if (fieldNode === undefined) {
    const fallback = closed && !attrs?.streamNotNull ? missingField(field, context, true) : undefined;
    if (fallback?.flag !== "WillFail")
      return waiting(declaration, field, undefined, "Pending", fieldPath, context);
    // A required field the closed object lacks: missing for good (final mode fails the object).
    return {
      node: undefined,
      complete: true,
      value: attrs?.streamWithState ? { value: fallback.value, state: "Complete" } : fallback.value,
      score: FLAG_PENALTIES[fallback.flag],
      pending: 0,
      flags: context.collectFlags
        ? [{ kind: fallback.flag, path: fieldPath, detail: fallback.detail }]
        : NONE,
      checks: NONE,
    };
  }
  const complete = fieldNode.complete;
  const result = context.coerce(field.type, fieldNode, fieldPath);
  if (result.ok) {
    const shown = attrs?.streamWithState ? (result.value as { value: unknown }).value : result.value;
    if (attrs?.streamNotNull && shown === null)
      return notReady(declaration, field, fieldNode, fieldPath, context);
    return {
      node: fieldNode,
      complete,
      value: result.value,
      score: result.score,
      pending: pendingOf(result),
      flags: result.flags,
      checks: result.checks,
    };
  }
  // Still being written and not ready to show (a quoted number, a `@stream.done` value).
  if (!complete) return waiting(declaration, field, fieldNode, "Incomplete", fieldPath, context);
  // A `@stream.not_null` field whose value does not fit never gets one: its object stays held back.
  if (attrs?.streamNotNull) return notReady(declaration, field, fieldNode, fieldPath, context);
  // The rule final mode follows too (an optional scalar is null); in prefix mode the object always stays.
  const fallback = invalidField(field, fieldNode, result.issue, context)!;
  return {
    node: fieldNode,
    complete,
    value: attrs?.streamWithState ? { value: fallback.value, state: "Complete" } : fallback.value,
    score: FLAG_PENALTIES[fallback.flag],
    pending: 0,
    flags: context.collectFlags ? [{ kind: fallback.flag, path: fieldPath, detail: fallback.detail }] : NONE,
    checks: NONE,
  };
}

/** A field without a value to show yet: null (or empty, or a `{ value, state }` wrapper). */
function waiting(
  declaration: Class,
  field: Field,
  fieldNode: JsonishNode | undefined,
  state: "Pending" | "Incomplete",
  fieldPath: string,
  context: StreamCoerceContext,
): FieldOutcome {
  const attrs = field.type.attrs;
  if (attrs?.streamNotNull) return notReady(declaration, field, fieldNode, fieldPath, context);
  // Lists and maps are never null in a partial: they start empty (the rule final mode's prefix reading
  // follows too).
  const empty = missingField(field, context)!.value;
  return {
    node: fieldNode,
    complete: fieldNode?.complete === true,
    value: attrs?.streamWithState ? { value: empty, state } : empty,
    score: 0,
    pending: 1,
    flags: context.collectFlags
      ? [
          {
            kind: "Pending",
            path: fieldPath,
            detail: state === "Pending" ? "not written yet" : "still being written",
          },
        ]
      : NONE,
    checks: NONE,
  };
}

/** A `@stream.not_null` field without a value: the whole object waits. */
function notReady(
  declaration: Class,
  field: Field,
  fieldNode: JsonishNode | undefined,
  fieldPath: string,
  context: StreamCoerceContext,
): FieldOutcome {
  return {
    node: fieldNode,
    complete: fieldNode?.complete === true,
    value: null,
    score: 0,
    pending: 0,
    flags: NONE,
    checks: NONE,
    failure: failure(
      "missing-field",
      fieldPath,
      context.describe(field.type),
      undefined,
      `${declaration.name} is held back until "${field.alias ?? field.name}" has a value (@stream.not_null).`,
    ),
  };
}
