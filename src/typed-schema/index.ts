/**
 * The shared core of the schema entry points (`sapling-llm/zod`, `sapling-llm/json-schema`, and the AI
 * SDK output on top of them): a schema converted into Sapling's types plus the steps after parsing, the
 * typed parse functions over it, and their errors.
 */

export type { Flag, FlagKind } from "../sap/index.js";
export {
  EXTRACT_FUNCTION,
  type ExtractMessage,
  type ExtractOptions,
  type ExtractStream,
  extractTyped,
  extractTypedStream,
} from "./extract.js";
export { namedRoot, type TypeBuilderAdditions, type TypeBuilderConverter } from "./named-root.js";
export type { PartialOf } from "./partial-of.js";
export {
  createTypedStreamParser,
  parsePartialTyped,
  parseTyped,
  parseTypedAsync,
  type SchemaParseResult,
  type SchemaStreamParser,
} from "./schema-functions.js";
export {
  issuePath,
  type SchemaIssue,
  SchemaParseError,
  type SchemaParseErrorCode,
  type SchemaParseErrorInit,
} from "./schema-parse-error.js";
export { itemHint, TypeCollector, toIdentifier } from "./type-collector.js";
export type { TypedSchema, ValidationOutcome, ValueAdapter } from "./typed-schema.js";
export { UnsupportedSchemaError } from "./unsupported-schema-error.js";
export { adaptEntries, adaptFields, adaptItems, setEntry } from "./value-adapters.js";
