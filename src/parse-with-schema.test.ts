import { describe, expect, it } from "vitest";
import { compileSchema, parseWithSchema, SchemaError } from "./parse-with-schema.js";
import { SapParseError } from "./sap/index.js";

const schema = `
enum Mood {
  HAPPY
  SAD
}
class Entry {
  mood Mood
  score int @assert(in_range, {{ this >= 0 and this <= 10 }})
}
`;

describe("parseWithSchema", () => {
  it("parses an answer from a BAML snippet and a type expression", () => {
    const result = parseWithSchema(schema, "Entry[]", '[{mood: "happy", score: "7"}]');
    expect(result.value).toEqual([{ mood: "HAPPY", score: 7 }]);
    expect(result.checks).toEqual([
      {
        path: "$[0].score",
        level: "assert",
        label: "in_range",
        expression: "this >= 0 and this <= 10",
        passed: true,
      },
    ]);
  });

  it("evaluates asserts with the Jinja evaluator", () => {
    expect(() => parseWithSchema(schema, "Entry", '{"mood": "SAD", "score": 12}')).toThrow(
      expect.objectContaining({ code: "assert-failed", path: "$.score" }),
    );
  });

  it("throws SapParseError when the answer does not fit", () => {
    let caught: unknown;
    try {
      parseWithSchema(schema, "Mood", "no idea");
    } catch (error) {
      caught = error;
    }
    expect(SapParseError.isInstance(caught) && caught.raw).toBe("no idea");
  });

  it("throws SchemaError with diagnostics for a broken schema or type", () => {
    expect(() => compileSchema("class {", "Entry")).toThrow(
      expect.objectContaining({ code: "invalid-schema" }),
    );
    let caught: unknown;
    try {
      compileSchema(schema, "Entri[]");
    } catch (error) {
      caught = error;
    }
    expect(SchemaError.isInstance(caught)).toBe(true);
    expect((caught as SchemaError).code).toBe("invalid-type");
    expect((caught as SchemaError).diagnostics.length).toBeGreaterThan(0);
    expect((caught as SchemaError).message).toContain("Entri");
  });
});
