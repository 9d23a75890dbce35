/**
 * The schema forms providers require for tools and enforced schemas: Gemini's OpenAPI subset (inlined
 * `$ref`s, `nullable`, capital type names, recursive schemas left to `…JsonSchema`) and OpenAI's strict
 * subset (every property required, one `enum` for described values).
 */
import { describe, expect, it } from "vitest";
import { enumOfConstants, LlmOptionsError, toStrictJsonSchema } from "../../provider-helpers/index.js";
import { createLanguageModel } from "../create-language-model.js";
import { toGeminiSchema } from "./gemini-schema.js";

const person = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    name: { type: "string", description: "the full name" },
    nickname: { anyOf: [{ type: "string" }, { type: "null" }] },
    role: { $ref: "#/$defs/Role" },
    kind: { const: "person" },
  },
  required: ["name", "role", "kind"],
  additionalProperties: false,
  $defs: {
    Role: {
      type: "string",
      oneOf: [{ const: "ENGINEER", description: "builds things" }, { const: "MANAGER" }],
    },
  },
};

describe("toGeminiSchema", () => {
  it("inlines definitions and writes Gemini's types, nullability and property order", () => {
    expect(toGeminiSchema(person)).toEqual({
      type: "OBJECT",
      properties: {
        name: { type: "STRING", description: "the full name" },
        nickname: { type: "STRING", nullable: true },
        role: { type: "STRING", enum: ["ENGINEER", "MANAGER"], description: "ENGINEER: builds things" },
        kind: { type: "STRING", enum: ["person"] },
      },
      required: ["name", "role", "kind"],
      propertyOrdering: ["name", "nickname", "role", "kind"],
    });
  });

  it("gives up on a recursive schema, which cannot be inlined", () => {
    const tree = {
      $ref: "#/$defs/Node",
      $defs: {
        Node: {
          type: "object",
          properties: { children: { type: "array", items: { $ref: "#/$defs/Node" } } },
        },
      },
    };
    expect(toGeminiSchema(tree)).toBeUndefined();
  });
});

describe("toStrictJsonSchema", () => {
  it("requires every property, keeps optional ones nullable, and drops the dialect line", () => {
    const strict = toStrictJsonSchema(person);
    expect(strict.$schema).toBeUndefined();
    expect(strict.required).toEqual(["name", "nickname", "role", "kind"]);
    expect(strict.additionalProperties).toBe(false);
    expect((strict.$defs as Record<string, unknown>).Role).toEqual({
      type: "string",
      enum: ["ENGINEER", "MANAGER"],
      description: "ENGINEER: builds things",
    });
  });

  it("leaves a oneOf that is not a list of constants alone", () => {
    const mixed = { oneOf: [{ const: "a" }, { type: "integer" }] };
    expect(enumOfConstants(mixed)).toBe(mixed);
  });
});

describe("output_mode", () => {
  it("is read from the options, never sent, and checked", async () => {
    const fetch = globalThis.fetch;
    const model = createLanguageModel(
      "openai",
      { model: "m", output_mode: "tools", api_key: "k" },
      { fetch },
    );
    expect(model.outputMode).toBe("tools");
    const request = await model.buildRequest([{ role: "user", parts: [{ type: "text", text: "hi" }] }], {
      stream: false,
    });
    expect(request.body.output_mode).toBeUndefined();
    expect(() => createLanguageModel("openai", { model: "m", output_mode: "json" }, { fetch })).toThrow(
      LlmOptionsError,
    );
    expect(() => createLanguageModel("openai", { model: "m", output_mode: "json" }, { fetch })).toThrow(
      /output_mode.*expected one of "prompt", "tools", "native", got "json"/,
    );
  });
});
