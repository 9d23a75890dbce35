/**
 * Sapling reached through its Zod entry point (`sapling-llm/zod`): `parse(zodSchema, text)` with the same
 * hand-written Zod mirrors the jsonrepair row validates with — what a Zod user gets without writing BAML.
 * Prefixes go through `parsePartial`.
 */
import { parse, parsePartial } from "../../src/zod/index.js";
import type { ParserUnderTest } from "./parser-under-test.js";
import { zodSchemaFor } from "./zod-schemas.js";

export function createSaplingZodParser(): ParserUnderTest {
  return {
    name: "Sapling via Zod",
    hasPartialMode: true,
    parse: (target, text, mode) => {
      const schema = zodSchemaFor(target.schema);
      return mode === "partial" ? parsePartial(schema, text).value : parse(schema, text).value;
    },
  };
}
