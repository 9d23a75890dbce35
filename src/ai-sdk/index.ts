/**
 * `sapling-llm/ai-sdk`: Sapling's parser as a Vercel AI SDK `Output` (AI SDK 6 and 7), for `generateText` and
 * `streamText`, and as a tool-call repair. `ai` is a peer dependency (this entry point imports its `NoObjectGeneratedError`), and so is
 * `zod` for Zod schemas (read from the objects passed in, never imported).
 */
import type * as z from "zod/v4/core";
import type { PartialOf } from "../typed-schema/index.js";
import { createSaplingOutput, type SaplingOutput, type SaplingOutputOptions } from "./sapling-output.js";

export { type PartialOf, SchemaParseError } from "../typed-schema/index.js";
export { createAppendingParser } from "./appending-parser.js";
export {
  type RepairToolCallOptions,
  type RepairToolCallSettings,
  repairToolCall,
} from "./repair-tool-call.js";
export type { ElementOf, SaplingOutput, SaplingOutputOptions } from "./sapling-output.js";
export { typedSchemaOf } from "./typed-schema-of.js";

/** A Standard Schema (Valibot, ArkType, …), as far as its output type goes. */
export interface StandardTyped {
  readonly "~standard": {
    readonly vendor: string;
    readonly types?: { readonly output: unknown } | undefined;
  };
}

/** The value type a Standard Schema validates to. */
export type StandardOutput<Schema extends StandardTyped> = NonNullable<
  Schema["~standard"]["types"]
>["output"];

/** The AI SDK's `Schema<Value>` (what `jsonSchema<Value>(…)` returns), as far as its type goes. */
export interface AiSdkSchemaLike<Value> {
  readonly _type: Value;
  readonly jsonSchema: unknown;
}

/**
 * An AI SDK `Output` for a Zod 4 schema (typed by `z.infer`), a JSON Schema object, the SDK's own
 * `jsonSchema(…)` wrapper or a Standard Schema that converts to JSON Schema (Valibot, ArkType: typed by the
 * type argument): `streamText({ model, instructions: output.instructions("You are …"), prompt, output })`, then
 * `result.partialOutputStream` yields typed partials and `await result.output` the validated value.
 */
export function saplingOutput<Schema extends z.$ZodType>(
  schema: Schema,
  options?: SaplingOutputOptions,
): SaplingOutput<z.output<Schema>, PartialOf<z.output<Schema>>>;
export function saplingOutput<Schema extends StandardTyped>(
  schema: Schema,
  options?: SaplingOutputOptions,
): SaplingOutput<StandardOutput<Schema>, PartialOf<StandardOutput<Schema>>>;
export function saplingOutput<Value>(
  schema: AiSdkSchemaLike<Value>,
  options?: SaplingOutputOptions,
): SaplingOutput<Value, PartialOf<Value>>;
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
