import type { Class, ClassRefType, Field } from "../../ir/index.js";
import { applyConstraints } from "../coerce/apply-constraints.js";
import { classCoercer } from "../coerce/coerce-class.js";
import type { KindCoercer } from "../coerce/coerce-context.js";
import { addFlag, type CheckResult, type CoerceResult, childPath, failure } from "../coerce/coerce-result.js";
import { normalizeWords } from "../coerce/normalize-words.js";
import { setOwn } from "../coerce/set-own.js";
import { FLAG_PENALTIES, type Flag } from "../flags.js";
import type { JsonishNode, ObjectNode } from "../lenient/jsonish-node.js";
import { stableObject } from "./slot-store.js";
import { pendingOf, type StreamCoerceContext, type StreamSuccess } from "./stream-coerce-context.js";

interface FieldLookup {
  fields: Field[];
  exact: Map<string, Field>;
  folded: Map<string, Field>;
}

/** Keys already read from a growing object: entries are only appended, so each is matched once. */
interface KeyState {
  scanned: number;
  found: Map<Field, JsonishNode>;
  matchedAny: boolean;
  flags: Flag[];
  score: number;
}

const lookups = new WeakMap<Class, FieldLookup>();

function lookupOf(declaration: Class): FieldLookup {
  let lookup = lookups.get(declaration);
  if (!lookup) {
    const fields = declaration.fields.filter((field) => !field.skip);
    lookup = { fields, exact: new Map(), folded: new Map() };
    for (const field of fields) {
      const key = field.alias ?? field.name;
      lookup.exact.set(key, field);
      lookup.folded.set(normalizeWords(key).join(" "), field);
    }
    lookups.set(declaration, lookup);
  }
  return lookup;
}

/**
 * Classes in prefix mode. Keys match fields as in final mode (exactly, else ignoring case and spacing).
 * Fields not written yet are null (lists `[]`, maps `{}`), or `{ value, state: "Pending" }` with
 * `@stream.with_state`; a field whose value is still being written and not ready (a number in quotes, a
 * `@stream.done` value) is null too. A `@stream.not_null` field without a value holds back the whole
 * object (it is not ready). A complete field that does not fit fails the class, as in final mode. Keys
 * are matched incrementally and an unchanged object keeps its identity.
 */
export const streamClassCoercer: KindCoercer<ClassRefType> = {
  ...classCoercer,
  coerce(type, node, path, baseContext) {
    const context = baseContext as StreamCoerceContext;
    const declaration = context.index.getClass(type.name);
    const active = context.active.get(node) ?? [];
    if (active.includes(type.name)) {
      return failure(
        "circular",
        path,
        `class ${type.name}`,
        node,
        `Class ${type.name} would have to contain itself.`,
      );
    }
    context.active.set(node, [...active, type.name]);
    try {
      const result = coerceClass(declaration, type, node, path, context);
      if (!result.ok || !node.complete || declaration.constraints.length === 0) return result;
      const checked = applyConstraints(declaration.constraints, result, path, context, `class ${type.name}`);
      return checked.ok ? { ...checked, pending: pendingOf(result) } : checked;
    } finally {
      if (active.length === 0) context.active.delete(node);
      else context.active.set(node, active);
    }
  },
};

function coerceClass(
  declaration: Class,
  type: ClassRefType,
  node: JsonishNode,
  path: string,
  context: StreamCoerceContext,
): CoerceResult {
  const lookup = lookupOf(declaration);
  const soleField = lookup.fields.length === 1 ? lookup.fields[0] : undefined;
  if (node.kind === "object") {
    const keys = readKeys(declaration, lookup, type, node, path, context);
    const direct = fromObject(declaration, lookup, keys, type, node, path, context);
    if (keys.matchedAny || !soleField || node.entries.length === 0) return direct;
    const implied = intoSoleField(soleField, node, path, context);
    if (!implied.ok) return direct;
    return direct.ok && direct.score <= implied.score ? direct : implied;
  }
  if (soleField) return intoSoleField(soleField, node, path, context);
  if (node.kind === "array" && node.items.length === 1) {
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
  const value = setOwn({}, field.name, result.value);
  return addFlag(
    { ...result, value },
    "ImpliedKey",
    path,
    `the value was read as the only field "${field.name}"`,
  );
}

function readKeys(
  declaration: Class,
  lookup: FieldLookup,
  type: ClassRefType,
  node: ObjectNode,
  path: string,
  context: StreamCoerceContext,
): KeyState {
  const slot = context.slot(node, type, `${path}#keys`);
  let keys = slot.state as KeyState | undefined;
  if (!keys) {
    keys = { scanned: 0, found: new Map(), matchedAny: false, flags: [], score: 0 };
    slot.state = keys;
  }
  const entries = node.entries;
  for (; keys.scanned < entries.length; keys.scanned++) {
    const [key, value] = entries[keys.scanned]!;
    let field = lookup.exact.get(key);
    let folded = false;
    if (!field) {
      field = lookup.folded.get(normalizeWords(key).join(" "));
      folded = field !== undefined;
    }
    if (!field) {
      keys.score += FLAG_PENALTIES.ExtraKey;
      if (context.collectFlags) {
        keys.flags.push({
          kind: "ExtraKey",
          path: childPath(path, key),
          detail: `the key "${key}" is not a field of ${declaration.name}; ignored`,
        });
      }
      continue;
    }
    keys.matchedAny = true;
    if (folded) {
      keys.score += FLAG_PENALTIES.KeyCaseFold;
      if (context.collectFlags) {
        const shown = field.alias ?? field.name;
        keys.flags.push({
          kind: "KeyCaseFold",
          path: childPath(path, field.name),
          detail: `the key "${key}" read as "${shown}"`,
        });
      }
    }
    // A repeated key: the last one wins, as in JSON.parse.
    keys.found.set(field, value);
  }
  return keys;
}

function fromObject(
  declaration: Class,
  lookup: FieldLookup,
  keys: KeyState,
  type: ClassRefType,
  node: ObjectNode,
  path: string,
  context: StreamCoerceContext,
): CoerceResult {
  const flags: Flag[] = context.collectFlags ? [...keys.flags] : [];
  let score = keys.score;
  let pending = 0;
  const checks: CheckResult[] = [];
  const value: Record<string, unknown> = {};
  const notReady = (field: Field) =>
    failure(
      "missing-field",
      childPath(path, field.name),
      context.describe(field.type),
      undefined,
      `${declaration.name} is held back until "${field.alias ?? field.name}" has a value (@stream.not_null).`,
    );
  for (const field of lookup.fields) {
    const fieldPath = childPath(path, field.name);
    const attrs = field.type.attrs;
    const fieldNode = keys.found.get(field);
    if (fieldNode === undefined) {
      if (attrs?.streamNotNull) return notReady(field);
      pending++;
      if (context.collectFlags) flags.push({ kind: "Pending", path: fieldPath, detail: "not written yet" });
      const fallback = context.missing(field.type);
      const empty = fallback?.reason === "empty" ? fallback.value : null;
      setOwn(value, field.name, attrs?.streamWithState ? { value: empty, state: "Pending" } : empty);
      continue;
    }
    const result = context.coerce(field.type, fieldNode, fieldPath);
    if (result.ok) {
      if (attrs?.streamNotNull && unwrapState(result.value, attrs.streamWithState) === null)
        return notReady(field);
      score += result.score;
      pending += pendingOf(result);
      if (context.collectFlags) {
        flags.push(...result.flags);
        checks.push(...result.checks);
      }
      setOwn(value, field.name, result.value);
      continue;
    }
    if (!fieldNode.complete) {
      // Still being written and not ready to show (a quoted number, a `@stream.done` value).
      if (attrs?.streamNotNull) return notReady(field);
      pending++;
      if (context.collectFlags)
        flags.push({ kind: "Pending", path: fieldPath, detail: "still being written" });
      setOwn(value, field.name, attrs?.streamWithState ? { value: null, state: "Incomplete" } : null);
      continue;
    }
    const fallback = context.missing(field.type);
    const scalar = fieldNode.kind !== "object" && fieldNode.kind !== "array";
    if (fallback?.reason === "optional" && scalar && !attrs?.streamNotNull) {
      const issue = result.issue;
      score += FLAG_PENALTIES.DefaultFromInvalid;
      if (context.collectFlags) {
        flags.push({
          kind: "DefaultFromInvalid",
          path: fieldPath,
          detail: `expected ${issue.expected}, found ${issue.found}; set to null`,
        });
      }
      setOwn(value, field.name, attrs?.streamWithState ? { value: null, state: "Complete" } : null);
      continue;
    }
    return result;
  }
  const slot = context.slot(node, type, path);
  const stable = stableObject(slot.last, value);
  slot.last = stable;
  const success: StreamSuccess = { ok: true, value: stable, flags, score, checks, pending };
  return success;
}

function unwrapState(value: unknown, withState: boolean | undefined): unknown {
  return withState && typeof value === "object" && value !== null
    ? (value as { value: unknown }).value
    : value;
}
