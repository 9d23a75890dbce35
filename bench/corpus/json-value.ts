/** The plain JSON data the corpus is made of: expected values and the values a model "meant" to write. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object (not an array, not null). */
export type JsonObject = { [key: string]: JsonValue };

/** True for plain objects (not arrays, not null). */
export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Returns a copy of `value` with the values at the given paths replaced. Paths look like
 * `work_history[0].achievements` (keys joined by dots, list indexes in brackets); a missing path is an error,
 * so a corpus variant can never silently miss the field it meant to garble.
 */
export function withOverrides(value: JsonValue, overrides: ReadonlyMap<string, JsonValue>): JsonValue {
  const copy = structuredClone(value);
  for (const [path, replacement] of overrides) {
    const steps = [...path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((match) =>
      match[2] === undefined ? (match[1] as string) : Number(match[2]),
    );
    let parent: JsonValue = copy;
    for (const [index, step] of steps.entries()) {
      const last = index === steps.length - 1;
      const container = parent as Record<string | number, JsonValue>;
      if (typeof parent !== "object" || parent === null || !(step in container)) {
        throw new Error(`withOverrides: no value at ${path}`);
      }
      if (last) container[step] = replacement;
      else parent = container[step] as JsonValue;
    }
  }
  return copy;
}
