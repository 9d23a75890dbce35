import type { Class, Enum, IrIndex, Type } from "../../ir/index.js";
import { MAX_DEPTH } from "./create-coerce-context.js";
import { setOwn } from "./set-own.js";

/** Returned when a value is not exactly of the type (the lenient coercer then takes over). */
export const NOT_EXACT: unique symbol = Symbol("not exact");
type Exact = unknown | typeof NOT_EXACT;

interface ExactContext {
  index: IrIndex;
  read(type: Type, value: unknown, depth: number): Exact;
}

type ExactReader<T extends Type> = (type: T, value: unknown, context: ExactContext, depth: number) => Exact;
type ExactTable = { [K in Type["kind"]]: ExactReader<Extract<Type, { kind: K }>> };

const enumNames = new WeakMap<Enum, Map<string, string>>();
const classKeys = new WeakMap<
  Class,
  { keys: Map<string, Class["fields"][number]>; fields: Class["fields"] }
>();

function shownEnumNames(declaration: Enum): Map<string, string> {
  let names = enumNames.get(declaration);
  if (!names) {
    names = new Map();
    for (const value of declaration.values) if (!value.skip) names.set(value.alias ?? value.name, value.name);
    // The declared name behind an alias names its value too (as in `matchText`), unless it is shown.
    for (const value of declaration.values) {
      if (!value.skip && !names.has(value.name)) names.set(value.name, value.name);
    }
    enumNames.set(declaration, names);
  }
  return names;
}

function shownClassKeys(declaration: Class) {
  let keys = classKeys.get(declaration);
  if (!keys) {
    const fields = declaration.fields.filter((field) => !field.skip);
    keys = { keys: new Map(fields.map((field) => [field.alias ?? field.name, field])), fields };
    classKeys.set(declaration, keys);
  }
  return keys;
}

const primitiveExact: Record<string, (value: unknown) => boolean> = {
  string: (value) => typeof value === "string",
  // Beyond 2^53 an integer is no longer exact, and JSON.parse turns 1e400 into Infinity: the lenient
  // coercer reports both.
  int: (value) => Number.isSafeInteger(value),
  float: (value) => Number.isFinite(value),
  bool: (value) => typeof value === "boolean",
  null: (value) => value === null,
};

/**
 * The exact reading of each kind: a `JSON.parse` value that already is a value of the type, needing no
 * repair at all (no flags). Anything else — a missing optional field, an extra key, a constraint to
 * evaluate — is `NOT_EXACT` and goes to the lenient coercer, so both paths always agree.
 */
const readers: ExactTable = {
  primitive: (type, value) => (primitiveExact[type.name]!(value) ? value : NOT_EXACT),
  literal: (type, value) => {
    if (typeof type.value === "string")
      return typeof value === "string" && value.trim() === type.value ? type.value : NOT_EXACT;
    return value === type.value ? value : NOT_EXACT;
  },
  enum: (type, value, context) => {
    const declaration = context.index.getEnum(type.name);
    if (typeof value !== "string" || declaration.constraints.length > 0) return NOT_EXACT;
    return shownEnumNames(declaration).get(value.trim()) ?? NOT_EXACT;
  },
  class: (type, value, context, depth) => {
    const declaration = context.index.getClass(type.name);
    if (
      typeof value !== "object" ||
      value === null ||
      Array.isArray(value) ||
      declaration.constraints.length > 0
    ) {
      return NOT_EXACT;
    }
    const { keys, fields } = shownClassKeys(declaration);
    const record = value as Record<string, unknown>;
    let seen = 0;
    for (const key in record) {
      if (!Object.hasOwn(record, key)) continue;
      if (!keys.has(key)) return NOT_EXACT;
      seen++;
    }
    if (seen !== fields.length) return NOT_EXACT;
    const result: Record<string, unknown> = {};
    for (const field of fields) {
      const read = context.read(field.type, record[field.alias ?? field.name], depth + 1);
      if (read === NOT_EXACT) return NOT_EXACT;
      setOwn(result, field.name, read);
    }
    return result;
  },
  list: (type, value, context, depth) => {
    if (!Array.isArray(value)) return NOT_EXACT;
    const result: unknown[] = new Array(value.length);
    for (let index = 0; index < value.length; index++) {
      const read = context.read(type.item, value[index], depth + 1);
      if (read === NOT_EXACT) return NOT_EXACT;
      result[index] = read;
    }
    return result;
  },
  map: (type, value, context, depth) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return NOT_EXACT;
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const readKey = context.read(type.key, key, depth + 1);
      const readValue = context.read(type.value, item, depth + 1);
      if (readKey === NOT_EXACT || readValue === NOT_EXACT) return NOT_EXACT;
      // Two keys naming one map key (a name and its alias) lose an entry: the lenient path flags it.
      if (Object.hasOwn(result, String(readKey))) return NOT_EXACT;
      setOwn(result, String(readKey), readValue);
    }
    return result;
  },
  union: (type, value, context, depth) => {
    // The lenient union takes the first option (in declaration order) that fits with no repair.
    for (const option of type.options) {
      const read = context.read(option, value, depth + 1);
      if (read !== NOT_EXACT) return read;
    }
    return NOT_EXACT;
  },
  optional: (type, value, context, depth) =>
    value === null ? null : context.read(type.inner, value, depth + 1),
  alias: (type, value, context, depth) =>
    context.read(context.index.getAlias(type.name).type, value, depth + 1),
  media: () => NOT_EXACT,
};

/**
 * Read a `JSON.parse` result as the type when it already is exactly a value of it — the fast path for
 * clean answers (BAML calls it try-cast). Returns `NOT_EXACT` otherwise.
 */
export function readExact(type: Type, value: unknown, index: IrIndex): Exact {
  const context: ExactContext = {
    index,
    read(inner, innerValue, depth) {
      // One level per type step, as the lenient coercers count theirs (each `context.coerce` call): a value
      // they would abandon as nested too deep (`MAX_DEPTH`) is not read here either, so valid JSON and the
      // same value needing a repair meet the same limit (and a stream, which coerces, meets it too).
      if (depth >= MAX_DEPTH || (inner.attrs?.constraints?.length ?? 0) > 0) return NOT_EXACT;
      return (readers[inner.kind] as ExactReader<Type>)(inner, innerValue, context, depth);
    },
  };
  return context.read(type, value, 0);
}
