import type { ValueAdapter } from "./typed-schema.js";

/**
 * Adapters that walk a parsed value and copy only what changes: a container whose members all come back
 * unchanged is returned as it was, so a schema that needs no adaptation costs no copying.
 */

/** Adapts the named fields of an object; a field adapted to `undefined` is removed (left out). */
export function adaptFields(adapters: readonly (readonly [string, ValueAdapter])[]): ValueAdapter {
  return (value) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
    let copy: Record<string, unknown> | undefined;
    for (const [key, adapt] of adapters) {
      const before = (value as Record<string, unknown>)[key];
      const after = adapt(before);
      if (after === before) continue;
      copy ??= { ...(value as Record<string, unknown>) };
      if (after === undefined) delete copy[key];
      else setEntry(copy, key, after);
    }
    return copy ?? value;
  };
}

/** Adapts every item of a list (`at(index)` picks the adapter per position, for tuples). */
export function adaptItems(at: (index: number) => ValueAdapter | undefined): ValueAdapter {
  return (value) => {
    if (!Array.isArray(value)) return value;
    let copy: unknown[] | undefined;
    for (const [index, item] of value.entries()) {
      const adapt = at(index);
      const after = adapt ? adapt(item) : item;
      if (after === item) continue;
      copy ??= [...value];
      copy[index] = after;
    }
    return copy ?? value;
  };
}

/** Adapts every value of a map. */
export function adaptEntries(adapt: ValueAdapter): ValueAdapter {
  return (value) =>
    typeof value === "object" && value !== null && !Array.isArray(value)
      ? adaptFields(Object.keys(value).map((key) => [key, adapt] as const))(value)
      : value;
}

/** Sets an own data property: a `__proto__` key is data here, never the prototype. */
export function setEntry(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
