import { describe, expect, it } from "vitest";
import { compile, parseTypeExpression } from "../language/index.js";
import { toJsonSchema } from "./to-json-schema.js";

function schemaOf(baml: string, target: string): unknown {
  const { ir } = compile({ "test.baml": baml });
  if (!ir) throw new Error("fixture does not compile");
  const { type } = parseTypeExpression(target, ir);
  if (!type) throw new Error("bad target");
  return toJsonSchema(ir, type);
}

describe("toJsonSchema", () => {
  it("inlines the target class and puts referenced classes and enums in $defs", () => {
    const schema = schemaOf(
      'enum Level {\n  JUNIOR\n  SENIOR @alias("senior")\n  OLD @skip\n}\nclass Job {\n  title string @description("Job title")\n}\nclass Cv {\n  @@description("A CV")\n  nick string @alias("nickname")\n  level Level\n  jobs Job[]\n  email string?\n  secret string? @skip\n}\n',
      "Cv",
    );
    expect(schema).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      description: "A CV",
      properties: {
        nickname: { type: "string" },
        level: { $ref: "#/$defs/Level" },
        jobs: { type: "array", items: { $ref: "#/$defs/Job" } },
        email: { anyOf: [{ type: "string" }, { type: "null" }] },
      },
      required: ["nickname", "level", "jobs"],
      additionalProperties: false,
      $defs: {
        Level: { type: "string", enum: ["JUNIOR", "senior"] },
        Job: {
          type: "object",
          properties: { title: { type: "string", description: "Job title" } },
          required: ["title"],
          additionalProperties: false,
        },
      },
    });
  });

  it("references recursive classes and aliases through $defs", () => {
    const schema = schemaOf(
      "class Node {\n  value int\n  next Node?\n}\ntype JsonValue = int | string | JsonValue[] | map<string, JsonValue>\n",
      "Node",
    ) as { $ref: string; $defs: Record<string, unknown> };
    expect(schema.$ref).toBe("#/$defs/Node");
    expect(schema.$defs.Node).toMatchObject({
      properties: { next: { anyOf: [{ $ref: "#/$defs/Node" }, { type: "null" }] } },
    });
    const json = schemaOf(
      "type JsonValue = int | string | JsonValue[] | map<string, JsonValue>\n",
      "JsonValue",
    ) as {
      $defs: Record<string, unknown>;
    };
    expect(json.$defs.JsonValue).toEqual({
      anyOf: [
        { type: "integer" },
        { type: "string" },
        { type: "array", items: { $ref: "#/$defs/JsonValue" } },
        { type: "object", additionalProperties: { $ref: "#/$defs/JsonValue" } },
      ],
    });
  });

  it("maps literals, maps with enum keys and described enum values", () => {
    const schema = schemaOf('enum K {\n  A @description("first")\n  B\n}\n', 'map<K, "x" | 1>');
    expect(schema).toMatchObject({
      type: "object",
      propertyNames: { $ref: "#/$defs/K" },
      additionalProperties: { anyOf: [{ const: "x" }, { const: 1 }] },
      $defs: { K: { type: "string", oneOf: [{ const: "A", description: "first" }, { const: "B" }] } },
    });
  });
});
