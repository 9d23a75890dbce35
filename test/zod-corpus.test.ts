/**
 * The Zod and JSON Schema routes read the messy-answer corpus (bench/corpus) exactly as the `.baml` route
 * does: for every committed case, `parse(zodSchema, text)` — and `parse(z.toJSONSchema(zodSchema), text)`
 * from the JSON Schema entry — gives the value `parseValue` gives on the IR compiled from
 * bench/corpus/baml_src, or fails where it fails. The Zod mirrors are bench/compare/zod-schemas.ts.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { loadSaplingProject } from "../bench/compare/sapling-project.js";
import { zodSchemaFor } from "../bench/compare/zod-schemas.js";
import { loadCorpus } from "../bench/corpus/corpus-files.js";
import { IrIndex } from "../src/ir/index.js";
import * as jsonSchema from "../src/json-schema/index.js";
import { renderOutputFormat } from "../src/prompt/index.js";
import { parseValue } from "../src/sap/index.js";
import * as zod from "../src/zod/index.js";

const cases = loadCorpus().filter((corpusCase) => corpusCase.size !== "200k");
const project = loadSaplingProject();
const index = new IrIndex(project.ir);

type Outcome = { value: unknown } | { failed: true };

function outcome(read: () => unknown): Outcome {
  try {
    return { value: read() };
  } catch {
    return { failed: true };
  }
}

const jsonSchemas = new Map<string, object>();
function jsonSchemaFor(schema: string): object {
  let found = jsonSchemas.get(schema);
  if (!found) {
    found = z.toJSONSchema(zodSchemaFor(schema));
    jsonSchemas.set(schema, found);
  }
  return found;
}

describe("the corpus through Zod and JSON Schema", () => {
  it("has the committed cases", () => {
    expect(cases.length).toBe(142);
  });

  it.each(cases.map((corpusCase) => [corpusCase.id, corpusCase] as const))("%s", (_id, corpusCase) => {
    const baml = outcome(
      () => parseValue(corpusCase.answer, project.returnTypeOf(corpusCase.functionName), index).value,
    );
    expect(outcome(() => zod.parse(zodSchemaFor(corpusCase.schema), corpusCase.answer).value)).toEqual(baml);
    expect(
      outcome(() => jsonSchema.parse(jsonSchemaFor(corpusCase.schema), corpusCase.answer).value),
    ).toEqual(baml);
    // The expectations agree too: the routes are correct where the .baml route is.
    if ("value" in corpusCase.expected && "value" in baml)
      expect(baml.value).toEqual(corpusCase.expected.value);
  });
});

describe("the prompt through Zod", () => {
  it.each([
    "ExtractCandidateEvaluation",
    "ExtractReceipt",
    "ExtractEntities",
    "ExtractOutline",
    "ClassifyTicket",
  ])(
    "outputFormat of the Zod mirror of %s is byte-identical to ctx.output_format of the .baml route",
    (functionName) => {
      const schema = cases.find((corpusCase) => corpusCase.functionName === functionName)?.schema ?? "";
      expect(zod.outputFormat(zodSchemaFor(schema))).toBe(
        renderOutputFormat(project.ir, project.returnTypeOf(functionName)),
      );
    },
  );
});
