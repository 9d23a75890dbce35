import { describe, expect, it } from "vitest";
import { IrIndex } from "../ir/index.js";
import { compile } from "../language/index.js";
import { ApiSchemaBuilder } from "./api-schema.js";

function builderFor(source: string): { builder: ApiSchemaBuilder; index: IrIndex } {
  const { ir, diagnostics } = compile({ "main.baml": source });
  if (!ir) throw new Error(JSON.stringify(diagnostics));
  const index = new IrIndex(ir);
  return { builder: new ApiSchemaBuilder(index), index };
}

const FUNCTION = `
client<llm> Mock {
  provider openai-generic
  options { base_url "http://127.0.0.1:1/v1" model "m" }
}
`;

describe("ApiSchemaBuilder", () => {
  it("keeps recursive classes and aliases finite through named components", () => {
    const { builder, index } = builderFor(`
      class Node {
        value int
        children Node[]
      }
      type JsonValue = int | string | JsonValue[] | map<string, JsonValue>
      function Walk(tree: Node) -> JsonValue {
        client Mock
        prompt #"{{ tree }}"#
      }
      ${FUNCTION}
    `);
    const fn = index.getFunction("Walk");
    expect(builder.schema(fn.params[0]?.type ?? fn.returnType, "input")).toEqual({
      $ref: "#/components/schemas/Node",
    });
    expect(builder.schema(fn.returnType, "output")).toEqual({ $ref: "#/components/schemas/JsonValue" });
    const components = builder.components();
    expect(components.Node).toEqual({
      type: "object",
      properties: {
        value: { type: "integer" },
        children: { type: "array", items: { $ref: "#/components/schemas/Node" } },
      },
      required: ["value", "children"],
    });
    expect(components.JsonValue).toEqual({
      anyOf: [
        { type: "integer" },
        { type: "string" },
        { type: "array", items: { $ref: "#/components/schemas/JsonValue" } },
        { type: "object", additionalProperties: { $ref: "#/components/schemas/JsonValue" } },
      ],
    });
  });

  it("wraps checked values in answers only; inputs with checks get a plain NameInput component", () => {
    const { builder, index } = builderFor(`
      class Reading {
        celsius float @check(plausible, {{ this > -90 and this < 60 }})
        station string?
      }
      function Correct(reading: Reading) -> Reading {
        client Mock
        prompt #"{{ reading }}"#
      }
      ${FUNCTION}
    `);
    const fn = index.getFunction("Correct");
    expect(builder.schema(fn.params[0]?.type ?? fn.returnType, "input")).toEqual({
      $ref: "#/components/schemas/ReadingInput",
    });
    expect(builder.schema(fn.returnType, "output")).toEqual({ $ref: "#/components/schemas/Reading" });
    const components = builder.components();
    expect(components.ReadingInput).toEqual({
      type: "object",
      properties: {
        celsius: { type: "number" },
        station: { anyOf: [{ type: "string" }, { type: "null" }] },
      },
      // Callers may leave optional fields out; answers always carry them.
      required: ["celsius"],
    });
    expect(components.Reading).toMatchObject({
      required: ["celsius", "station"],
      properties: {
        celsius: {
          type: "object",
          properties: { value: { type: "number" }, checks: { required: ["plausible"] } },
          required: ["value", "checks"],
        },
      },
    });
    expect(components.CheckOutcome).toBeDefined();
  });

  it("describes media inputs, literals, maps and enums by declared names", () => {
    const { builder, index } = builderFor(`
      enum Mood {
        HAPPY @alias("glad")
        SAD
        HIDDEN @skip
      }
      function Look(photo: image, mode: "fast" | "slow") -> map<string, Mood> {
        client Mock
        prompt #"{{ photo }} {{ mode }}"#
      }
      ${FUNCTION}
    `);
    const fn = index.getFunction("Look");
    expect(builder.schema(fn.params[0]?.type ?? fn.returnType, "input")).toEqual({
      $ref: "#/components/schemas/MediaInput",
    });
    expect(builder.schema(fn.params[1]?.type ?? fn.returnType, "input")).toEqual({
      anyOf: [{ const: "fast" }, { const: "slow" }],
    });
    expect(builder.schema(fn.returnType, "output")).toEqual({
      type: "object",
      additionalProperties: { $ref: "#/components/schemas/Mood" },
    });
    expect(builder.components().Mood).toEqual({ type: "string", enum: ["HAPPY", "SAD"] });
  });
});
