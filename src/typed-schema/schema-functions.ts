import {
  type Flag,
  type ParseResult,
  parsePartial,
  parseValue,
  SapParseError,
  createStreamParser as sapStreamParser,
} from "../sap/index.js";
import { issuePath, SchemaParseError } from "./schema-parse-error.js";
import type { TypedSchema, ValidationOutcome } from "./typed-schema.js";
import { syntaxFlags, writtenValue } from "./written-value.js";

/** A value read through a schema, with every repair the parser made (`flags`, see docs/sap.md). */
export interface SchemaParseResult<T> {
  value: T;
  flags: Flag[];
}

/** An incremental parser of one streamed answer, typed by its schema. */
export interface SchemaStreamParser<T, P> {
  /** Feed the next chunk and read the partial (`append`, then `read`). */
  push(chunk: string): { changed: boolean; value: P };
  /** Feed the next chunk, only advancing the parser: no partial is built until `read`. */
  append(chunk: string): void;
  /** The partial so far, built now; `changed` is false when it is the one of the previous read. */
  read(): { changed: boolean; value: P };
  /** The answer is complete: the final value, exactly as `parse(schema, wholeText)` gives it. */
  finish(): SchemaParseResult<T>;
  /** The whole answer so far. */
  readonly text: string;
}

/** The answer → the schema's value, or a `SchemaParseError`. Sync: async Zod refinements need `parseTypedAsync`. */
export function parseTyped<T>(schema: TypedSchema, text: string): SchemaParseResult<T> {
  return complete<T>(schema, readFinal(schema, text), text);
}

/** As `parseTyped`, awaiting async refinements. */
export async function parseTypedAsync<T>(schema: TypedSchema, text: string): Promise<SchemaParseResult<T>> {
  const result = readFinal(schema, text);
  const written = asWritten<T>(schema, result, text);
  if (written) return written;
  const adapted = schema.adaptFinal ? schema.adaptFinal(result.value, result.flags, text) : result.value;
  return outcomeToResult<T>(await schema.validate(adapted), result.flags, text);
}

/** A prefix of an answer → its partial value (never throws for any text; no validation runs). */
export function parsePartialTyped<P>(schema: TypedSchema, text: string): SchemaParseResult<P> {
  const result = parsePartial(text, schema.type, schema.index);
  const value = schema.adaptPartial ? schema.adaptPartial(result.value) : result.value;
  return { value: value as P, flags: result.flags };
}

/** Sapling's incremental stream parser over a schema: partials adapted once per change, final validated. */
export function createTypedStreamParser<T, P>(schema: TypedSchema): SchemaStreamParser<T, P> {
  const parser = sapStreamParser(schema.type, schema.index);
  let last: unknown = null;
  let started = false;
  const read = (): { changed: boolean; value: P } => {
    const step = parser.read();
    if (step.changed || !started) {
      last = schema.adaptPartial ? schema.adaptPartial(step.value) : step.value;
      started = true;
    }
    return { changed: step.changed, value: last as P };
  };
  return {
    push(chunk) {
      parser.append(chunk);
      return read();
    },
    append: (chunk) => parser.append(chunk),
    read,
    finish() {
      let result: ParseResult;
      try {
        result = parser.finish();
      } catch (error) {
        throw fromSapError(error, parser.text);
      }
      return complete<T>(schema, result, parser.text);
    },
    get text() {
      return parser.text;
    },
  };
}

function readFinal(schema: TypedSchema, text: string): ParseResult {
  try {
    return parseValue(text, schema.type, schema.index);
  } catch (error) {
    throw fromSapError(error, text);
  }
}

function complete<T>(schema: TypedSchema, result: ParseResult, text: string): SchemaParseResult<T> {
  const written = asWritten<T>(schema, result, text);
  if (written) return written;
  const adapted = schema.adaptFinal ? schema.adaptFinal(result.value, result.flags, text) : result.value;
  const outcome = schema.validate(adapted);
  if (outcome instanceof Promise) {
    // Nothing awaits it here; keep an unhandled rejection from surfacing later.
    outcome.catch(() => undefined);
    throw new TypeError(
      "The schema has async refinements, which parse() cannot wait for. Use parseAsync(schema, text), " +
        "or make the refinements synchronous.",
    );
  }
  return outcomeToResult<T>(outcome, result.flags, text);
}

/** The JSON the model wrote, when the schema accepts it as written (see `TypedSchema.acceptsWritten`). */
function asWritten<T>(
  schema: TypedSchema,
  result: ParseResult,
  text: string,
): SchemaParseResult<T> | undefined {
  if (!schema.acceptsWritten) return undefined;
  const written = writtenValue(text, result.flags);
  if (written === undefined) return undefined;
  const judged = schema.validate(written);
  if (judged instanceof Promise || !("value" in judged)) return undefined;
  return { value: judged.value as T, flags: syntaxFlags(result.flags) };
}

function outcomeToResult<T>(outcome: ValidationOutcome, flags: Flag[], text: string): SchemaParseResult<T> {
  if ("value" in outcome) return { value: outcome.value as T, flags };
  const [first] = outcome.issues;
  const listed = outcome.issues
    .slice(0, 5)
    .map((issue) => `  - ${issuePath(issue.path)}: ${issue.message}`)
    .join("\n");
  const more = outcome.issues.length > 5 ? `\n  - … ${outcome.issues.length - 5} more` : "";
  throw new SchemaParseError({
    code: "validation-failed",
    message:
      `The answer was parsed, but the value breaks the schema's own rules:\n${listed}${more}\n` +
      "Say the rules in the prompt (or describe the field), or relax the schema.",
    raw: text,
    path: first ? issuePath(first.path) : "$",
    issues: outcome.issues,
  });
}

function fromSapError(error: unknown, text: string): unknown {
  if (!SapParseError.isInstance(error)) return error;
  return new SchemaParseError({
    code: error.code,
    message: inSchemaTerms(error),
    raw: text,
    path: error.path,
    cause: error,
  });
}

/**
 * The parser's message in the words of someone who wrote a Zod or JSON Schema, not a `.baml` file: no
 * `class Output` (the schema's objects have no class names of their own), no `{{ ctx.output_format }}`.
 */
function inSchemaTerms(error: SapParseError): string {
  const reword = (text: string): string =>
    text
      .replace(/\ban object for class (\w+)/g, "an object ($1)")
      .replace(/\bclass (\w+)/g, "an object ($1)")
      .replace(/\benum (\w+)/g, "one of the values of $1");
  return reword(error.message).replace(
    "Check that the prompt asks for this shape ({{ ctx.output_format }}), or relax the type.",
    "Check that the prompt shows the schema (outputFormat(schema) gives its text), or relax the schema.",
  );
}
