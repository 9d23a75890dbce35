/**
 * `sapling-llm/json-schema`: Sapling's parser for JSON Schemas — the subset OpenAI structured outputs, MCP
 * tool schemas and OpenAPI use. The same four functions as `sapling-llm/zod`: `parse`, `parsePartial`,
 * `createStreamParser`, `outputFormat`. Values are `unknown` unless a type is given (`parse<Recipe>(…)`).
 */
import type { OutputFormatOptions } from "../prompt/index.js";
import { renderOutputFormat } from "../prompt/index.js";
import {
  createTypedStreamParser,
  type ExtractOptions,
  type ExtractStream,
  extractTyped,
  extractTypedStream,
  type PartialOf,
  parsePartialTyped,
  parseTyped,
  type SchemaParseResult,
  type SchemaStreamParser,
} from "../typed-schema/index.js";
import { jsonSchemaTypedSchema } from "./json-schema-typed.js";

export {
  type ExtractMessage,
  type ExtractOptions,
  type ExtractStream,
  type PartialOf,
  type SchemaIssue,
  SchemaParseError,
  type SchemaParseErrorCode,
  type SchemaParseResult,
  type SchemaStreamParser,
  UnsupportedSchemaError,
} from "../typed-schema/index.js";
export type { JsonSchemaInput } from "./convert-json-schema.js";
export { fromJsonSchema, jsonSchemaTypeConverter, jsonSchemaTypedSchema } from "./json-schema-typed.js";

/**
 * Reads a model's answer into a value of the JSON Schema: missing optional properties are left out (or
 * take their `default`), bounds (`minimum`, `maxLength`, `pattern`, …) are checked. Throws
 * `SchemaParseError` with the raw answer; `UnsupportedSchemaError` for keywords outside the subset.
 */
export function parse<T = unknown>(schema: object, text: string): SchemaParseResult<T> {
  return parseTyped(jsonSchemaTypedSchema(schema), text);
}

/** Reads the beginning of an answer still being written (missing fields are `null`). Never throws for any text. */
export function parsePartial<T = unknown>(schema: object, text: string): SchemaParseResult<PartialOf<T>> {
  return parsePartialTyped(jsonSchemaTypedSchema(schema), text);
}

/** An incremental parser of one streamed answer: `push(chunk)` → the partial so far, `finish()` → as `parse`. */
export function createStreamParser<T = unknown>(schema: object): SchemaStreamParser<T, PartialOf<T>> {
  return createTypedStreamParser(jsonSchemaTypedSchema(schema));
}

/** The compact schema text `ctx.output_format` renders, for this JSON Schema. */
export function outputFormat(schema: object, options: OutputFormatOptions = {}): string {
  const typed = jsonSchemaTypedSchema(schema);
  return renderOutputFormat(typed.ir, typed.type, options);
}

/**
 * One call from a JSON Schema to a value of it: the schema's compact text in the prompt, the answer read by
 * the parser and checked against the schema, re-asked with the issues up to `maxRetries` times (default
 * 1). As `extract` of `sapling-llm/zod`; the value is typed by the type argument.
 */
export function extract<T = unknown>(schema: object, options: ExtractOptions): Promise<T> {
  return extractTyped<T>(jsonSchemaTypedSchema(schema), options);
}

/** As `extract`, streamed: partials while the answer arrives, then `await stream.final()`. */
export function extractStream<T = unknown>(schema: object, options: ExtractOptions): ExtractStream<T> {
  return extractTypedStream<T>(jsonSchemaTypedSchema(schema), options);
}
