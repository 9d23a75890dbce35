/**
 * The Vercel AI SDK's partial JSON parser (`parsePartialJson` from ai 6.0.325, what `streamObject` runs on
 * every chunk) followed by the Zod mirror. It closes truncated JSON and nothing else; a failed parse is a
 * failure. In partial mode the value is returned unvalidated, as `streamObject` does with its partials. Its
 * API is async, so each parse costs a promise.
 */
import { parsePartialJson } from "ai";
import type { ParserUnderTest } from "./parser-under-test.js";
import { zodSchemaFor } from "./zod-schemas.js";

export function createPartialJsonZodParser(): ParserUnderTest {
  return {
    name: "AI SDK parsePartialJson + Zod",
    hasPartialMode: true,
    parse: async (target, text, mode) => {
      const { value, state } = await parsePartialJson(text);
      if (state === "failed-parse" || state === "undefined-input")
        throw new Error(`parsePartialJson: ${state}`);
      return mode === "partial" ? value : zodSchemaFor(target.schema).parse(value);
    },
  };
}
