/**
 * `sapling-llm/zod`: Sapling's parser for Zod 4 schemas. `parse(schema, answer)` reads a fenced, chatty or
 * truncated model answer into `z.infer<typeof schema>` (then Zod's own refinements, defaults and
 * transforms run); `parsePartial` and `createStreamParser` give typed partials while it streams;
 * `outputFormat` renders the compact schema text for a prompt; `extract` and `extractStream` call a model
 * for a value of the schema in one call (the schema in the prompt, re-asked with Zod's issues). Zod is a peer dependency: this entry point
 * never imports it, it reads the schema objects the application passes in.
 */
import type * as z from "zod/v4/core";
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
  parseTypedAsync,
  type SchemaParseResult,
  type SchemaStreamParser,
} from "../typed-schema/index.js";
import { zodTypedSchema } from "./zod-schema.js";

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
export { type ToBamlTypeOptions, toBamlType, zodTypedSchema } from "./zod-schema.js";
export { zodTypeConverter } from "./zod-type-converter.js";

/**
 * Reads a model's answer into a value of `schema`. Throws `SchemaParseError` (with the raw answer) when the
 * answer holds no value of the type, or when the value breaks the schema's refinements (`issues` lists
 * Zod's issues); `UnsupportedSchemaError` when the schema uses a feature Sapling cannot read toward.
 */
export function parse<Schema extends z.$ZodType>(
  schema: Schema,
  text: string,
): SchemaParseResult<z.output<Schema>> {
  return parseTyped(zodTypedSchema(schema), text);
}

/** As `parse`, for schemas with async refinements. */
export function parseAsync<Schema extends z.$ZodType>(
  schema: Schema,
  text: string,
): Promise<SchemaParseResult<z.output<Schema>>> {
  return parseTypedAsync(zodTypedSchema(schema), text);
}

/**
 * Reads the beginning of an answer still being written: fields not written yet are `null` (lists `[]`),
 * strings show their text so far, numbers and enums appear once complete. Never throws for any text.
 * Refinements and defaults run on final values only.
 */
export function parsePartial<Schema extends z.$ZodType>(
  schema: Schema,
  text: string,
): SchemaParseResult<PartialOf<z.output<Schema>>> {
  return parsePartialTyped(zodTypedSchema(schema), text);
}

/**
 * An incremental parser for one streamed answer: `push(chunk)` returns the partial so far (each chunk
 * costs time proportional to its length, not to the answer's), `finish()` the final value as `parse` gives
 * it.
 */
export function createStreamParser<Schema extends z.$ZodType>(
  schema: Schema,
): SchemaStreamParser<z.output<Schema>, PartialOf<z.output<Schema>>> {
  return createTypedStreamParser(zodTypedSchema(schema));
}

/**
 * The compact schema text that BAML's `{{ ctx.output_format }}` renders, for this schema — put it in any
 * prompt. Options are `ctx.output_format`'s (`prefix`, `orSplitter`, `hoistClasses`, …).
 */
export function outputFormat(schema: z.$ZodType, options: OutputFormatOptions = {}): string {
  const typed = zodTypedSchema(schema);
  return renderOutputFormat(typed.ir, typed.type, options);
}

/**
 * One call from a Zod schema to a validated value (instructor's `create({ response_model, max_retries })`):
 * the compact schema text goes into the prompt, the answer is read by the Schema-Aligned Parser, Zod's own
 * rules run, and an answer they reject is sent back to the model with Zod's issues, up to `maxRetries`
 * times (default 1). Sapling's clients, retries and Collector do the calling:
 *
 * ```ts
 * const invoice = await extract(Invoice, { client: "openai/gpt-4o-mini", prompt: emailText });
 * ```
 *
 * Fails with the runtime's errors: `BamlValidationError` (raw answer, and Zod's issues in `detail`) when
 * no answer passed, `BamlClientHttpError` and the others when the model could not be reached.
 */
export function extract<Schema extends z.$ZodType>(
  schema: Schema,
  options: ExtractOptions,
): Promise<z.output<Schema>> {
  return extractTyped<z.output<Schema>>(zodTypedSchema(schema), options);
}

/** As `extract`, streamed: typed partials while the answer arrives, then `await stream.final()`. */
export function extractStream<Schema extends z.$ZodType>(
  schema: Schema,
  options: ExtractOptions,
): ExtractStream<z.output<Schema>> {
  return extractTypedStream<z.output<Schema>>(zodTypedSchema(schema), options);
}
