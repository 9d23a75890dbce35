import type { IrIndex, Type } from "../../ir/index.js";
import { NOT_EXACT, readExact } from "../coerce/read-exact.js";

/**
 * The partial value of a finished reading that `JSON.parse` read and that already is exactly a value of
 * the type (final mode's fast path, `readExact`), or `NOT_EXACT`. For types whose partials have the
 * final value's shape (no `@stream.*` attribute anywhere: nothing to wrap, withhold or hold back), the
 * streaming coercers read such a value's nodes into that same value, with no flag: the partial reader
 * takes this path for a fence that arrived whole, instead of coercing its nodes one by one.
 */
export function exactPartial(type: Type, value: unknown, index: IrIndex): unknown {
  if (!plainPartials(type, index)) return NOT_EXACT;
  return readExact(type, value, index);
}

/** Per IR (a TypeBuilder call has its own), per type. */
const plainTypes = new WeakMap<IrIndex, WeakMap<Type, boolean>>();

/** No `@stream.*` attribute on the type or anything inside it (classes, aliases followed once). */
export function plainPartials(type: Type, index: IrIndex): boolean {
  let types = plainTypes.get(index);
  if (types === undefined) {
    types = new WeakMap();
    plainTypes.set(index, types);
  }
  let known = types.get(type);
  if (known === undefined) {
    known = walk(type, index, new Set());
    types.set(type, known);
  }
  return known;
}

function walk(type: Type, index: IrIndex, seen: Set<string>): boolean {
  const attrs = type.attrs;
  if (attrs?.streamDone || attrs?.streamNotNull || attrs?.streamWithState) return false;
  switch (type.kind) {
    case "primitive":
    case "literal":
    case "enum":
      return true;
    case "media":
      return false;
    case "list":
      return walk(type.item, index, seen);
    case "map":
      return walk(type.key, index, seen) && walk(type.value, index, seen);
    case "optional":
      return walk(type.inner, index, seen);
    case "union":
      return type.options.every((option) => walk(option, index, seen));
    case "alias": {
      const key = `alias ${type.name}`;
      if (seen.has(key)) return true;
      seen.add(key);
      return walk(index.getAlias(type.name).type, index, seen);
    }
    case "class": {
      const key = `class ${type.name}`;
      if (seen.has(key)) return true;
      seen.add(key);
      const declaration = index.getClass(type.name);
      if (declaration.streamDone) return false;
      return declaration.fields.every((field) => field.skip || walk(field.type, index, seen));
    }
  }
}
