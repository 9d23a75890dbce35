import type { IrIndex, Type } from "../../ir/index.js";

/**
 * Whether `check` holds for `type` and every type inside it: list items, map keys and values, optional and
 * union options, alias targets and class fields (skipped fields aside), each alias and class followed
 * once. `check` says false (it fails), true (it holds, without looking inside) or undefined (look inside).
 */
export function holdsThroughout(
  type: Type,
  index: IrIndex,
  check: (type: Type) => boolean | undefined,
  seen = new Set<string>(),
): boolean {
  const verdict = check(type);
  if (verdict !== undefined) return verdict;
  const inner = (next: Type): boolean => holdsThroughout(next, index, check, seen);
  switch (type.kind) {
    case "primitive":
    case "literal":
    case "enum":
    case "media":
      return true;
    case "list":
      return inner(type.item);
    case "map":
      return inner(type.key) && inner(type.value);
    case "optional":
      return inner(type.inner);
    case "union":
      return type.options.every(inner);
    case "alias": {
      const key = `alias ${type.name}`;
      if (seen.has(key)) return true;
      seen.add(key);
      return inner(index.getAlias(type.name).type);
    }
    case "class": {
      const key = `class ${type.name}`;
      if (seen.has(key)) return true;
      seen.add(key);
      return index.getClass(type.name).fields.every((field) => field.skip || inner(field.type));
    }
  }
}

/** A type predicate answered once per type, per IR (a TypeBuilder call has its own). */
export function cachedPerType(
  test: (type: Type, index: IrIndex) => boolean,
): (type: Type, index: IrIndex) => boolean {
  const known = new WeakMap<IrIndex, WeakMap<Type, boolean>>();
  return (type, index) => {
    let types = known.get(index);
    if (types === undefined) {
      types = new WeakMap();
      known.set(index, types);
    }
    let verdict = types.get(type);
    if (verdict === undefined) {
      verdict = test(type, index);
      types.set(type, verdict);
    }
    return verdict;
  };
}
