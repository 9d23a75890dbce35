/**
 * `sapling-llm/ai-sdk`: Sapling's parser as a Vercel AI SDK 6 `Output`, for `generateText` and
 * `streamText`. `ai` is a peer dependency (this entry point imports its `NoObjectGeneratedError`), and so is
 * `zod` for Zod schemas (read from the objects passed in, never imported).
 */
import type * as z from "zod/v4/core";
import type { PartialOf } from "../typed-schema/index.js";
import { createSaplingOutput, type SaplingOutput, type SaplingOutputOptions } from "./sapling-output.js";

export { type PartialOf, SchemaParseError } from "../typed-schema/index.js";
export { createAppendingParser } from "./appending-parser.js";
export type { SaplingOutput, SaplingOutputOptions } from "./sapling-output.js";

/**
 * An AI SDK `Output` for a Zod 4 schema (typed by `z.infer`) or a JSON Schema object (typed by the type
 * argument): `streamText({ model, system: output.system("You are …"), prompt, output })`, then
 * `result.partialOutputStream` yields typed partials and `await result.output` the validated value.
 */
export function saplingOutput<Schema extends z.$ZodType>(
  schema: Schema,
  options?: SaplingOutputOptions,
): SaplingOutput<z.output<Schema>, PartialOf<z.output<Schema>>>;
export function saplingOutput<Value = unknown>(
  schema: Record<string, unknown>,
  options?: SaplingOutputOptions,
): SaplingOutput<Value, PartialOf<Value>>;
export function saplingOutput(
  schema: object,
  options: SaplingOutputOptions = {},
): SaplingOutput<unknown, unknown> {
  return createSaplingOutput(schema, options);
}
