import type { Field } from "../../../ir/index.js";
import type { CoerceContext } from "../../coerce/coerce-context.js";
import { type CoerceFailure, type CoerceIssue, failure } from "../../coerce/coerce-result.js";
import { FLAG_PENALTIES, type FlagKind } from "../../flags.js";
import type { JsonishNode, ObjectNode } from "../../lenient/jsonish-node.js";
import type { FieldMatch } from "./field-lookup.js";

/**
 * The rules for one field of a class, shared by final mode (`coerce-class.ts`) and streaming
 * (`read-field.ts`), so that both read an object the same way. A rule answers with the value the
 * field takes and the flag that says why, or `undefined` when the class itself fails (final mode only:
 * a partial object never fails because of a field; it shows what it can, and the final parse fails).
 * The streaming attributes (`@stream.not_null` holding back the object, `@stream.with_state` wrapping
 * the value) are applied on top by the streaming reader.
 */
export interface FieldFallback {
  value: unknown;
  flag: FlagKind;
  detail: string;
}

/**
 * A key seen again: whether its value replaces the one found before. The last one wins, as in
 * `JSON.parse`, but a key spelled exactly beats a case-folded one (`{"name": "b", "Name": "a"}` is "b").
 */
export function keyReplaces(match: FieldMatch, exactBefore: boolean): boolean {
  return !(match.folded && exactBefore);
}

/**
 * A field the answer has no key for. Final mode: an optional field is null, a required list or map
 * empty (both flagged), anything else fails the class. Prefix mode: not written yet (null; lists `[]`,
 * maps `{}`); once its object has `closed`, a required field (one final mode fails the class for) is
 * missing for good: the object stays in place, the field null and flagged `WillFail`, so a reading or
 * union option that has it wins, and only the final parse fails.
 */
export function missingField(
  field: Field,
  context: CoerceContext,
  closed = false,
): FieldFallback | undefined {
  const fallback = context.missing(field.type);
  if (context.partial && closed && !fallback) {
    return { value: null, flag: "WillFail", detail: "missing; the final parse will fail (missing-field)" };
  }
  if (context.partial) {
    return {
      value: fallback?.reason === "empty" ? fallback.value : null,
      flag: "Pending",
      detail: "not written yet",
    };
  }
  if (!fallback) return undefined;
  return {
    value: fallback.value,
    flag: fallback.reason === "optional" ? "DefaultFromMissing" : "EmptyFromMissing",
    detail: `missing; set to ${JSON.stringify(fallback.value)}`,
  };
}

/**
 * A field whose written value does not fit its type. In both modes an optional field given a scalar
 * that does not fit becomes null (flagged); structured data that does not fit is never silently dropped.
 * Final mode: anything else fails the class. Prefix mode: the object stays, the field null, flagged
 * `WillFail` (the final parse will fail; a partial that showed the object never turns into null).
 */
export function invalidField(
  field: Field,
  node: JsonishNode,
  issue: CoerceIssue,
  context: CoerceContext,
): FieldFallback | undefined {
  const fallback = context.missing(field.type);
  const scalar = node.kind !== "object" && node.kind !== "array";
  if (fallback?.reason === "optional" && scalar) {
    return {
      value: null,
      flag: "DefaultFromInvalid",
      detail: `expected ${issue.expected}, found ${issue.found}; set to null`,
    };
  }
  if (!context.partial) return undefined;
  return {
    value: fallback?.reason === "empty" ? fallback.value : null,
    flag: "WillFail",
    detail: `expected ${issue.expected}, found ${issue.found}; the final parse will fail (${issue.code})`,
  };
}

/**
 * Whether a single-field class may read an object that has none of its keys as the value of its one
 * field (`ImpliedKey`): only when that field holds structured data, as an object is never read as a
 * scalar or as text. Both modes then keep whichever reading repairs less.
 */
export function mayImplyKey(
  soleField: Field | undefined,
  node: ObjectNode,
  matchesAnyKey: boolean,
  context: CoerceContext,
): soleField is Field {
  return (
    !matchesAnyKey &&
    soleField !== undefined &&
    node.entries.length > 0 &&
    context.plainText(soleField.type) === "never"
  );
}

/**
 * What final mode charges for the one field of a single-field class that a closed object lacks: its
 * default (an optional field), else the penalty of an empty list or map, or of a failure.
 */
export function missingPenalty(field: Field, context: CoerceContext): number {
  const fallback = context.missing(field.type);
  if (fallback?.reason === "optional") return FLAG_PENALTIES.DefaultFromMissing;
  return fallback ? FLAG_PENALTIES.EmptyFromMissing : FLAG_PENALTIES.WillFail;
}

/**
 * A list put into a single-field class's only field as its JSON text (`Title: My [draft] post` read as
 * `{"title": "[\"draft\"]"}`): no reading of the answer, since a bracketed fragment of prose would beat
 * the text around it. The class fails on it (this failure) and other readings (the label line, the text)
 * decide.
 */
export function listAsFieldText(
  field: Field,
  node: JsonishNode,
  fieldValue: unknown,
  path: string,
): CoerceFailure | undefined {
  if (node.kind !== "array" || typeof fieldValue !== "string" || !fieldValue.startsWith("["))
    return undefined;
  const name = field.alias ?? field.name;
  return failure(
    "type-mismatch",
    path,
    `an object with "${name}"`,
    node,
    `A list is not the text of "${name}".`,
  );
}
