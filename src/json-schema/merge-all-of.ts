/**
 * `allOf` as one schema: the arms' properties, required names and types put together, so that
 * `{allOf: [Base, {properties: {b}}]}` is one class with every field. Only the shape matters here: the
 * validator checks the value against every arm as written, so a keyword two arms both set (two
 * `pattern`s, two `enum`s) may keep the first one.
 */

/** Reads the schema a `$ref` names (throws for a remote one). */
export type ResolveReference = (reference: string) => unknown;

/** The arms merged into one schema, or `undefined` when their types have nothing in common. */
export function mergeAllOf(
  arms: readonly unknown[],
  resolve: ResolveReference,
): Record<string, unknown> | undefined {
  const merged: Record<string, unknown> = {};
  const seen = new Set<unknown>();
  const add = (arm: unknown, depth: number): boolean => {
    if (arm === true || arm === undefined) return true;
    if (typeof arm !== "object" || arm === null || Array.isArray(arm)) return false;
    // A reference cycle (`allOf: [{$ref: "#"}]` at the root) adds nothing new the second time.
    if (seen.has(arm) || depth > 32) return true;
    seen.add(arm);
    const record = arm as Record<string, unknown>;
    if (typeof record.$ref === "string" && !add(resolve(record.$ref), depth + 1)) return false;
    if (Array.isArray(record.allOf) && !record.allOf.every((inner) => add(inner, depth + 1))) return false;
    for (const [key, value] of Object.entries(record)) {
      if (key === "$ref" || key === "allOf" || key === "$defs" || key === "definitions") continue;
      if (!(key in merged)) {
        merged[key] = value;
        continue;
      }
      const before = merged[key];
      switch (key) {
        case "properties":
          merged[key] = mergeProperties(before, value);
          break;
        case "required":
          merged[key] = [...new Set([...asArray(before), ...asArray(value)])];
          break;
        case "type": {
          const types = intersectTypes(before, value);
          if (types.length === 0) return false;
          merged[key] = types.length === 1 ? types[0] : types;
          break;
        }
        case "items":
        case "additionalProperties":
          if (before === false || value === false) merged[key] = false;
          else if (typeof before === "object" && typeof value === "object")
            merged[key] = { allOf: [before, value] };
          break;
        default:
          // The first arm's annotation (title, description) names the merged class; other keywords are
          // the validator's to check.
          break;
      }
    }
    return true;
  };
  return arms.every((arm) => add(arm, 0)) ? merged : undefined;
}

function mergeProperties(before: unknown, value: unknown): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...(before as Record<string, unknown>) };
  for (const [key, schema] of Object.entries((value ?? {}) as Record<string, unknown>)) {
    const existing = merged[key];
    merged[key] = existing === undefined || existing === true ? schema : { allOf: [existing, schema] };
  }
  return merged;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Types allowed by both: `integer` is a `number`. */
function intersectTypes(before: unknown, value: unknown): string[] {
  const left = (Array.isArray(before) ? before : [before]).map(String);
  const right = (Array.isArray(value) ? value : [value]).map(String);
  const result: string[] = [];
  for (const type of left) {
    if (right.includes(type)) result.push(type);
    else if (type === "number" && right.includes("integer")) result.push("integer");
    else if (type === "integer" && right.includes("number")) result.push("integer");
  }
  return [...new Set(result)];
}
