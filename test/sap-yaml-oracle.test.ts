/**
 * The YAML subset of the sections reading (`src/sap/lenient/read-yaml-block.ts`, docs/sap.md "Formats")
 * checked against a well-kept YAML parser, the `yaml` package (a devDependency: the runtime never loads
 * it). fast-check writes documents of that subset — a top-level mapping keyed by declared names, nested
 * mappings by indentation, `- ` sequences (indented, or at their key's indentation), block scalars (`|`,
 * `>`, with chomping indicators), flow lists and maps, double- and single-quoted and plain scalars — in
 * random indentation, and each must read as `yaml.parse` reads it:
 * - the sections reading's object equals `yaml.parse`'s value;
 * - `parseValue` for a class of `JsonValue?` fields gives that value too (coerced: a missing key is null),
 *   and so does a stream fed the document in random chunks (its last partial and its final value).
 * Every document is checked to be valid YAML first (`yaml.parse` is the oracle, not a reference we
 * reproduce). Plain scalars avoid what the sections reading reads apart from YAML on purpose (docs/sap.md:
 * ` #` stays in a plain value; `none` is null as in Python).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import type { Ir, Type } from "../src/ir/index.js";
import { IrIndex } from "../src/ir/index.js";
import { compile, parseTypeExpression } from "../src/language/index.js";
import { createStreamParser, nodeToJsonText, parseValue } from "../src/sap/index.js";
import { readSections } from "../src/sap/lenient/read-sections.js";
import { sectionNamesOf } from "../src/sap/lenient/section-names.js";

const TOP_KEYS = ["alpha", "beta", "gamma", "delta"] as const;
const schema = `
type JsonValue = int | float | string | bool | null | JsonValue[] | map<string, JsonValue>
class Doc {
${TOP_KEYS.map((key) => `  ${key} JsonValue?`).join("\n")}
}
`;
const compiled = compile({ "doc.baml": schema });
const ir = compiled.ir as Ir;
const docType = parseTypeExpression("Doc", ir).type as Type;
const index = new IrIndex(ir);

/** A YAML value of the subset, with how it is written where that is a choice. */
type Value =
  | { kind: "plain"; text: string; value: unknown }
  | { kind: "double"; value: string }
  | { kind: "single"; value: string }
  | { kind: "block"; lines: string[]; folded: boolean; chomping: "" | "-" | "+"; trailing: number }
  | { kind: "flowList"; items: Value[] }
  | { kind: "flowMap"; entries: [string, Value][] }
  | { kind: "map"; entries: [string, Value][] }
  | { kind: "list"; items: Value[]; compact: boolean };

/** Words YAML's core schema (or the sections reading, on purpose) reads as something other than text. */
const RESERVED = new Set(["true", "false", "null", "none", "nan", "inf"]);
const word = fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/).filter((text) => !RESERVED.has(text));
const key = fc.stringMatching(/^[a-z][a-z_]{0,7}$/).filter((text) => !RESERVED.has(text));
const sentence = fc.array(word, { minLength: 1, maxLength: 4 }).map((words) => words.join(" "));

const plain: fc.Arbitrary<Value> = fc.oneof(
  sentence.map((text) => ({ kind: "plain" as const, text, value: text })),
  fc.integer({ min: -5000, max: 99999 }).map((n) => ({ kind: "plain" as const, text: String(n), value: n })),
  fc
    .integer({ min: -4000, max: 4000 })
    .filter((n) => n % 4 !== 0)
    .map((n) => ({ kind: "plain" as const, text: String(n / 4), value: n / 4 })),
  fc.boolean().map((b) => ({ kind: "plain" as const, text: String(b), value: b })),
  fc.constantFrom("null", "~").map((text) => ({ kind: "plain" as const, text, value: null })),
);
const quotedText = fc.stringMatching(/^[a-zA-Z0-9 :#,'"\\[\]{}-]{0,16}$/);
const quoted: fc.Arbitrary<Value> = fc.oneof(
  quotedText.map((value) => ({ kind: "double" as const, value })),
  quotedText.map((value) => ({ kind: "single" as const, value })),
);
const scalar = fc.oneof({ arbitrary: plain, weight: 3 }, { arbitrary: quoted, weight: 1 });
const block: fc.Arbitrary<Value> = fc.record({
  kind: fc.constant("block" as const),
  lines: fc.array(fc.oneof({ arbitrary: sentence, weight: 4 }, { arbitrary: fc.constant(""), weight: 1 }), {
    minLength: 1,
    maxLength: 4,
  }),
  folded: fc.boolean(),
  chomping: fc.constantFrom("" as const, "-" as const, "+" as const),
  trailing: fc.integer({ min: 0, max: 2 }),
});
const flowItem = fc.oneof(
  sentence.map((text) => ({ kind: "plain" as const, text, value: text })),
  fc.integer({ min: 0, max: 999 }).map((n) => ({ kind: "plain" as const, text: String(n), value: n })),
  fc.boolean().map((b) => ({ kind: "plain" as const, text: String(b), value: b })),
  quotedText.map((value) => ({ kind: "double" as const, value })),
);
const flowList: fc.Arbitrary<Value> = fc
  .array(flowItem, { maxLength: 4 })
  .map((items) => ({ kind: "flowList" as const, items }));
const flowMap: fc.Arbitrary<Value> = entriesOf(flowItem, 3).map((entries) => ({
  kind: "flowMap" as const,
  entries,
}));

function entriesOf(value: fc.Arbitrary<Value>, most: number): fc.Arbitrary<[string, Value][]> {
  return fc.uniqueArray(fc.tuple(key, value), { minLength: 1, maxLength: most, selector: ([name]) => name });
}

/** A value under a key: scalars, blocks, flow collections, and nested block collections (depth-limited). */
const { value: nested } = fc.letrec<{ value: Value; map: Value; list: Value }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { arbitrary: scalar, weight: 4 },
    { arbitrary: block, weight: 1 },
    { arbitrary: flowList, weight: 1 },
    { arbitrary: flowMap, weight: 1 },
    { arbitrary: tie("map"), weight: 1 },
    { arbitrary: tie("list"), weight: 1 },
  ),
  map: entriesOf(tie("value"), 3).map((entries) => ({ kind: "map" as const, entries })),
  list: fc
    .record({
      items: fc.array(fc.oneof({ arbitrary: scalar, weight: 3 }, { arbitrary: tie("map"), weight: 1 }), {
        minLength: 1,
        maxLength: 3,
      }),
      compact: fc.boolean(),
    })
    .map(({ items, compact }) => ({ kind: "list" as const, items, compact })),
}));

const documents = fc
  .record({
    keys: fc.subarray([...TOP_KEYS], { minLength: 1 }),
    values: fc.array(nested, { minLength: 4, maxLength: 4 }),
    width: fc.constantFrom(2, 3, 4),
  })
  .map(({ keys, values, width }) =>
    keys.map((name, at) => writeEntry(name, values[at]!, 0, width).join("\n")).join("\n"),
  );

/** `name: value` at `indent`, as lines. */
function writeEntry(name: string, value: Value, indent: number, width: number): string[] {
  const pad = " ".repeat(indent);
  switch (value.kind) {
    case "block": {
      const header = `${pad}${name}: ${value.folded ? ">" : "|"}${value.chomping}`;
      const inner = " ".repeat(indent + width);
      // (A block's first line is not blank: its indentation decides the block's.)
      const lines = value.lines[0] === "" ? ["text", ...value.lines] : value.lines;
      return [
        header,
        ...lines.map((line) => (line === "" ? "" : inner + line)),
        ...Array(value.trailing).fill(""),
      ];
    }
    case "map":
      return [
        `${pad}${name}:`,
        ...value.entries.flatMap(([k, v]) => writeEntry(k, v, indent + width, width)),
      ];
    case "list": {
      const at = value.compact ? indent : indent + width;
      return [`${pad}${name}:`, ...value.items.flatMap((item) => writeItem(item, at, width))];
    }
    default:
      return [`${pad}${name}: ${writeInline(value)}`];
  }
}

function writeItem(value: Value, indent: number, width: number): string[] {
  const pad = " ".repeat(indent);
  if (value.kind !== "map") return [`${pad}- ${writeInline(value)}`];
  // `- k: v` then the mapping's other keys under the first one.
  const [first, ...rest] = value.entries.flatMap(([k, v]) => writeEntry(k, v, indent + 2, width));
  return [`${pad}- ${first!.slice(indent + 2)}`, ...rest];
}

function writeInline(value: Value): string {
  switch (value.kind) {
    case "plain":
      return value.text;
    case "double":
      return JSON.stringify(value.value);
    case "single":
      return `'${value.value.replace(/'/g, "''")}'`;
    case "flowList":
      return `[${value.items.map(writeInline).join(", ")}]`;
    case "flowMap":
      return `{${value.entries.map(([k, v]) => `${k}: ${writeInline(v)}`).join(", ")}}`;
    default:
      throw new Error(`${value.kind} is not written inline`);
  }
}

/** `yaml.parse`'s value as the `Doc` class holds it: every declared key, null when absent. */
function asDoc(parsed: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(TOP_KEYS.map((name) => [name, parsed[name] ?? null]));
}

describe("the YAML subset of the sections reading, against the yaml package", () => {
  it("compiles its schema", () => {
    expect(compiled.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it("reads every generated document as yaml.parse does", () => {
    const names = sectionNamesOf(docType, index)!;
    fc.assert(
      fc.property(documents, (text) => {
        const expected = parseYaml(text) as Record<string, unknown>;
        const node = readSections(text, names);
        expect(node, text).toBeDefined();
        // (Numbers are printed as written; the generator writes them as JSON does.)
        expect(JSON.parse(nodeToJsonText(node!)), text).toEqual(expected);
      }),
      { numRuns: 800 },
    );
  });

  it("parses and streams every generated document to yaml.parse's value", () => {
    fc.assert(
      fc.property(documents, fc.integer({ min: 1, max: 1_000_000 }), (text, seed) => {
        const expected = asDoc(parseYaml(text) as Record<string, unknown>);
        expect(parseValue(text, docType, ir).value, text).toEqual(expected);
        const stream = createStreamParser(docType, ir);
        let state = seed;
        for (let at = 0; at < text.length; ) {
          state = (state * 1103515245 + 12345) % 2147483648;
          const size = 1 + (state % 17);
          stream.push(text.slice(at, at + size));
          at += size;
        }
        expect(stream.finish().value, text).toEqual(expected);
      }),
      { numRuns: 250 },
    );
  });
});
