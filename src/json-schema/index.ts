/**
 * `sapling-llm/json-schema`: Sapling's parser for JSON Schemas (draft-04 to 2020-12, OpenAPI's
 * `nullable`): MCP tool schemas, OpenAPI components, JSON Schema Store, function definitions. The same
 * four functions as `sapling-llm/zod`: `parse`, `parsePartial`, `createStreamParser`, `outputFormat`.
 * Values are `unknown` unless a type is given (`parse<Recipe>(…)`). Every final value is validated
 * against the whole schema by @cfworker/json-schema (an optional peer dependency this entry needs);
 * docs/json-schema.md says what each keyword does.
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
import { sharedClasses } from "./shared-classes.js";

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
export {
  fromJsonSchema,
  jsonSchemaTypeConverter,
  jsonSchemaTypedSchema,
  jsonSchemaWarnings,
} from "./json-schema-typed.js";

/**
 * Reads a model's answer into a value of the JSON Schema: the JSON the model wrote when the schema accepts
 * it as written, else the parser's reading (optional properties the model left out stay out; a `default`
 * never fills them), and the value is validated against the whole schema (formats, bounds,
 * `not`, every union arm). Throws `SchemaParseError` with the raw answer (and the validator's `issues`
 * when the value breaks the schema); `UnsupportedSchemaError` for a schema no answer can be read toward
 * (a remote `$ref`, a `false` schema). Keywords outside JSON Schema are ignored: `jsonSchemaWarnings`.
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

/**
 * The compact schema text `ctx.output_format` renders, for this JSON Schema. A class the schema uses in
 * more than one place is written once, by name, above the answer's shape (unless `hoistClasses` says
 * otherwise), so the text grows with the schema, not with the number of paths through it.
 */
export function outputFormat(schema: object, options: OutputFormatOptions = {}): string {
  const typed = jsonSchemaTypedSchema(schema);
  const hoistClasses = options.hoistClasses ?? sharedClasses(typed.ir, typed.type);
  return renderOutputFormat(typed.ir, typed.type, { ...options, hoistClasses });
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
