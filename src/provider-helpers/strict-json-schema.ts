/**
 * OpenAI's strict structured outputs accept a subset of JSON Schema: every property listed in `required`
 * (an optional one says so by allowing `null`), `additionalProperties: false` on every object, `anyOf`
 * rather than `oneOf`, no `$schema`. This turns a schema from the IR into that form; what it cannot
 * express (a map's `additionalProperties` schema) is left for the provider to refuse with its own message.
 */
import type { JsonSchemaObject } from "../llm/index.js";

export function toStrictJsonSchema(schema: JsonSchemaObject): JsonSchemaObject {
  return strict(withoutDialect(schema)) as JsonSchemaObject;
}

function strict(input: unknown): unknown {
  if (Array.isArray(input)) return input.map(strict);
  if (typeof input !== "object" || input === null) return input;
  const node = enumOfConstants(input as JsonSchemaObject);
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

/**
 * An enum whose values carry descriptions is written `oneOf` a `const` per value; schema subsets that
 * take neither `oneOf` nor `const` (OpenAI strict, Gemini) get one `enum`, the value descriptions moved
 * into the enum's description (`ENGINEER: builds things`).
 */
export function enumOfConstants(node: JsonSchemaObject): JsonSchemaObject {
  const options = node.oneOf;
  if (!Array.isArray(options) || options.length === 0) return node;
  const constants = options.filter(
    (option): option is JsonSchemaObject =>
      typeof option === "object" && option !== null && "const" in option,
  );
  if (constants.length !== options.length) return node;
  const { oneOf: _options, ...rest } = node;
  const described = constants
    .filter((option) => typeof option.description === "string")
    .map((option) => `${String(option.const)}: ${option.description as string}`);
  const description = [typeof rest.description === "string" ? rest.description : "", ...described]
    .filter((line) => line !== "")
    .join("\n");
  return {
    ...rest,
    enum: constants.map((option) => option.const),
    ...(description === "" ? {} : { description }),
  };
}
