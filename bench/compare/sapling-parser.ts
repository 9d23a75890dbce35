/**
 * Sapling's Schema-Aligned Parser on the corpus IR compiled by src/language (the same .baml files the BAML
 * runtime loads, the function's return type as the target): `parseValue` for a whole answer, `parsePartial`
 * for a prefix — the pair behind `b.parse.Fn` / `b.parseStream.Fn`, as BAML's `parseLlmResponse` is.
 */
import { IrIndex } from "../../src/ir/index.js";
import { parsePartial, parseValue } from "../../src/sap/index.js";
import type { ParserUnderTest } from "./parser-under-test.js";
import type { SaplingProject } from "./sapling-project.js";

export function createSaplingParser(project: SaplingProject): ParserUnderTest {
  const index = new IrIndex(project.ir);
  return {
    name: "Sapling",
    hasPartialMode: true,
    parse: (target, text, mode) => {
      const type = project.returnTypeOf(target.functionName);
      return mode === "partial" ? parsePartial(text, type, index).value : parseValue(text, type, index).value;
    },
  };
}
