import { describe, expect, it } from "vitest";
import {
  createStreamParser,
  fromJsonSchema,
  jsonSchemaWarnings,
  outputFormat,
  parse,
  parsePartial,
  SchemaParseError,
  UnsupportedSchemaError,
} from "./index.js";

/** The shape OpenAI structured outputs and MCP tool schemas use: $defs, refs, anyOf with null, enums. */
const Invoice = {
  type: "object",
  description: "An invoice",
  properties: {
    number: { type: "string", pattern: "^INV-[0-9]+$" },
    status: { type: "string", enum: ["DRAFT", "SENT", "PAID"], description: "where it stands" },
    kind: { const: "invoice" },
    lines: { type: "array", items: { $ref: "#/$defs/Line" }, minItems: 1 },
    discount: { anyOf: [{ type: "number" }, { type: "null" }] },
    notes: { type: "string", nullable: true },
    currency: { type: "string", default: "EUR" },
    tags: { type: "object", additionalProperties: { type: "string" } },
  },
  required: ["number", "status", "kind", "lines", "discount", "notes", "tags"],
  additionalProperties: false,
  $defs: {
    Line: {
      type: "object",
      properties: { item: { type: "string" }, quantity: { type: "integer", minimum: 1 } },
      required: ["item", "quantity"],
      additionalProperties: false,
    },
  },
};

describe("fromJsonSchema", () => {
  it("maps objects to classes, $defs to named classes, enum to an enum, const to a literal, anyOf null to T?", () => {
    const { ir, type } = fromJsonSchema(Invoice, { name: "Invoice" });
    expect(type).toEqual({ kind: "class", name: "Invoice" });
    const fields = Object.fromEntries(ir.classes[0]?.fields.map((field) => [field.name, field]) ?? []);
    expect(fields.status).toEqual({
      name: "status",
      type: { kind: "enum", name: "Status" },
      description: "where it stands",
    });
    expect(fields.kind?.type).toEqual({ kind: "literal", value: "invoice" });
    expect(fields.lines?.type).toEqual({ kind: "list", item: { kind: "class", name: "Line" } });
    expect(fields.discount?.type).toEqual({ kind: "optional", inner: { kind: "primitive", name: "float" } });
    expect(fields.notes?.type).toEqual({ kind: "optional", inner: { kind: "primitive", name: "string" } });
    // Not required: the model may leave it out.
    expect(fields.currency?.type).toEqual({ kind: "optional", inner: { kind: "primitive", name: "string" } });
    expect(fields.tags?.type).toEqual({
      kind: "map",
      key: { kind: "primitive", name: "string" },
      value: { kind: "primitive", name: "string" },
    });
    expect(ir.enums[0]?.values.map((value) => value.name)).toEqual(["DRAFT", "SENT", "PAID"]);
  });

  it("follows recursive $refs", () => {
    const tree = {
      $ref: "#/$defs/Node",
      $defs: {
        Node: {
          type: "object",
          properties: {
            label: { type: "string" },
            children: { type: "array", items: { $ref: "#/$defs/Node" } },
          },
          required: ["label", "children"],
        },
      },
    };
    expect(fromJsonSchema(tree).type).toEqual({ kind: "class", name: "Node" });
    expect(parse(tree, "{label: root, children: [{label: leaf, children: []}]}").value).toEqual({
      label: "root",
      children: [{ label: "leaf", children: [] }],
    });
  });

  it("ignores keywords outside JSON Schema with a warning, and refuses a remote $ref by name", () => {
    const schema = {
      type: "object",
      "x-kubernetes-preserve-unknown-fields": true,
      properties: { a: { type: "string", javaType: "java.lang.String" } },
      required: ["a"],
    };
    expect(fromJsonSchema(schema).warnings).toEqual([
      '$: "x-kubernetes-preserve-unknown-fields" is not a JSON Schema keyword; ignored.',
      '$.a: "javaType" is not a JSON Schema keyword; ignored.',
    ]);
    expect(jsonSchemaWarnings(schema)).toHaveLength(2);
    expect(parse(schema, '{"a": "x"}').value).toEqual({ a: "x" });
    expect(() => fromJsonSchema({ $ref: "https://example.com/x.json" })).toThrow(UnsupportedSchemaError);
    expect(() => fromJsonSchema({ $ref: "https://example.com/x.json" })).toThrow(
      /the remote \$ref "https:\/\/example.com\/x.json" at \$ is not supported: Sapling never fetches schemas/,
    );
    expect(() => fromJsonSchema({ $ref: "#/$defs/Missing" })).toThrow(/nothing is at "\$defs"/);
  });

  it("converts a sub-schema reached by many paths once (one warning, not one per path)", () => {
    // Each `anyOf` arm with keywords beside it is merged into a new schema, but the property schemas
    // inside the definition it names are the same objects: converting them again per path made large
    // schemas (JSON Schema Store's service-schema.json) take minutes.
    const Shared = { type: "object", properties: { p: { type: "string", "x-note": 1 } } };
    const viaArm = { type: "object", anyOf: [{ $ref: "#/$defs/Shared" }] };
    const schema = {
      type: "object",
      properties: { a: viaArm, b: { ...viaArm }, c: { ...viaArm }, d: { ...viaArm } },
      $defs: { Shared },
    };
    expect(fromJsonSchema(schema).warnings).toEqual([
      '$.a.anyOf[0].p: "x-note" is not a JSON Schema keyword; ignored.',
    ]);
  });
});

describe("parse", () => {
  const answer =
    "Here it is:\n```json\n{number: 'INV-7', status: 'sent', kind: 'invoice', lines: [{item: 'Tea', quantity: '2'}], discount: null, notes: None, tags: {}}\n```";

  it("reads a messy answer; a missing property stays out (its default is an annotation)", () => {
    expect(parse(Invoice, answer).value).toEqual({
      number: "INV-7",
      status: "SENT",
      kind: "invoice",
      lines: [{ item: "Tea", quantity: 2 }],
      discount: null,
      notes: null,
      tags: {},
    });
  });

  it("checks bounds after parsing: a broken one is a validation-failed SchemaParseError with the raw answer", () => {
    const broken = answer.replace("INV-7", "7").replace("'2'", "0");
    let caught: unknown;
    try {
      parse(Invoice, broken);
    } catch (error) {
      caught = error;
    }
    expect(SchemaParseError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({ code: "validation-failed", raw: broken, path: "$.number" });
    expect((caught as SchemaParseError).issues.map((issue) => [issue.path, issue.code])).toEqual([
      [["number"], "pattern"],
      [["lines", 0, "quantity"], "minimum"],
    ]);
  });

  it("adapts and checks a union value by the arm it fits", () => {
    const shape = {
      anyOf: [
        {
          type: "object",
          properties: { radius: { type: "number", minimum: 0 }, label: { type: "string" } },
          required: ["radius"],
        },
        {
          type: "object",
          properties: { width: { type: "number" }, unit: { type: "string", default: "cm" } },
          required: ["width"],
        },
      ],
    };
    const nickname = { anyOf: [{ type: "string", minLength: 2 }, { type: "null" }] };
    expect(parse(shape, "{radius: 2}").value).toEqual({ radius: 2 });
    // The second arm's optional `unit`, left out, stays out (null would break its `type: string`).
    expect(parse(shape, "{width: 3}").value).toEqual({ width: 3 });
    expect(() => parse(shape, "{radius: -1}")).toThrow(/\$\.radius: -1 is less than 0/);
    expect(parse(nickname, "null").value).toBeNull();
    expect(() => parse(nickname, '"x"')).toThrow(/String is too short \(1 < 2\)/);
  });

  it("streams partials and renders the compact schema", () => {
    const parser = createStreamParser(Invoice);
    for (const chunk of answer.match(/[\s\S]{1,10}/g) ?? []) parser.push(chunk);
    expect(parser.finish().value).toEqual(parse(Invoice, answer).value);
    expect(parsePartial(Invoice, answer.slice(0, answer.indexOf("discount"))).value).toMatchObject({
      number: "INV-7",
      status: "SENT",
      lines: [{ item: "Tea", quantity: 2 }],
      discount: null,
    });
    expect(outputFormat(Invoice)).toContain("// where it stands\n  status: 'DRAFT' or 'SENT' or 'PAID',");
  });

  it("reads a partial only when asked, the one a push after every chunk shows", () => {
    const prefix = answer.slice(0, answer.indexOf("discount"));
    const pushed = createStreamParser(Invoice);
    const appended = createStreamParser(Invoice);
    let shown: unknown;
    for (const chunk of prefix.match(/[\s\S]{1,10}/g) ?? []) {
      shown = pushed.push(chunk).value;
      appended.append(chunk);
    }
    const read = appended.read();
    expect(read).toEqual({ changed: true, value: shown });
    expect(appended.read()).toEqual({ changed: false, value: read.value });
  });
});

describe("the JSON the model wrote, when the schema accepts it", () => {
  const open = {
    type: "object",
    properties: {
      name: { type: "string" },
      data: { type: "object", properties: { a: { type: "integer" } } },
    },
    required: ["name"],
  };

  it("keeps keys the schema does not declare but allows, in every rendering and in a stream", () => {
    const written = { name: "Bo", extra: { deep: [1, "two"] }, "data ": { a: 1 } };
    const renderings = [
      JSON.stringify(written),
      `Sure:\n\`\`\`json\n${JSON.stringify(written, null, 2)}\n\`\`\`\nDone.`,
      `{'name': 'Bo', 'extra': {'deep': [1, 'two'],}, 'data ': {'a': 1},}`,
    ];
    for (const text of renderings) {
      const result = parse(open, text);
      expect(result.value).toEqual(written);
      // Only where it was read from and the syntax repairs remain: the value is as written.
      expect(result.flags.map((flag) => flag.kind)).not.toContain("ExtraKey");
      expect(result.flags.map((flag) => flag.kind)).not.toContain("KeyCaseFold");
      const stream = createStreamParser(open);
      for (const chunk of text.match(/.{1,7}/gs) ?? []) stream.push(chunk);
      expect(stream.finish().value).toEqual(written);
    }
  });

  it("reads toward the type when the written JSON breaks the schema", () => {
    const closed = { ...open, additionalProperties: false };
    const result = parse(closed, '{"name": "Bo", "extra": 1}');
    expect(result.value).toEqual({ name: "Bo" });
    expect(result.flags.map((flag) => flag.kind)).toContain("ExtraKey");
    // `"Name"` is no key of the schema: as written, `name` is missing; the case-folded reading is valid.
    expect(parse(open, '{"Name": "Bo"}').value).toEqual({ name: "Bo" });
    // A number for a string: as written it breaks the schema; read as text it fits.
    expect(parse(open, '{"name": 7, "x": 1}').value).toEqual({ name: "7" });
  });

  it("never takes a cut-off answer as written", () => {
    const result = parse(open, '{"name": "Bo", "extra": {"deep": [1, 2');
    // The extra key's value was never closed: the reading is not one complete object as written.
    expect(result.value).toEqual({ name: "Bo" });
    expect(result.flags.map((flag) => flag.kind)).toContain("ExtraKey");
  });
});

describe("outputFormat of schemas that reuse definitions", () => {
  it("writes a class used in more than one place once, by name", () => {
    const Address = { type: "object", properties: { street: { type: "string" } }, required: ["street"] };
    const schema = {
      type: "object",
      properties: { billing: { $ref: "#/$defs/Address" }, shipping: { $ref: "#/$defs/Address" } },
      required: ["billing", "shipping"],
      $defs: { Address },
    };
    expect(outputFormat(schema)).toBe(
      "Address {\n  street: string,\n}\n\nAnswer in JSON using this schema:\n{\n  billing: Address,\n  shipping: Address,\n}",
    );
    // The caller's own choice still wins.
    expect(outputFormat(schema, { hoistClasses: false })).toContain("billing: {");
  });

  it("grows with the definitions, not with the paths through them", () => {
    // Level i has two properties that both use level i + 1: 2^12 paths to the last level.
    const $defs: Record<string, unknown> = {
      L12: { type: "object", properties: { leaf: { type: "string" } } },
    };
    for (let level = 11; level >= 0; level--)
      $defs[`L${level}`] = {
        type: "object",
        properties: { left: { $ref: `#/$defs/L${level + 1}` }, right: { $ref: `#/$defs/L${level + 1}` } },
      };
    const text = outputFormat({ $ref: "#/$defs/L0", $defs });
    expect(text.split("\n").length).toBeLessThan(100);
  });
});

describe("deep and self-referring schemas", () => {
  it("reads a schema that refers to itself through an anyOf arm with keywords beside it", () => {
    // As JSON Schema Store's resjson.json: the arm's $ref is merged with `minProperties`, so the cycle has
    // no reference of its own; it used to overflow the call stack.
    const entry = { minProperties: 1, anyOf: [{ type: "string" }, { $ref: "#/definitions/resource" }] };
    const schema = {
      type: "object",
      additionalProperties: entry,
      definitions: { resource: { type: "object", additionalProperties: entry } },
    };
    const text = '{"title": "Hi", "menu": {"open": "Open", "sub": {"close": "Close"}}}';
    expect(parse(schema, text).value).toEqual(JSON.parse(text));
    expect(() => parse(schema, '{"menu": {}}')).toThrow(/minProperties|fewer than 1/i);
  });

  it("refuses a schema nested deeper than it can walk, with a clear error", () => {
    let schema: Record<string, unknown> = { type: "string" };
    for (let level = 0; level < 5000; level++) schema = { type: "object", properties: { a: schema } };
    expect(() => fromJsonSchema(schema)).toThrow(UnsupportedSchemaError);
    expect(() => fromJsonSchema(schema)).toThrow(/a schema nested more than 400 levels deep/);
  });
});
