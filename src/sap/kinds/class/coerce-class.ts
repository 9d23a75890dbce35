import type { Class, ClassRefType, Field } from "../../../ir/index.js";
import { applyConstraints } from "../../coerce/apply-constraints.js";
import type { CoerceContext, KindCoercer } from "../../coerce/coerce-context.js";
import {
  addFlag,
  type CheckResult,
  type CoerceResult,
  type CoerceSuccess,
  childPath,
  failure,
  foldRepair,
  NONE,
  ResultBuilder,
} from "../../coerce/coerce-result.js";
import { setOwn } from "../../coerce/set-own.js";
import type { Flag } from "../../flags.js";
import type { JsonishNode, ObjectNode } from "../../lenient/jsonish-node.js";
import { keptState, stableObject } from "../../stream/slot-store.js";
import type { StreamCoerceContext } from "../../stream/stream-coerce-context.js";
import { pendingOf, type StreamSuccess, streamOf } from "../../stream/stream-of.js";
import { callArguments, isArgumentsKey, MAX_CALLS } from "./call-arguments.js";
import { type FieldLookup, fieldLookupOf, matchField } from "./field-lookup.js";
import { keyReplaces, listAsFieldText, mayImplyKey, missingPenalty } from "./field-rules.js";
import { type FieldOutcome, readField, unfitField } from "./read-field.js";

/**
 * Classes: keys matched to fields (exactly, else ignoring case/spacing/punctuation, flagged), unknown keys
 * flagged and ignored, missing optional fields null, missing required lists and maps empty (flagged), a
 * missing required scalar an error. A single-field class also accepts its field's value directly. A
 * one-element list holding the object is unwrapped, and so are a function call's arguments
 * (`call-arguments.ts`). Output keys are the declared names, in declared order.
 *
 * One coercer for both modes (docs/decisions/0040, 0047): the object's keys are folded entry by entry
 * into a `KeysFold` (`foldKeys`: each key matched to its field, the key flags, the node each field was
 * last given), and each field is read from its node by `readField` (`read-field.ts`, the rules of
 * `field-rules.ts`). A one-shot read folds every key into a local fold and reads each field once
 * (`fromObject`). A stream keeps the fold in the object's slot and folds each new entry once; its
 * partial is a view over it (`shownObject`): a field whose node is complete is read once and kept, only
 * the field being written is read again; fields not written yet are null (lists `[]`, maps `{}`), values
 * not ready yet too, with `@stream.not_null` and `@stream.with_state` on top. A complete field that does
 * not fit follows final mode's rule (an optional scalar becomes null), else it is null, flagged
 * `WillFail` (the object stays; the final parse fails). Class `@@check`/`@@assert` run once the object
 * is complete.
 */
export const classCoercer: KindCoercer<ClassRefType> = {
  coerce(type, node, path, context) {
    const declaration = context.index.getClass(type.name);
    const stream = streamOf(context);
    if (stream !== undefined) {
      // (A type asked again of its own node is refused by the stream's context.)
      const result = coerceClass(type, declaration, node, path, context, stream);
      if (!result.ok || !node.complete || declaration.constraints.length === 0) return result;
      const checked = applyConstraints(declaration.constraints, result, path, context, `class ${type.name}`);
      return checked.ok ? { ...checked, pending: pendingOf(result) } : checked;
    }
    // The classes being read from this node, innermost last (a list of its own per node, grown and
    // shrunk in place: most nodes are read as one class, once).
    const active = context.active.get(node);
    if (active?.includes(type.name)) {
      return failure(
        "circular",
        path,
        `class ${type.name}`,
        node,
        `Class ${type.name} would have to contain itself.`,
      );
    }
    if (active === undefined) context.active.set(node, [type.name]);
    else active.push(type.name);
    try {
      const result = coerceClass(type, declaration, node, path, context, undefined);
      if (!result.ok || declaration.constraints.length === 0) return result;
      return applyConstraints(declaration.constraints, result, path, context, `class ${type.name}`, node);
    } finally {
      if (active === undefined) context.active.delete(node);
      else active.pop();
    }
  },
  plainText: () => "never",
  fits: (_type, node) => node.kind === "object",
  describe: (type) => `class ${type.name}`,
};

function coerceClass(
  type: ClassRefType,
  declaration: Class,
  node: JsonishNode,
  path: string,
  context: CoerceContext,
  stream: StreamCoerceContext | undefined,
  calls = 0,
): CoerceResult {
  const lookup = fieldLookupOf(declaration);
  const soleField = lookup.fields.length === 1 ? lookup.fields[0] : undefined;
  if (node.kind === "object") {
    const view = stream === undefined ? undefined : keptView(lookup, type, node, path, stream);
    const keys = view ?? newKeysFold(lookup);
    foldKeys(keys, declaration, lookup, node, path, stream);
    // A function call's arguments (`callArguments`).
    const call =
      calls < MAX_CALLS && keys.argument !== undefined
        ? callArguments(keys.argument, lookup.fields, (index) => keys.found[index] !== undefined, context)
        : undefined;
    if (view !== undefined) {
      // Moving between the arguments and the object's own keys starts the value over, unless nothing
      // was shown yet (no key named a field).
      if (view.call !== call?.node && (view.call !== undefined || view.matchedAny)) stream!.restarts++;
      view.call = call?.node;
    }
    if (call) {
      const result = coerceClass(type, declaration, call.node, path, context, stream, calls + 1);
      return result.ok
        ? addFlag(
            result,
            "UnwrappedObject",
            path,
            `read the call's "${call.key}" as ${declaration.name}`,
            node,
          )
        : result;
    }
    if (keys.again) context.onKeyAgain?.(path);
    const direct =
      view === undefined
        ? fromObject(declaration, lookup, keys, node, path, context)
        : shownObject(declaration, lookup, view, node, stream!);
    // A single-field class given an object with none of its keys: the object may be the field's value
    // itself. Keep whichever reading repairs less (in a stream, once the object is closed, its missing
    // field costs what it costs in a one-shot read).
    if (!mayImplyKey(soleField, node, keys.matchedAny, context)) return direct;
    const implied = intoSoleField(soleField, node, path, context, stream);
    if (!implied.ok) return direct;
    if (!direct.ok) return implied;
    const directScore =
      stream !== undefined && node.complete
        ? direct.score + missingPenalty(soleField, context)
        : direct.score;
    return directScore <= implied.score ? direct : implied;
  }
  if (soleField) return intoSoleField(soleField, node, path, context, stream);
  // A stream: only a list known to hold one item (`[{…}` may go on with a second item, and then it is no
  // class).
  if (node.kind === "array" && node.items.length === 1 && (stream === undefined || node.complete)) {
    const itemPath = childPath(path, 0);
    // A one-shot read goes through the shared entry point, so the depth guard sees `[[[[…]]]]`.
    const result =
      stream === undefined
        ? context.coerce(type, node.items[0]!, itemPath)
        : coerceClass(type, declaration, node.items[0]!, itemPath, context, stream);
    return result.ok
      ? addFlag(result, "ListToSingle", path, "used the only item of a one-element list", node)
      : result;
  }
  return failure("type-mismatch", path, `an object for class ${declaration.name}`, node);
}

function intoSoleField(
  field: Field,
  node: JsonishNode,
  path: string,
  context: CoerceContext,
  stream: StreamCoerceContext | undefined,
): CoerceResult {
  const result = context.coerce(field.type, node, childPath(path, field.name));
  if (!result.ok) return result;
  const listAsText = listAsFieldText(field, node, result.value, path);
  if (listAsText) return listAsText;
  let value = setOwn({}, field.name, result.value);
  if (stream !== undefined) {
    // The object handed out again while its field shows the same value.
    const slot = stream.slot(node, field.type, `${path}#sole`);
    value = stableObject(slot.last, value);
    slot.last = value;
  }
  return addFlag(
    { ...result, value },
    "ImpliedKey",
    path,
    `the value was read as the only field "${field.name}"`,
    node,
  );
}

/**
 * An object's keys matched to fields, entry by entry (a stream's: each entry once; entries are only
 * appended).
 */
interface KeysFold {
  /** How many entries are folded. */
  scanned: number;
  /** Per field (in declaration order): the node its key was last given, if any. */
  found: (JsonishNode | undefined)[];
  /** Per field: a key spelled exactly was seen (it beats case-folded ones). */
  exact: boolean[];
  matchedAny: boolean;
  /** A key's value was replaced by a later key (a one-shot read tells `onKeyAgain` once). */
  again: boolean;
  /** The last entry written under a key that may hold a function call's arguments (`callArguments`). */
  argument: [string, JsonishNode] | undefined;
  /** The keys' repairs (`ExtraKey`, `KeyCaseFold`): their penalties, and their flags when gathered. */
  score: number;
  flags: Flag[] | undefined;
}

function newKeysFold(lookup: FieldLookup): KeysFold {
  return {
    scanned: 0,
    // (Sized to the fields from the start: no list grows while the keys are folded.)
    found: lookup.unset.slice(),
    exact: lookup.unflagged.slice(),
    matchedAny: false,
    again: false,
    argument: undefined,
    score: 0,
    flags: undefined,
  };
}

/** Fold the entries of `node` not folded yet. A stream counts a key's value replaced as a restart. */
function foldKeys(
  fold: KeysFold,
  declaration: Class,
  lookup: FieldLookup,
  node: ObjectNode,
  path: string,
  stream: StreamCoerceContext | undefined,
): void {
  const collect = stream === undefined || stream.collectFlags;
  const entries = node.entries;
  for (; fold.scanned < entries.length; fold.scanned++) {
    const entry = entries[fold.scanned]!;
    const key = entry[0];
    const value = entry[1];
    const match = matchField(lookup, key);
    if (!match) {
      if (isArgumentsKey(key)) fold.argument = [key, value];
      const detail = `the key "${key}" is not a field of ${declaration.name}; ignored`;
      foldRepair(fold, collect, "ExtraKey", childPath(path, key), detail, value);
      continue;
    }
    fold.matchedAny = true;
    const { field, folded, position } = match;
    if (folded) {
      const detail = `the key "${key}" read as "${field.alias ?? field.name}"`;
      foldRepair(fold, collect, "KeyCaseFold", childPath(path, field.name), detail, value);
    }
    if (!keyReplaces(match, fold.exact[position] === true)) continue;
    if (!folded) fold.exact[position] = true;
    if (fold.found[position] !== undefined) {
      if (stream !== undefined) stream.restarts++;
      else fold.again = true;
    }
    fold.found[position] = value;
  }
}

/** A one-shot read's fields: each read once from the node its key was last given (`readField`). */
function fromObject(
  declaration: Class,
  lookup: FieldLookup,
  keys: KeysFold,
  node: ObjectNode,
  path: string,
  context: CoerceContext,
): CoerceResult {
  const builder = new ResultBuilder();
  builder.score = keys.score;
  builder.flags = keys.flags;
  const value: Record<string, unknown> = {};
  const fields = lookup.fields;
  for (let index = 0; index < fields.length; index++) {
    const field = fields[index]!;
    const fieldPath = childPath(path, field.name);
    const fieldNode = keys.found[index];
    // A written field is read as `readField` reads it, with no outcome record for a value that fits.
    const result = fieldNode === undefined ? undefined : context.coerce(field.type, fieldNode, fieldPath);
    let read: CoerceSuccess | FieldOutcome;
    if (result?.ok) {
      read = result;
    } else {
      const outcome =
        result === undefined
          ? readField(declaration, field, undefined, fieldPath, node, context, undefined)
          : unfitField(field, fieldNode!, fieldPath, result, context, undefined);
      if (outcome.failure) return outcome.failure;
      read = outcome;
    }
    builder.add(read);
    setOwn(value, field.name, read.value);
  }
  return builder.build(value);
}

/** A stream's object: the keys' fold, and the view of its fields built from it at the last read. */
interface ObjectView extends KeysFold {
  /** The arguments object the class was read from at the last read, if it was. */
  call: ObjectNode | undefined;
  /** Per field: its outcome at the last read. */
  outcomes: (FieldOutcome | undefined)[];
  paths: string[];
  /** Scratch: this read's outcome per field (reused, this runs on every chunk). */
  current: FieldOutcome[];
  /** Per field: the value handed out at the last read. */
  previous: unknown[];
  last: Record<string, unknown> | undefined;
}

function keptView(
  lookup: FieldLookup,
  type: ClassRefType,
  node: ObjectNode,
  path: string,
  stream: StreamCoerceContext,
): ObjectView {
  return keptState<ObjectView>(stream.slot(node, type, path), () => ({
    ...newKeysFold(lookup),
    call: undefined,
    outcomes: [],
    paths: lookup.fields.map((field) => childPath(path, field.name)),
    current: [],
    previous: [],
    last: undefined,
  }));
}

/**
 * The field whose value is `node`'s last entry, as the class coercer read it at the last chunk: the
 * field its key names (exactly, else ignoring case and spacing), if that entry is the one the field shows
 * (a case-folded key written after an exact one is not). Undefined otherwise. (The spine trail's check
 * that a patched object only changed in that field.)
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
  const view = context.slot(node, type, path).state as ObjectView | undefined;
  return view?.found[lookup.positions.get(field)!] === entry[1] ? field : undefined;
}

/**
 * A stream's partial object: each field read again only while its node changes (not written yet, or
 * still being written; a field not written when the object closes is missing for good: read once
 * more); the last object handed out again when no field changed, else a copy with the changed fields.
 */
function shownObject(
  declaration: Class,
  lookup: FieldLookup,
  view: ObjectView,
  node: ObjectNode,
  stream: StreamCoerceContext,
): CoerceResult {
  const closed = node.complete;
  const fields = lookup.fields;
  const outcomes = view.current;
  let changed = view.last === undefined;
  const previous = view.previous;
  for (let index = 0; index < fields.length; index++) {
    const field = fields[index]!;
    const fieldNode = view.found[index];
    let outcome = view.outcomes[index];
    if (
      outcome === undefined ||
      outcome.node !== fieldNode ||
      (fieldNode !== undefined && !outcome.complete) ||
      (fieldNode === undefined && closed && !outcome.complete)
    ) {
      outcome = readField(declaration, field, fieldNode, view.paths[index]!, node, stream, stream, closed);
      view.outcomes[index] = outcome;
    }
    if (outcome.failure) return outcome.failure;
    if (!changed && outcome.value !== previous[index]) changed = true;
    outcomes[index] = outcome;
  }
  let score = view.score;
  let pending = 0;
  const collect = stream.collectFlags;
  const flags: Flag[] | readonly Flag[] = collect ? [...(view.flags ?? NONE)] : NONE;
  const checks: CheckResult[] | readonly CheckResult[] = collect ? [] : NONE;
  // A changed object is a copy of the last one (a fast clone of the same shape) with the changed fields
  // set; the first one is built field by field, in declaration order.
  const last = view.last;
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
  view.last = value;
  const success: StreamSuccess = { ok: true, value, flags, score, checks, pending };
  return success;
}
