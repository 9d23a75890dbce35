/**
 * Gemini's `responseSchema` and function `parameters` take an OpenAPI 3.0 subset, not JSON Schema: type
 * names in capitals, `nullable` instead of a `null` type, no `$ref`, no `const`, `additionalProperties` or
 * `oneOf`. This converts a schema from the IR into that subset, inlining its `$defs` and keeping property
 * order with `propertyOrdering`. A recursive schema cannot be inlined: `undefined` then, and the caller
 * sends the JSON Schema as it is in the `…JsonSchema` field Gemini also accepts.
 */

import { enumOfConstants, isRecord } from "../../provider-helpers/index.js";
import type { JsonSchemaObject } from "../tool-calls.js";

const typeNames: Record<string, string> = {
  string: "STRING",
  integer: "INTEGER",
  number: "NUMBER",
  boolean: "BOOLEAN",
  array: "ARRAY",
  object: "OBJECT",
};

export function toGeminiSchema(schema: JsonSchemaObject): JsonSchemaObject | undefined {
  const definitions = isRecord(schema.$defs) ? schema.$defs : {};
  const expanding = new Set<string>();
  let recursive = false;

  const convert = (input: JsonSchemaObject): JsonSchemaObject => {
    const node = enumOfConstants(input);
    if (typeof node.$ref === "string") {
      const name = node.$ref.replace(/^#\/\$defs\//, "");
      const target = definitions[name];
      if (!isRecord(target) || expanding.has(name)) {
        recursive = true;
        return {};
      }
      expanding.add(name);
      const inlined = convert(target);
      expanding.delete(name);
      return typeof node.description === "string" ? { ...inlined, description: node.description } : inlined;
    }
    const union = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
    if (union !== undefined) {
      const arms = union.filter(isRecord);
      const nullable = arms.some((arm) => arm.type === "null");
      const rest = arms.filter((arm) => arm.type !== "null").map(convert);
      const described = typeof node.description === "string" ? { description: node.description } : {};
      const base: JsonSchemaObject =
        rest.length === 1 ? { ...(rest[0] as JsonSchemaObject) } : rest.length === 0 ? {} : { anyOf: rest };
      // Enum values given one by one (`oneOf` of `const`s with descriptions) are one string enum here.
      if (rest.length > 1 && rest.every((arm) => arm.type === "STRING" && Array.isArray(arm.enum))) {
        return {
          type: "STRING",
          enum: rest.flatMap((arm) => arm.enum as unknown[]),
          ...described,
          ...(nullable ? { nullable: true } : {}),
        };
      }
      return { ...base, ...described, ...(nullable ? { nullable: true } : {}) };
    }
    const result: JsonSchemaObject = {};
    if ("const" in node) {
      const value = node.const;
      if (typeof value === "string") Object.assign(result, { type: "STRING", enum: [value] });
      else if (typeof value === "boolean") result.type = "BOOLEAN";
      else if (typeof value === "number") result.type = Number.isInteger(value) ? "INTEGER" : "NUMBER";
    }
    if (typeof node.type === "string" && typeNames[node.type] !== undefined)
      result.type = typeNames[node.type];
    if (node.type === "null") result.nullable = true;
    if (typeof node.description === "string") result.description = node.description;
    if (Array.isArray(node.enum)) result.enum = node.enum.map(String);
    if (isRecord(node.items)) result.items = convert(node.items);
    if (isRecord(node.properties)) {
      const properties: JsonSchemaObject = {};
      for (const [key, value] of Object.entries(node.properties)) {
        if (isRecord(value)) properties[key] = convert(value);
      }
      result.properties = properties;
      if (Array.isArray(node.required)) result.required = node.required;
      result.propertyOrdering = Object.keys(properties);
    }
    return result;
  };

  const converted = convert(schema);
  return recursive ? undefined : converted;
}
