/**
 * The usual "repair then validate" pipeline: `jsonrepair` (3.15.0) turns the answer into JSON text (it
 * strips fences, fixes quotes, commas, comments, Python literals and truncation), `JSON.parse`, then the
 * Zod mirror validates. No partial mode of its own: a prefix is repaired (jsonrepair closes it) and returned
 * unvalidated, since a prefix is not expected to have every required field yet.
 */
import { jsonrepair } from "jsonrepair";
import type { ParserUnderTest } from "./parser-under-test.js";
import { zodSchemaFor } from "./zod-schemas.js";

export function createJsonrepairZodParser(): ParserUnderTest {
  return {
    name: "jsonrepair + Zod",
    hasPartialMode: false,
    parse: (target, text, mode) => {
      const value: unknown = JSON.parse(jsonrepair(text));
      return mode === "partial" ? value : zodSchemaFor(target.schema).parse(value);
    },
  };
}
