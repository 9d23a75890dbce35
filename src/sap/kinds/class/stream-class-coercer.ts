import type { Class, ClassRefType, Field } from "../../../ir/index.js";
import { applyConstraints } from "../../coerce/apply-constraints.js";
import type { KindCoercer } from "../../coerce/coerce-context.js";
import {
  addFlag,
  type CheckResult,
  type CoerceResult,
  childPath,
  failure,
} from "../../coerce/coerce-result.js";
import { setOwn } from "../../coerce/set-own.js";
import { FLAG_PENALTIES, type Flag } from "../../flags.js";
import type { JsonishNode, ObjectNode } from "../../lenient/jsonish-node.js";
import { keptState, stableObject } from "../../stream/slot-store.js";
import type { StreamCoerceContext } from "../../stream/stream-coerce-context.js";
import { pendingOf, type StreamSuccess } from "../../stream/stream-of.js";
import { callArguments, isArgumentsKey, MAX_CALLS } from "./call-arguments.js";
import { classCoercer } from "./coerce-class.js";
import { type FieldLookup, fieldLookupOf, matchField } from "./field-lookup.js";
import { keyReplaces, listAsFieldText, mayImplyKey, missingPenalty } from "./field-rules.js";
import { type FieldOutcome, NO_CHECKS, NO_FLAGS, readField } from "./read-field.js";

/**
 * A growing object read so far: entries are only appended, so each key is matched once; a field whose
 * node is complete is coerced once and its outcome kept; only the field being written is read again.
 */
interface ObjectState {
  scanned: number;
  /** Per field (in declaration order): the node its key was last given, if any. */
  found: (JsonishNode | undefined)[];
  /** Per field: a key spelled exactly was seen (it beats case-folded ones). */
  exact: boolean[];
  matchedAny: boolean;
  /** The last entry written under a key that may hold a function call's arguments (`callArguments`). */
  argument: [string, JsonishNode] | undefined;
  /** The arguments object the class was read from at the last read, if it was. */
  call: ObjectNode | undefined;
  keyFlags: Flag[];
  keyScore: number;
  /** Per field: its outcome at the last read. */
  outcomes: (FieldOutcome | undefined)[];
  paths: string[];
  /** Scratch: this read's outcome per field (reused, this runs on every chunk). */
  current: FieldOutcome[];
  /** Per field: the value handed out at the last read. */
  previous: unknown[];
  last: Record<string, unknown> | undefined;
}

/**
 * The field whose value is `node`'s last entry, as the class coercer read it at the last chunk: the
 * field its key names (exactly, else ignoring case and spacing), if that entry is the one the field shows
 * (a case-folded key written after an exact one is not). Undefined otherwise.
 */
export function fieldOfLastEntry(
  declaration: Class,
  type: ClassRefType,
  node: ObjectNode,
  path: string,
  context: StreamCoerceContext,
): Field | undefined {
  const entry = node.entries[node.entries.length - 1];
  if (entry === undefined) return undefined;
  const lookup = fieldLookupOf(declaration);
  const field = matchField(lookup, entry[0])?.field;
  if (field === undefined) return undefined;
  const state = context.slot(node, type, path).state as ObjectState | undefined;
  return state?.found[lookup.positions.get(field)!] === entry[1] ? field : undefined;
}

/**
 * Classes in prefix mode. Keys match fields as in final mode (exactly, else ignoring case and spacing).
 * Fields not written yet are null (lists `[]`, maps `{}`), or `{ value, state: "Pending" }` with
 * `@stream.with_state`; a field whose value is still being written and not ready (a number in quotes, a
 * `@stream.done` value) is null too (`state: "Incomplete"`). A `@stream.not_null` field without a value
 * holds back the whole object (it is not ready). A complete field that does not fit follows final mode's
 * rule (an optional scalar becomes null), else it is null, flagged `WillFail` (the object stays;
 * the final parse fails). Class `@@check`/`@@assert` run once it is complete (see `applyConstraints`).
 */
export const streamClassCoercer: KindCoercer<ClassRefType> = {
  ...classCoercer,
  coerce(type, node, path, baseContext) {
    const context = baseContext as StreamCoerceContext;
    const declaration = context.index.getClass(type.name);
    const result = coerceClass(declaration, type, node, path, context);
    if (!result.ok || !node.complete || declaration.constraints.length === 0) return result;
    const checked = applyConstraints(declaration.constraints, result, path, context, `class ${type.name}`);
    return checked.ok ? { ...checked, pending: pendingOf(result) } : checked;
  },
};

function coerceClass(
  declaration: Class,
  type: ClassRefType,
  node: JsonishNode,
  path: string,
  context: StreamCoerceContext,
  calls = 0,
): CoerceResult {
  const lookup = fieldLookupOf(declaration);
  const soleField = lookup.fields.length === 1 ? lookup.fields[0] : undefined;
  if (node.kind === "object") {
    const state = objectState(declaration, lookup, type, node, path, context);
    // A function call's arguments (final mode's rule). Moving between them and the object's own keys
    // starts the value over, unless nothing was shown yet (no key named a field).
    const call =
      calls < MAX_CALLS
        ? callArguments(state.argument, lookup.fields, (index) => state.found[index] !== undefined, context)
        : undefined;
    if (state.call !== call?.node && (state.call !== undefined || state.matchedAny)) context.restarts++;
    state.call = call?.node;
    if (call) {
      const result = coerceClass(declaration, type, call.node, path, context, calls + 1);
      return result.ok
        ? addFlag(result, "UnwrappedObject", path, `read the call's "${call.key}" as ${declaration.name}`)
        : result;
    }
    const direct = fromObject(declaration, lookup, state, node.complete, context);
    // A single-field class given an object with none of its keys: the object may be the field's value
    // (final mode's rule). Once the object is closed, its missing field costs what it costs there.
    if (!mayImplyKey(soleField, node, state.matchedAny, context)) return direct;
    const implied = intoSoleField(soleField, node, path, context);
    if (!implied.ok) return direct;
    if (!direct.ok) return implied;
    const directScore = node.complete ? direct.score + missingPenalty(soleField, context) : direct.score;
    return directScore <= implied.score ? direct : implied;
  }
  if (soleField) return intoSoleField(soleField, node, path, context);
  // Only a list known to hold one item: `[{…}` may go on with a second item, and then it is no class.
  if (node.kind === "array" && node.items.length === 1 && node.complete) {
    const result = coerceClass(declaration, type, node.items[0]!, childPath(path, 0), context);
    return result.ok
      ? addFlag(result, "ListToSingle", path, "used the only item of a one-element list")
      : result;
  }
  return failure("type-mismatch", path, `an object for class ${declaration.name}`, node);
}

function intoSoleField(
  field: Field,
  node: JsonishNode,
  path: string,
  context: StreamCoerceContext,
): CoerceResult {
  const result = context.coerce(field.type, node, childPath(path, field.name));
  if (!result.ok) return result;
  const listAsText = listAsFieldText(field, node, result.value, path);
  if (listAsText) return listAsText;
  const slot = context.slot(node, field.type, `${path}#sole`);
  const value = stableObject(slot.last, setOwn({}, field.name, result.value));
  slot.last = value;
  return addFlag(
    { ...result, value },
    "ImpliedKey",
    path,
    `the value was read as the only field "${field.name}"`,
  );
}

/** The object's state, with the keys written since the last chunk matched to fields. */
function objectState(
  declaration: Class,
  lookup: FieldLookup,
  type: ClassRefType,
  node: ObjectNode,
  path: string,
  context: StreamCoerceContext,
): ObjectState {
  const state = keptState<ObjectState>(context.slot(node, type, path), () => ({
    scanned: 0,
    found: [],
    exact: [],
    matchedAny: false,
    argument: undefined,
    call: undefined,
    keyFlags: [],
    keyScore: 0,
    outcomes: [],
    paths: lookup.fields.map((field) => childPath(path, field.name)),
    current: [],
    previous: [],
    last: undefined,
  }));
  const entries = node.entries;
  for (; state.scanned < entries.length; state.scanned++) {
    const [key, value] = entries[state.scanned]!;
    const match = matchField(lookup, key);
    if (!match) {
      if (isArgumentsKey(key)) state.argument = [key, value];
      state.keyScore += FLAG_PENALTIES.ExtraKey;
      if (context.collectFlags) {
        state.keyFlags.push({
          kind: "ExtraKey",
          path: childPath(path, key),
          detail: `the key "${key}" is not a field of ${declaration.name}; ignored`,
        });
      }
      continue;
    }
    state.matchedAny = true;
    const { field, folded } = match;
    if (folded) {
      state.keyScore += FLAG_PENALTIES.KeyCaseFold;
      if (context.collectFlags) {
        const shown = field.alias ?? field.name;
        state.keyFlags.push({
          kind: "KeyCaseFold",
          path: childPath(path, field.name),
          detail: `the key "${key}" read as "${shown}"`,
        });
      }
    }
    const position = lookup.positions.get(field)!;
    if (!keyReplaces(match, state.exact[position] === true)) continue;
    if (!folded) state.exact[position] = true;
    if (state.found[position] !== undefined) context.restarts++;
    state.found[position] = value;
  }
  return state;
}

function fromObject(
  declaration: Class,
  lookup: FieldLookup,
  state: ObjectState,
  closed: boolean,
  context: StreamCoerceContext,
): CoerceResult {
  const fields = lookup.fields;
  const outcomes = state.current;
  let changed = state.last === undefined;
  const previous = state.previous;
  for (let index = 0; index < fields.length; index++) {
    const field = fields[index]!;
    const fieldNode = state.found[index];
    let outcome = state.outcomes[index];
    // A field not written yet, or whose node is complete, reads the same as last time.
    // (A field not written when the object closes is missing for good: read once more.)
    if (
      outcome === undefined ||
      outcome.node !== fieldNode ||
      (fieldNode !== undefined && !outcome.complete) ||
      (fieldNode === undefined && closed && !outcome.complete)
    ) {
      outcome = readField(declaration, field, fieldNode, state.paths[index]!, context, closed);
      state.outcomes[index] = outcome;
    }
    if (outcome.failure) return outcome.failure;
    if (!changed && outcome.value !== previous[index]) changed = true;
    outcomes[index] = outcome;
  }
  let score = state.keyScore;
  let pending = 0;
  const collect = context.collectFlags;
  const flags: Flag[] | readonly Flag[] = collect ? [...state.keyFlags] : NO_FLAGS;
  const checks: CheckResult[] | readonly CheckResult[] = collect ? [] : NO_CHECKS;
  // A changed object is a copy of the last one (a fast clone of the same shape) with the changed fields
  // set; the first one is built field by field, in declaration order.
  const last = state.last;
  const value: Record<string, unknown> = !changed ? last! : last === undefined ? {} : { ...last };
  for (let index = 0; index < fields.length; index++) {
    const outcome = outcomes[index]!;
    score += outcome.score;
    pending += outcome.pending;
    if (collect) {
      (flags as Flag[]).push(...outcome.flags);
      (checks as CheckResult[]).push(...outcome.checks);
    }
    if (changed && (last === undefined || previous[index] !== outcome.value)) {
      setOwn(value, fields[index]!.name, outcome.value);
    }
    previous[index] = outcome.value;
  }
  state.last = value;
  const success: StreamSuccess = { ok: true, value, flags, score, checks, pending };
  return success;
}
