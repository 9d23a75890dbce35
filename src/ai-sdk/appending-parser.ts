import { createTypedStreamParser, type SchemaStreamParser, type TypedSchema } from "../typed-schema/index.js";

/** What one `read` gave: the partial now, and whether it differs from the one the previous read gave. */
export interface AppendingRead {
  changed: boolean;
  value: unknown;
}

/** One incremental parser kept across calls that each pass the whole text so far. */
export interface AppendingParser {
  read(text: string): AppendingRead;
  /** Characters pushed into stream parsers so far (the work done; a re-parse would push the whole text). */
  readonly charactersParsed: number;
}

/**
 * The AI SDK hands `parsePartialOutput` the whole text on every chunk. While each text extends the last
 * one, only the new end is pushed into one stream parser, so a stream costs time linear in its length. A
 * text that does not extend the last (a new step, another call sharing the output) starts a new parser.
 */
export function createAppendingParser(schema: TypedSchema): AppendingParser {
  let parser: SchemaStreamParser<unknown, unknown> | undefined;
  let fed = "";
  let charactersParsed = 0;
  return {
    read(text) {
      if (parser === undefined || text.length < fed.length || !text.startsWith(fed)) {
        parser = createTypedStreamParser(schema);
        fed = "";
      }
      const delta = text.slice(fed.length);
      fed = text;
      charactersParsed += delta.length;
      return parser.push(delta);
    },
    get charactersParsed() {
      return charactersParsed;
    },
  };
}
