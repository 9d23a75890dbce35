import type { Class, Field } from "../../../ir/index.js";
import type { CoerceContext } from "../../coerce/coerce-context.js";
import { type CheckResult, type CoerceFailure, failure, NONE } from "../../coerce/coerce-result.js";
import { FLAG_PENALTIES, type Flag, flagAt } from "../../flags.js";
import type { JsonishNode } from "../../lenient/jsonish-node.js";
import type { StreamCoerceContext } from "../../stream/stream-coerce-context.js";
import { pendingOf } from "../../stream/stream-of.js";
import { type FieldFallback, invalidField, missingField } from "./field-rules.js";

/** What one field contributes to the object: its value, or a reason the object fails or is held back. */
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
  /**
   * A one-shot read: a required field missing, or a value that does not fit. A stream: a
   * `@stream.not_null` field without a value, or a complete value that does not fit.
   */
  failure?: CoerceFailure;
}

/**
 * One field of an object (`fieldNode`: the node its key was last given, if any; `object`: the object),
 * in both modes: its value, the value the rules of `field-rules.ts` give a field missing or not fitting,
 * or the reason the object fails. In a stream (`stream`), the field of a partial object: `null` (or
 * `[]`, `{}`, a `{ value, state }` wrapper) while it is not written or not ready, with the streaming
 * attributes on top (`@stream.not_null` holds back the whole object); it never fails the object
 * (`WillFail`). No closures: this runs on every chunk.
 */
export function readField(
  declaration: Class,
  field: Field,
  fieldNode: JsonishNode | undefined,
  fieldPath: string,
  object: JsonishNode,
  context: CoerceContext,
  stream: StreamCoerceContext | undefined,
  closed = false,
): FieldOutcome {
  const attrs = stream === undefined ? undefined : field.type.attrs;
  if (fieldNode === undefined) {
    if (stream === undefined) {
      const fallback = missingField(field, context);
      if (fallback !== undefined)
        return fellBack(fallback, undefined, fieldPath, object, undefined, undefined);
      const missing = failure(
        "missing-field",
        fieldPath,
        context.describe(field.type),
        undefined,
        `The answer has no "${field.alias ?? field.name}" for ${declaration.name}.`,
      );
      return failed(undefined, missing);
    }
    const fallback = closed && !attrs?.streamNotNull ? missingField(field, context, true) : undefined;
    if (fallback?.flag !== "WillFail")
      return waiting(declaration, field, undefined, "Pending", fieldPath, stream);
    // A required field the closed object lacks: missing for good (final mode fails the object).
    return fellBack(fallback, undefined, fieldPath, object, stream, attrs);
  }
  const complete = fieldNode.complete;
  const result = context.coerce(field.type, fieldNode, fieldPath);
  if (result.ok) {
    if (attrs?.streamNotNull) {
      const shown = attrs.streamWithState ? (result.value as { value: unknown }).value : result.value;
      if (shown === null) return notReady(declaration, field, fieldNode, fieldPath, stream!);
    }
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
  if (stream !== undefined) {
    // Still being written and not ready to show (a quoted number, a `@stream.done` value).
    if (!complete) return waiting(declaration, field, fieldNode, "Incomplete", fieldPath, stream);
    // A `@stream.not_null` field whose value does not fit never gets one: its object stays held back.
    if (attrs?.streamNotNull) return notReady(declaration, field, fieldNode, fieldPath, stream);
  }
  return unfitField(field, fieldNode, fieldPath, result, context, stream);
}

/**
 * A field whose written value does not fit its type (`result`, the failed coercion of `fieldNode`): an
 * optional scalar is null; else a one-shot read fails, and in a stream the object stays. (A one-shot
 * read of a written field coerces it itself and comes here only when that fails.)
 */
export function unfitField(
  field: Field,
  fieldNode: JsonishNode,
  fieldPath: string,
  result: CoerceFailure,
  context: CoerceContext,
  stream: StreamCoerceContext | undefined,
): FieldOutcome {
  const fallback = invalidField(field, fieldNode, result.issue, context);
  if (fallback === undefined) return failed(fieldNode, result);
  const attrs = stream === undefined ? undefined : field.type.attrs;
  return fellBack(fallback, fieldNode, fieldPath, fieldNode, stream, attrs);
}

/**
 * A field given the value a rule of `field-rules.ts` gives it, flagged (the flag about `site`; in a
 * stream, `@stream.with_state` wraps the value, complete).
 */
function fellBack(
  fallback: FieldFallback,
  fieldNode: JsonishNode | undefined,
  fieldPath: string,
  site: JsonishNode,
  stream: StreamCoerceContext | undefined,
  attrs: Field["type"]["attrs"],
): FieldOutcome {
  return {
    node: fieldNode,
    complete: true,
    value: attrs?.streamWithState ? { value: fallback.value, state: "Complete" } : fallback.value,
    score: FLAG_PENALTIES[fallback.flag],
    pending: 0,
    flags:
      stream === undefined || stream.collectFlags
        ? [flagAt(fallback.flag, fieldPath, fallback.detail, site)]
        : NONE,
    checks: NONE,
  };
}

/** A field the object fails on (a one-shot read). */
function failed(fieldNode: JsonishNode | undefined, reason: CoerceFailure): FieldOutcome {
  return {
    node: fieldNode,
    complete: true,
    value: null,
    score: 0,
    pending: 0,
    flags: NONE,
    checks: NONE,
    failure: reason,
  };
}

/** A field without a value to show yet: null (or empty, or a `{ value, state }` wrapper). */
function waiting(
  declaration: Class,
  field: Field,
  fieldNode: JsonishNode | undefined,
  state: "Pending" | "Incomplete",
  fieldPath: string,
  stream: StreamCoerceContext,
): FieldOutcome {
  const attrs = field.type.attrs;
  if (attrs?.streamNotNull) return notReady(declaration, field, fieldNode, fieldPath, stream);
  // Lists and maps are never null in a partial: they start empty (the rule final mode's prefix reading
  // follows too).
  const empty = missingField(field, stream)!.value;
  return {
    node: fieldNode,
    complete: fieldNode?.complete === true,
    value: attrs?.streamWithState ? { value: empty, state } : empty,
    score: 0,
    pending: 1,
    flags: stream.collectFlags
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
  stream: StreamCoerceContext,
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
      stream.describe(field.type),
      undefined,
      `${declaration.name} is held back until "${field.alias ?? field.name}" has a value (@stream.not_null).`,
    ),
  };
}
