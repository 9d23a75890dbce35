import { NoObjectGeneratedError, type OutputInterface } from "ai";
import { jsonSchemaTypedSchema } from "../json-schema/index.js";
import { type OutputFormatOptions, renderOutputFormat } from "../prompt/index.js";
import { parseTypedAsync, SchemaParseError, type TypedSchema } from "../typed-schema/index.js";
import { zodTypedSchema } from "../zod/index.js";
import { createAppendingParser } from "./appending-parser.js";

/** Options of `saplingOutput`. */
export interface SaplingOutputOptions {
  /** How the schema is written into the system prompt (`ctx.output_format`'s options). */
  outputFormat?: OutputFormatOptions;
}

/**
 * An AI SDK `Output` read by Sapling's parser, plus the schema text for the prompt. The model answers in
 * plain text (`responseFormat: { type: "text" }`): no JSON mode, so it may think aloud, fence its JSON or be
 * cut off, and the parser still reads the value.
 */
export interface SaplingOutput<Value, Partial> extends OutputInterface<Value, Partial, never> {
  /** The compact schema text (what `{{ ctx.output_format }}` renders in BAML). */
  readonly outputFormat: string;
  /** `instructions`, then a blank line and the schema text: pass it as `system`. */
  system(instructions?: string): string;
}

/**
 * The typed schema behind a Zod 4 schema (anything with `_zod`, or a Zod 3 schema, refused with a clear
 * error) or a JSON Schema object.
 */
function typedSchemaOf(schema: object): TypedSchema {
  return "_zod" in schema || "_def" in schema ? zodTypedSchema(schema) : jsonSchemaTypedSchema(schema);
}

/**
 * An `Output` for `generateText` / `streamText` (AI SDK 6) that parses with Sapling:
 * `streamText({ model, system: output.system("…"), prompt, output })`. Complete answers are parsed, then
 * validated by the schema (Zod refinements, defaults and transforms); partial answers are parsed
 * incrementally, one parser kept while the text grows. A failure is the AI SDK's `NoObjectGeneratedError`
 * whose `cause` is Sapling's `SchemaParseError` (raw text, path, Zod issues).
 */
export function createSaplingOutput<Value, Partial>(
  schema: object,
  options: SaplingOutputOptions = {},
): SaplingOutput<Value, Partial> {
  const typed = typedSchemaOf(schema);
  const outputFormat = renderOutputFormat(typed.ir, typed.type, options.outputFormat);
  let appending = createAppendingParser(typed);
  return {
    name: "sapling",
    responseFormat: Promise.resolve({ type: "text" }),
    outputFormat,
    system: (instructions) => (instructions ? `${instructions}\n\n${outputFormat}` : outputFormat),
    async parseCompleteOutput({ text }, context) {
      // The next stream starts from nothing; this one's parser is done.
      appending = createAppendingParser(typed);
      try {
        return (await parseTypedAsync<Value>(typed, text)).value;
      } catch (error) {
        if (!SchemaParseError.isInstance(error)) throw error;
        throw new NoObjectGeneratedError({
          message: `No object generated: ${error.message}`,
          cause: error,
          text,
          response: context.response,
          usage: context.usage,
          finishReason: context.finishReason,
        });
      }
    },
    async parsePartialOutput({ text }) {
      const read = appending.read(text);
      // Unchanged: nothing to publish (the SDK would compare it with the last partial and drop it).
      return read.changed ? { partial: read.value as Partial } : undefined;
    },
    createElementStreamTransform: () => undefined,
  };
}
