import { NoObjectGeneratedError, type OutputInterface } from "ai";
import { type OutputFormatOptions, renderOutputFormat } from "../prompt/index.js";
import { parseTypedAsync, SchemaParseError, type TypedSchema } from "../typed-schema/index.js";
import { createAppendingParser } from "./appending-parser.js";
import { typedSchemaOf } from "./typed-schema-of.js";

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
export interface SaplingOutput<Value, Partial> extends OutputInterface<Value, Partial, ElementOf<Value>> {
  /** The compact schema text (what `{{ ctx.output_format }}` renders in BAML). */
  readonly outputFormat: string;
  /** `instructions`, then a blank line and the schema text: pass it as `instructions` (AI SDK 7). */
  instructions(instructions?: string): string;
  /** The same text as `instructions(…)`, under AI SDK 6's name for the option (`system`). */
  system(instructions?: string): string;
}

/** An array output's element type (what `elementStream` yields); `never` for other outputs. */
export type ElementOf<Value> = Value extends readonly (infer Element)[] ? Element : never;

/** What the SDK hands an element transform: each stream part, with the partial published so far. */
interface EnrichedPart {
  part: { type: string; text?: unknown };
  partialOutput: unknown;
}

/**
 * An `Output` for `generateText` / `streamText` (AI SDK 6 and 7) that parses with Sapling:
 * `streamText({ model, instructions: output.instructions("…"), prompt, output })`. Complete answers are parsed, then
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
  const withSchema = (instructions?: string) =>
    instructions ? `${instructions}\n\n${outputFormat}` : outputFormat;
  return {
    name: "sapling",
    responseFormat: Promise.resolve({ type: "text" }),
    outputFormat,
    instructions: withSchema,
    system: withSchema,
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
    createElementStreamTransform: () => (typed.type.kind === "list" ? elementTransform(typed) : undefined),
  };
}

/**
 * `elementStream` for an array output: an element is handed out once the model has started the next one
 * (the parser's reading of a finished item), and the ones still open at the end come from the final,
 * validated value, so every element is whole and each is handed out once. The final value is read from the
 * text of the last step, as `output` is.
 */
function elementTransform<Element>(typed: TypedSchema): TransformStream<EnrichedPart, Element> {
  let published = 0;
  let text = "";
  return new TransformStream<EnrichedPart, Element>({
    async transform({ part, partialOutput }, controller) {
      if (part.type === "start-step") text = "";
      if (part.type === "text-delta" && typeof part.text === "string") text += part.text;
      if (Array.isArray(partialOutput)) {
        for (; published < partialOutput.length - 1; published += 1) {
          controller.enqueue(partialOutput[published] as Element);
        }
      }
      if (part.type !== "finish") return;
      try {
        const final = (await parseTypedAsync<Element[]>(typed, text)).value;
        for (; published < final.length; published += 1) controller.enqueue(final[published] as Element);
      } catch (error) {
        controller.error(error);
      }
    },
  });
}
