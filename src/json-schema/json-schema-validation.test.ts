/**
 * Issue 32's silent-wrong cases, each now an error carrying the validator's issues, the path and the raw
 * answer (or the value the schema allows), and the breadth of real schemas the entry reads.
 */
import { describe, expect, it } from "vitest";
import { fromJsonSchema, outputFormat, parse, SchemaParseError, UnsupportedSchemaError } from "./index.js";

function failure(schema: object, text: string): SchemaParseError {
  try {
    parse(schema, text);
  } catch (error) {
    if (SchemaParseError.isInstance(error)) return error;
    throw error;
  }
  throw new Error(`expected ${text} to fail`);
}

const issues = (error: SchemaParseError) => error.issues.map((issue) => [issue.path, issue.code]);

describe("the seven silent-wrong cases of issue 32", () => {
  it("1. checks format: an impossible date is an error with the path and the raw answer", () => {
    const schema = { type: "object", properties: { d: { type: "string", format: "date" } }, required: ["d"] };
    const error = failure(schema, '{"d":"2022-02-31"}');
    expect(error.code).toBe("validation-failed");
    expect(error.raw).toBe('{"d":"2022-02-31"}');
    expect(error.path).toBe("$.d");
    expect(issues(error)).toEqual([[["d"], "format"]]);
    expect(parse(schema, '{"d":"2022-02-28"}').value).toEqual({ d: "2022-02-28" });
  });

  it("2. checks a union's bounds against every arm, not the first", () => {
    const schema = {
      anyOf: [
        { type: "integer", maximum: 4 },
        { type: "integer", minimum: 5 },
      ],
    };
    expect(parse(schema, "7").value).toBe(7);
    expect(parse(schema, "3").value).toBe(3);
  });

  it("3. never reads an object as its own JSON text under anyOf string | object", () => {
    const schema = {
      anyOf: [
        { type: "string" },
        {
          type: "object",
          properties: {
            a: { type: "string" },
            b: { type: "string" },
            c: { type: "string" },
            d: { type: "string" },
          },
          required: ["a", "b", "c", "d"],
        },
      ],
    };
    const error = failure(schema, '{"a":"x"}');
    expect(error.issues.map((issue) => issue.code)).toContain("required");
    expect(parse(schema, '"plain text"').value).toBe("plain text");
  });

  it("4. applies the keywords beside allOf (and shows them in the prompt)", () => {
    const schema = {
      allOf: [{ type: "object", properties: { a: { type: "string" } }, required: ["a"] }],
      properties: { b: { type: "integer" } },
      required: ["b"],
    };
    expect(outputFormat(schema)).toContain("b: int");
    expect(outputFormat(schema)).toContain("a: string");
    expect(failure(schema, '{"a":"x"}').path).toBe("$.b");
    expect(parse(schema, '{"a":"x","b":2}').value).toEqual({ a: "x", b: 2 });
  });

  it("4b. applies the keywords beside $ref and beside oneOf", () => {
    const schema = {
      $defs: { Base: { type: "object", properties: { a: { type: "string" } }, required: ["a"] } },
      $ref: "#/$defs/Base",
      properties: { b: { type: "integer", minimum: 1 } },
      required: ["b"],
    };
    expect(parse(schema, '{"a":"x","b":2}').value).toEqual({ a: "x", b: 2 });
    expect(issues(failure(schema, '{"a":"x","b":0}'))).toEqual([[["b"], "minimum"]]);
    const either = {
      type: "object",
      properties: { id: { type: "string" }, name: { type: "string" } },
      oneOf: [{ required: ["id"] }, { required: ["name"] }],
    };
    expect(parse(either, '{"id":"7"}').value).toEqual({ id: "7" });
    expect(failure(either, '{"id":"7","name":"x"}').issues.map((issue) => issue.code)).toContain("oneOf");
  });

  it("5. keeps a required property that `properties` does not declare", () => {
    const schema = { properties: { a: { type: "string" } }, required: ["a", "b"] };
    expect(parse(schema, '{"a":"x","b":1}').value).toEqual({ a: "x", b: 1 });
    expect(issues(failure(schema, '{"a":"x"}'))).toEqual([[[], "required"]]);
  });

  it("6. never replaces an invalid value by the default, nor fills a left-out one (an annotation)", () => {
    const schema = {
      type: "object",
      properties: { level: { enum: ["Info", "Debug", "Trace"], default: "Info" } },
    };
    const error = failure(schema, '{"level":"Verbose"}');
    expect(error.path).toBe("$.level");
    expect(error.raw).toBe('{"level":"Verbose"}');
    expect(parse(schema, "{}").value).toEqual({});
    expect(parse(schema, '{"level":"debug"}').value).toEqual({ level: "Debug" });
  });

  it("7. refuses an enum whose values the type rules out, and reads only values of the type", () => {
    expect(() => fromJsonSchema({ type: "object", enum: ["all"] })).toThrow(UnsupportedSchemaError);
    expect(() => fromJsonSchema({ type: "object", enum: ["all"] })).toThrow(
      /an enum with no value of its type \(object\) at \$/,
    );
    const mixed = { type: "string", enum: ["a", 1, "b"] };
    expect(parse(mixed, '"b"').value).toBe("b");
    expect(failure(mixed, "1").message).toMatch(/found the number 1/);
  });

  it("leaves a nullable optional property out when the model left it out, null when it wrote null", () => {
    const schema = { type: "object", properties: { n: { type: ["string", "null"] }, s: { type: "string" } } };
    expect(parse(schema, "{}").value).toEqual({});
    expect(parse(schema, '{"n": null}').value).toEqual({ n: null });
    // A null the model wrote for a property that does not allow it is what the model wrote: an error.
    expect(issues(failure(schema, '{"s": null}'))).toEqual([[["s"], "type"]]);
  });
});

describe("real schemas", () => {
  it("reads draft-04: id, definitions, boolean exclusiveMinimum, refs by id and by anchor", () => {
    const schema = {
      $schema: "http://json-schema.org/draft-04/schema#",
      id: "http://example.com/order.json",
      type: "object",
      properties: {
        total: { type: "number", minimum: 0, exclusiveMinimum: true },
        line: { $ref: "http://example.com/order.json#/definitions/line" },
        tag: { $ref: "#tag" },
      },
      required: ["total", "line", "tag"],
      definitions: {
        line: { type: "object", properties: { sku: { type: "string" } }, required: ["sku"] },
        tag: { id: "#tag", type: "string", maxLength: 3 },
      },
    };
    expect(parse(schema, '{"total": 2, "line": {"sku": "A1"}, "tag": "new"}').value).toEqual({
      total: 2,
      line: { sku: "A1" },
      tag: "new",
    });
    expect(issues(failure(schema, '{"total": 0, "line": {"sku": "A1"}, "tag": "new"}'))).toEqual([
      [["total"], "minimum"],
    ]);
  });

  it("reads {} and free-form objects as any JSON value, patternProperties as a map", () => {
    const schema = {
      type: "object",
      properties: {
        anything: {},
        settings: { type: "object" },
        labels: { patternProperties: { "^[a-z]+$": { type: "integer" } }, additionalProperties: false },
      },
      required: ["anything", "settings", "labels"],
    };
    const value = { anything: [1, "two", { three: null }], settings: { a: { b: [true] } }, labels: { x: 1 } };
    expect(parse(schema, JSON.stringify(value)).value).toEqual(value);
    expect(issues(failure(schema, JSON.stringify({ ...value, labels: { X: 1 } })))).toEqual([
      [["labels"], "additionalProperties"],
    ]);
  });

  it("enforces the keywords with no parse-time meaning: not, if/then, dependentRequired, uniqueItems", () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        kind: { type: "string", not: { const: "none" } },
        card: { type: "string" },
        cvc: { type: "string" },
        tags: { type: "array", items: { type: "string" }, uniqueItems: true },
      },
      if: { properties: { kind: { const: "paid" } } },
      // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword; this object is never awaited.
      then: { required: ["card"] },
      dependentRequired: { card: ["cvc"] },
    };
    expect(parse(schema, '{"kind":"paid","card":"4","cvc":"1"}').value).toEqual({
      kind: "paid",
      card: "4",
      cvc: "1",
    });
    expect(failure(schema, '{"kind":"none"}').issues.map((issue) => issue.code)).toContain("not");
    expect(failure(schema, '{"kind":"paid"}').issues.map((issue) => issue.code)).toContain("required");
    expect(failure(schema, '{"kind":"free","card":"4"}').issues.map((issue) => issue.code)).toContain(
      "dependentRequired",
    );
    expect(failure(schema, '{"kind":"free","tags":["a","a"]}').issues.map((issue) => issue.code)).toContain(
      "uniqueItems",
    );
  });

  it("shows formats and bounds in outputFormat as a comment", () => {
    const schema = {
      type: "object",
      properties: {
        when: { type: "string", format: "date", description: "the day it happened" },
        stars: { type: "integer", minimum: 1, maximum: 5 },
      },
      required: ["when", "stars"],
    };
    const text = outputFormat(schema);
    expect(text).toContain("// the day it happened (format: date)");
    expect(text).toContain("// (≥ 1, ≤ 5)");
  });

  it("says what the parser could not find in the schema user's words", () => {
    const schema = { type: "object", properties: { a: { type: "integer" } }, required: ["a"] };
    const error = failure(schema, "no idea");
    expect(error.message).not.toMatch(/class Output|ctx\.output_format/);
    expect(error.message).toMatch(/outputFormat\(schema\)/);
  });

  it("reads patterns with escapes the u flag refuses, and refuses a pattern that is no expression", () => {
    const quoted = { type: "string", pattern: "^[a-z\\'\\#]+$" };
    expect(parse(quoted, '"it\'s"').value).toBe("it's");
    expect(failure(quoted, '"IT"').issues.map((issue) => issue.code)).toEqual(["pattern"]);
    expect(() => parse({ type: "string", pattern: "(" }, '"x"')).toThrow(
      /the pattern "\(" at \$ is not supported/,
    );
  });

  it("leaves the caller's schema untouched", () => {
    const schema = { type: "object", properties: { a: { type: "string", nullable: true } }, required: ["a"] };
    const before = JSON.stringify(schema);
    expect(parse(schema, '{"a": null}').value).toEqual({ a: null });
    expect(JSON.stringify(schema)).toBe(before);
  });
});
