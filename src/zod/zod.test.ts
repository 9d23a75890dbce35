import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { compileSchema } from "../parse-with-schema.js";
import { renderOutputFormat } from "../prompt/index.js";
import {
  createStreamParser,
  outputFormat,
  type PartialOf,
  parse,
  parseAsync,
  parsePartial,
  SchemaParseError,
  toBamlType,
  UnsupportedSchemaError,
} from "./index.js";

enum Direction {
  Up,
  Down,
}
enum Color {
  Red = "red",
  Green = "green",
}

describe("toBamlType", () => {
  it("maps objects to classes with .describe() as the description, arrays to lists", () => {
    const schema = z
      .object({ name: z.string().describe("full name"), tags: z.array(z.string()) })
      .describe("A person");
    const { ir, type } = toBamlType(schema, { name: "Person" });
    expect(type).toEqual({ kind: "class", name: "Person" });
    expect(ir.classes).toEqual([
      {
        name: "Person",
        description: "A person",
        dynamic: false,
        constraints: [],
        fields: [
          { name: "name", type: { kind: "primitive", name: "string" }, description: "full name" },
          { name: "tags", type: { kind: "list", item: { kind: "primitive", name: "string" } } },
        ],
      },
    ]);
  });

  it("maps z.int() and .int() to int, other numbers to float, nullable and optional to T?", () => {
    const { ir } = toBamlType(
      z.object({
        a: z.int(),
        b: z.number().int(),
        c: z.number(),
        d: z.string().nullable(),
        e: z.boolean().optional(),
      }),
    );
    expect(ir.classes[0]?.fields.map((field) => field.type)).toEqual([
      { kind: "primitive", name: "int" },
      { kind: "primitive", name: "int" },
      { kind: "primitive", name: "float" },
      { kind: "optional", inner: { kind: "primitive", name: "string" } },
      { kind: "optional", inner: { kind: "primitive", name: "bool" } },
    ]);
  });

  it("maps enums and native enums to enums, literals and unions to unions, tuples to lists, records to maps", () => {
    const { ir, type } = toBamlType(
      z.object({
        mood: z.enum(["HAPPY", "SAD"]),
        color: z.enum(Color),
        direction: z.enum(Direction),
        answer: z.union([z.literal("yes"), z.literal(1), z.null()]),
        pair: z.tuple([z.string(), z.int()]),
        scores: z.record(z.string(), z.number()),
      }),
    );
    expect(type).toEqual({ kind: "class", name: "Output" });
    expect(
      ir.enums.map((declaration) => [declaration.name, declaration.values.map((value) => value.name)]),
    ).toEqual([
      ["Mood", ["HAPPY", "SAD"]],
      ["Color", ["red", "green"]],
      ["Direction", ["Up", "Down"]],
    ]);
    const fields = Object.fromEntries(ir.classes[0]?.fields.map((field) => [field.name, field.type]) ?? []);
    expect(fields.answer).toEqual({
      kind: "optional",
      inner: {
        kind: "union",
        options: [
          { kind: "literal", value: "yes" },
          { kind: "literal", value: 1 },
        ],
      },
    });
    expect(fields.pair).toEqual({
      kind: "list",
      item: {
        kind: "union",
        options: [
          { kind: "primitive", name: "string" },
          { kind: "primitive", name: "int" },
        ],
      },
    });
    expect(fields.scores).toEqual({
      kind: "map",
      key: { kind: "primitive", name: "string" },
      value: { kind: "primitive", name: "float" },
    });
  });

  it("follows recursion through objects (getters, z.lazy) and outside them (an alias)", () => {
    interface Node {
      label: string;
      children: Node[];
    }
    const node: z.ZodType<Node> = z.object({
      label: z.string(),
      get children() {
        return z.array(node);
      },
    });
    expect(toBamlType(node, { name: "Node" }).ir.classes[0]?.fields[1]?.type).toEqual({
      kind: "list",
      item: { kind: "class", name: "Node" },
    });
    type JsonValue = string | JsonValue[];
    const json: z.ZodType<JsonValue> = z.lazy(() => z.union([z.string(), z.array(json)]));
    const converted = toBamlType(json, { name: "JsonValue" });
    expect(converted.type).toEqual({ kind: "alias", name: "JsonValue" });
    expect(parse(json, 'the value: ["a", ["b", ["c"]]]').value).toEqual(["a", ["b", ["c"]]]);
  });

  it("names the unsupported feature and its path", () => {
    const schema = z.object({ events: z.array(z.object({ when: z.date() })) });
    expect(() => toBamlType(schema)).toThrow(UnsupportedSchemaError);
    expect(() => toBamlType(schema)).toThrow(
      /z\.date\(\) at \$\.events\[\]\.when is not supported: .*z\.iso\.date\(\)/,
    );
    expect(() => toBamlType(z.object({ a: z.any() }))).toThrow(/z\.any\(\) at \$\.a/);
    expect(() => toBamlType(z.record(z.number(), z.string()))).toThrow(
      /record\(\) key that is not a string at \$/,
    );
  });

  it("refuses a Zod 3 schema with a clear error", () => {
    const zod3Like = { _def: { typeName: "ZodString" }, parse: () => "" };
    expect(() => toBamlType(zod3Like)).toThrow(/a Zod 3 schema at \$ is not supported: .*zod@4/);
  });
});

const Candidate = z.object({
  name: z.string(),
  years: z.int().min(0),
  decision: z.enum(["STRONG_HIRE", "HIRE", "REJECT"]),
  skills: z.array(z.string()).default([]),
  nickname: z.string().optional(),
  direction: z.enum(Direction).optional(),
});

describe("parse", () => {
  it("reads a messy answer into z.infer<typeof schema>, with the parser's flags", () => {
    const answer =
      "Here you go:\n```json\n{name: 'Ann', years: '7.5', decision: 'Strong Hire', direction: 'down',}\n```";
    const result = parse(Candidate, answer);
    expectTypeOf(result.value).toEqualTypeOf<z.infer<typeof Candidate>>();
    // Missing .default([]) → the default; missing .optional() → absent (Zod rejects null there).
    expect(result.value).toEqual({
      name: "Ann",
      years: 8,
      decision: "STRONG_HIRE",
      skills: [],
      direction: 1,
    });
    expect("nickname" in result.value).toBe(false);
    expect(result.flags.map((flag) => flag.kind)).toContain("FloatToInt");
  });

  it("runs refinements; a failure is a SchemaParseError with Zod's issues and the raw answer", () => {
    const schema = z.object({ start: z.int(), end: z.int() }).refine((range) => range.end >= range.start, {
      message: "end before start",
      path: ["end"],
    });
    const answer = '{"start": 5, "end": 2}';
    const error = catchError(() => parse(schema, answer));
    expect(SchemaParseError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: "validation-failed", raw: answer, path: "$.end" });
    expect((error as SchemaParseError).issues).toMatchObject([
      { path: ["end"], message: "end before start" },
    ]);
    expect(parse(schema, '{"start": 1, "end": 2}').value).toEqual({ start: 1, end: 2 });
  });

  it("throws a SchemaParseError carrying the raw answer and the parser's error when no value is there", () => {
    const error = catchError(() => parse(Candidate, "I cannot evaluate this candidate."));
    expect(error).toBeInstanceOf(SchemaParseError);
    expect(error).toMatchObject({ code: "type-mismatch", raw: "I cannot evaluate this candidate." });
    expect((error as Error).cause).toMatchObject({ name: "SapParseError" });
  });

  it("applies transforms (read as their input) and waits for async refinements in parseAsync", async () => {
    const schema = z.object({ when: z.iso.date().transform((text) => new Date(`${text}T00:00:00Z`)) });
    expect(parse(schema, "{when: 2024-03-01}").value.when.toISOString()).toBe("2024-03-01T00:00:00.000Z");
    const slow = z.string().refine(async (text) => text.length > 3, "too short");
    expect((await parseAsync(slow, '"long enough"')).value).toBe("long enough");
    await expect(parseAsync(slow, '"no"')).rejects.toMatchObject({ code: "validation-failed" });
    expect(() => parse(slow, '"long enough"')).toThrow(/async refinements.*parseAsync/);
  });

  it("picks the discriminated union arm and adapts only that arm's missing fields", () => {
    const shape = z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("circle"), radius: z.number() }),
      z.object({ kind: z.literal("box"), width: z.number(), label: z.string().optional() }),
    ]);
    expect(parse(shape, "{kind: box, width: 2}").value).toEqual({ kind: "box", width: 2 });
    expect(parse(shape, '{"kind": "circle", "radius": 1.5}').value).toEqual({ kind: "circle", radius: 1.5 });
  });
});

describe("tuples", () => {
  it("are read as lists; Zod checks positions and length; items adapt by position", () => {
    const pair = z.tuple([z.string(), z.enum(Direction)]);
    expect(parse(pair, "['lift', 'Down']").value).toEqual(["lift", Direction.Down]);
    expect(() => parse(pair, "['lift', 'Down', 'Up']")).toThrow(SchemaParseError);
    expect(() => parse(pair, "['Down', 'lift']")).toThrow(/validation-failed|breaks the schema's own rules/);
  });
});

describe("parsePartial and createStreamParser", () => {
  const answer =
    '```json\n{"name": "Ann Lee", "years": 7, "decision": "HIRE", "skills": ["Go", "Rust"], "direction": "Up"}\n```';

  it("gives typed partials: missing fields null, enums mapped, no validation", () => {
    const partial = parsePartial(Candidate, answer.slice(0, answer.indexOf("decision")));
    expectTypeOf(partial.value).toEqualTypeOf<PartialOf<z.infer<typeof Candidate>>>();
    expect(partial.value).toMatchObject({ name: "Ann Lee", years: 7, decision: null, skills: null });
  });

  it("streams partials chunk by chunk; finish() equals parse()", () => {
    const parser = createStreamParser(Candidate);
    const shown: unknown[] = [];
    for (let offset = 0; offset < answer.length; offset += 7) {
      const push = parser.push(answer.slice(offset, offset + 7));
      if (push.changed) shown.push(push.value);
    }
    expect(shown.length).toBeGreaterThan(3);
    expect(shown.at(-1)).toMatchObject({ direction: 0, skills: ["Go", "Rust"] });
    expect(parser.finish().value).toEqual(parse(Candidate, answer).value);
  });
});

describe("outputFormat", () => {
  it("renders the same text as ctx.output_format for the same schema written in BAML", () => {
    const baml = compileSchema(
      'enum Decision {\n  HIRE\n  REJECT\n}\nclass Review {\n  name string @description("full name")\n  score float?\n  decision Decision\n  notes string[]\n}',
      "Review",
    );
    const schema = z.object({
      name: z.string().describe("full name"),
      score: z.number().nullable(),
      decision: z.enum(["HIRE", "REJECT"]).meta({ id: "Decision" }),
      notes: z.array(z.string()),
    });
    expect(outputFormat(schema)).toBe(renderOutputFormat(baml.ir, baml.type));
    expect(outputFormat(schema, { prefix: null, quoteClassFields: true })).toBe(
      renderOutputFormat(baml.ir, baml.type, { prefix: null, quoteClassFields: true }),
    );
  });
});

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}
