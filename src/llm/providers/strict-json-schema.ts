/**
 * OpenAI's strict structured outputs accept a subset of JSON Schema: every property listed in `required`
 * (an optional one says so by allowing `null`), `additionalProperties: false` on every object, `anyOf`
 * rather than `oneOf`, no `$schema`. This turns a schema from the IR into that form; what it cannot
 * express (a map's `additionalProperties` schema) is left for the provider to refuse with its own message.
 */
import type { JsonSchemaObject } from "../tool-calls.js";

export function toStrictJsonSchema(schema: JsonSchemaObject): JsonSchemaObject {
  return strict(withoutDialect(schema)) as JsonSchemaObject;
}

function strict(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strict);
  if (typeof node !== "object" || node === null) return node;
  const result: JsonSchemaObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "oneOf") result.anyOf = strict(value);
    else if (key === "properties" || key === "$defs") {
      result[key] = Object.fromEntries(
        Object.entries(value as JsonSchemaObject).map(([name, entry]) => [name, strict(entry)]),
      );
    } else result[key] = strict(value);
  }
  if (result.type === "object" && typeof result.properties === "object" && result.properties !== null) {
    result.required = Object.keys(result.properties);
    result.additionalProperties = false;
  }
  return result;
}

/** The schema without its `$schema` dialect line, which tool parameters do not need. */
export function withoutDialect(schema: JsonSchemaObject): JsonSchemaObject {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}
