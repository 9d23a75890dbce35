import { describe, expect, it } from "vitest";
import { emptyIr, type Ir, IrIndex, t } from "../ir/index.js";
import { compile, parseTypeExpression } from "../language/index.js";
import { explainFlags } from "./explain-flags.js";
import { parseValue } from "./parse-value.js";
import { SapConfigurationError, SapParseError } from "./sap-parse-error.js";

const ir: Ir = {
  ...emptyIr(),
  classes: [
    {
      name: "Person",
      dynamic: false,
      constraints: [],
      fields: [
        { name: "name", type: t.string() },
        { name: "age", type: t.int() },
        { name: "email", type: t.optional(t.string()) },
      ],
    },
    {
      name: "Guarded",
      dynamic: false,
      constraints: [],
      fields: [
        {
          name: "count",
          type: t.withAttrs(t.int(), { constraints: [{ level: "assert", expression: "this > 0" }] }),
        },
      ],
    },
  ],
  enums: [
    { name: "Decision", dynamic: false, constraints: [], values: [{ name: "HIRE" }, { name: "REJECT" }] },
  ],
};

describe("parseValue", () => {
  it("returns the value, the flags with paths, and the score", () => {
    const result = parseValue('```json\n{name: "Ann", age: "7.5"}\n```', t.classRef("Person"), ir);
    expect(result.value).toEqual({ name: "Ann", age: 8, email: null });
    expect(result.flags.map((flag) => `${flag.kind} ${flag.path}`).sort()).toEqual([
      "DefaultFromMissing $.email",
      "FixedJson $",
      "FloatToInt $.age",
      "FromFence $",
      "StringToInt $.age",
    ]);
    expect(result.score).toBe(3);
  });

  it("accepts an IrIndex as well as an Ir", () => {
    expect(parseValue('"HIRE"', t.enumRef("Decision"), new IrIndex(ir)).value).toBe("HIRE");
  });

  it("throws SapParseError with code, path, expected, found and the raw text", () => {
    const raw = '{"name": "Ann"}';
    let caught: unknown;
    try {
      parseValue(raw, t.classRef("Person"), ir);
    } catch (error) {
      caught = error;
    }
    expect(SapParseError.isInstance(caught)).toBe(true);
    const error = caught as SapParseError;
    expect(error).toBeInstanceOf(SapParseError);
    expect({
      code: error.code,
      path: error.path,
      expected: error.expected,
      found: error.found,
      raw: error.raw,
    }).toEqual({
      code: "missing-field",
      path: "$.age",
      expected: "int",
      found: "nothing",
      raw,
    });
    expect(error.message).toContain("at $.age: expected int");
    expect(error.message).toContain('no "age"');
  });

  it("names both enum values when the text names two", () => {
    expect(() => parseValue("hire, or maybe reject", t.enumRef("Decision"), ir)).toThrow(
      /names REJECT and HIRE|names HIRE and REJECT/,
    );
  });

  it("never lets __proto__ keys pollute prototypes", () => {
    const type = t.map(t.string(), t.union(t.int(), t.map(t.string(), t.int())));
    const value = parseValue('{"__proto__": {"polluted": 1}, "a": 2}', type, ir).value as Record<
      string,
      unknown
    >;
    expect(Object.keys(value)).toEqual(["__proto__", "a"]);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
  });

  it("needs a constraint evaluator for types with constraints, whatever the answer", () => {
    expect(() => parseValue('{"count": 1}', t.classRef("Guarded"), ir)).toThrow(SapConfigurationError);
    expect(() => parseValue("nothing useful", t.list(t.classRef("Guarded")), ir)).toThrow(
      expect.objectContaining({
        code: "constraint-evaluator-missing",
        message: expect.stringContaining("Guarded.count"),
      }),
    );
    const evaluator = (expression: string, value: unknown) =>
      expression === "this > 0" && (value as number) > 0;
    expect(
      parseValue('{"count": 1}', t.classRef("Guarded"), ir, { constraintEvaluator: evaluator }).checks,
    ).toEqual([{ path: "$.count", level: "assert", expression: "this > 0", passed: true }]);
    expect(() =>
      parseValue('{"count": 0}', t.classRef("Guarded"), ir, { constraintEvaluator: evaluator }),
    ).toThrow(expect.objectContaining({ code: "assert-failed", path: "$.count" }));
  });

  it("reports a type naming an unknown declaration as a configuration error", () => {
    expect(() => parseValue("{}", t.classRef("Nope"), ir)).toThrow(
      expect.objectContaining({ code: "unknown-type", name: "SapConfigurationError" }),
    );
  });

  it("in prefix mode, leaves unwritten fields pending instead of failing", () => {
    const result = parseValue('{"name": "An', t.classRef("Person"), ir, { partial: true });
    expect(result.value).toEqual({ name: "An", age: null, email: null });
    expect(result.flags.filter((flag) => flag.kind === "Pending").map((flag) => flag.path)).toEqual([
      "$.age",
      "$.email",
    ]);
  });
});

describe("flag spans", () => {
  const person = t.classRef("Person");
  /** Each flag as `Kind path = the text its span covers`. */
  const covered = (raw: string, type = person) =>
    parseValue(raw, type, ir).flags.map(
      (flag) => `${flag.kind} ${flag.path} = ${raw.slice(flag.span!.start, flag.span!.end)}`,
    );

  it("point at the repaired value inside a fence, after prose", () => {
    const raw = 'Here:\n```json\n{name: "Ann", age: "7.5"}\n```';
    expect(covered(raw)).toEqual([
      'StringToInt $.age = "7.5"',
      'FloatToInt $.age = "7.5"',
      'DefaultFromMissing $.email = {name: "Ann", age: "7.5"}',
      'FromFence $ = {name: "Ann", age: "7.5"}',
      'FixedJson $ = {name: "Ann", age: "7.5"}',
    ]);
  });

  it("point into the answer after a reasoning block, and at a quoted answer", () => {
    expect(covered('<think>{"age": 1}</think> {"name": "Bo", "age": 2.5, "email": null}')).toEqual([
      "FloatToInt $.age = 2.5",
      'FromProse $ = {"name": "Bo", "age": 2.5, "email": null}',
    ]);
    expect(covered("  'hire'", t.enumRef("Decision"))).toEqual([
      "EnumCaseFold $ = 'hire'",
      "FixedJson $ = 'hire'",
    ]);
  });

  it("point at an item of a flow list in a YAML block, where the answer wrote it", () => {
    const { ir: yamlIr } = compile({
      "schema.baml":
        "class Row {\n  name string\n  nums int[]\n}\nclass Rows {\n  title string\n  rows Row[]\n}",
    });
    if (!yamlIr) throw new Error("the test schema does not compile");
    const raw = 'title: T\nrows:\n  - name: a\n    nums: [1, "2", 3]';
    const flags = parseValue(raw, t.classRef("Rows"), yamlIr).flags;
    expect(
      flags
        .filter((flag) => flag.path !== "$")
        .map((flag) => `${flag.kind} ${flag.path} = ${raw.slice(flag.span!.start, flag.span!.end)}`),
    ).toEqual(['StringToInt $.rows[0].nums[1] = "2"']);
  });

  it("point at each object gathered into a list", () => {
    const raw = 'First {"name": "A", "age": "1", "email": null} then {"name": "B", "age": 2, "email": null}';
    expect(covered(raw, t.list(person))).toEqual([
      'StringToInt $[0].age = "1"',
      `CombinedCandidates $ = ${raw}`,
      `ChoseCandidate $ = ${raw}`,
    ]);
  });
});

describe("explainFlags", () => {
  it("explains each repair on its own line", () => {
    const result = parseValue('{"name": "Ann", "age": "7.5", "email": null}', t.classRef("Person"), ir);
    expect(explainFlags(result)).toBe(
      [
        "2 repairs (score 2):",
        '  $.age: StringToInt — "7.5" read as a number',
        '  $.age: FloatToInt — "7.5" rounded to 8',
      ].join("\n"),
    );
  });

  it("says where in the answer each repair happened, given the answer", () => {
    const raw = '{"name": "Ann",\n "age": "7.5", "email": null}';
    const result = parseValue(raw, t.classRef("Person"), ir);
    expect(result.flags.map((flag) => raw.slice(flag.span!.start, flag.span!.end))).toEqual([
      '"7.5"',
      '"7.5"',
    ]);
    expect(explainFlags(result, raw)).toBe(
      [
        "2 repairs (score 2):",
        '  $.age: StringToInt — "7.5" read as a number (at 2:9 `"7.5"`)',
        '  $.age: FloatToInt — "7.5" rounded to 8 (at 2:9 `"7.5"`)',
      ].join("\n"),
    );
  });

  it("says so when nothing was repaired", () => {
    expect(explainFlags(parseValue('"HIRE"', t.enumRef("Decision"), ir))).toMatch(/^No repairs/);
  });
});

describe("the depth limit", () => {
  const { ir: jsonIr } = compile({
    "schema.baml":
      "type JsonValue = string | int | float | bool | null | JsonValue[] | map<string, JsonValue>",
  });
  if (!jsonIr) throw new Error("the test schema does not compile");
  const jsonValue = parseTypeExpression("JsonValue", jsonIr).type!;
  const nested = (levels: number, last: string) =>
    `${'{"a": '.repeat(levels)}1${"}".repeat(levels - 1)}${last}`;

  it("is the same for valid JSON, read exactly, and for the same value needing a repair", () => {
    // Shallow: both are the nested object. Deep (more coercion levels than MAX_DEPTH: four per level of
    // this alias), both give up the container and read the answer as text.
    for (const levels of [20, 200]) {
      const valid = parseValue(nested(levels, "}"), jsonValue, jsonIr).value;
      const repaired = parseValue(nested(levels, ""), jsonValue, jsonIr).value;
      expect(typeof valid).toBe(levels === 20 ? "object" : "string");
      expect(typeof repaired).toBe(typeof valid);
    }
  });
});
