/**
 * Sapling's Schema-Aligned Parser (src/sap `parseValue`) on the corpus IR compiled by src/language: the
 * same .baml files the BAML runtime loads, the function's return type as the target. `partial` is
 * Sapling's prefix mode (what streaming uses when it re-parses a buffer).
 */
import { IrIndex } from "../../src/ir/index.js";
import { parseValue } from "../../src/sap/index.js";
import type { ParserUnderTest } from "./parser-under-test.js";
import type { SaplingProject } from "./sapling-project.js";

export function createSaplingParser(project: SaplingProject): ParserUnderTest {
  const index = new IrIndex(project.ir);
  return {
    name: "Sapling",
    hasPartialMode: true,
    parse: (target, text, mode) =>
      parseValue(text, project.returnTypeOf(target.functionName), index, { partial: mode === "partial" })
        .value,
  };
}
