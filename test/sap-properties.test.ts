/**
 * Parser invariants, checked with fast-check: any text gives a value or a SapParseError (never another
 * exception, never a hang); pathological nesting does not overflow the stack; adversarial input stays
 * linear; valid JSON round-trips through the fixing parser; chunked parsing equals one-shot parsing.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Ir, Type } from "../src/ir/index.js";
import { compile, parseTypeExpression } from "../src/language/index.js";
import {
  FixingParser,
  fixingParse,
  nodeFromJson,
  parseValue,
  SapParseError,
  type WorkCounter,
} from "../src/sap/index.js";

const schema = readFileSync(join(import.meta.dirname, "fixtures", "sap", "schemas", "common.baml"), "utf8");
const ir = compile({ "common.baml": schema }).ir as Ir;
const typeOf = (text: string): Type => parseTypeExpression(text, ir).type as Type;

const targetNames = [
  "Person",
  "Order",
  "int",
  "float",
  "bool",
  "string",
  "Sentiment",
  "Priority[]",
  "map<string, int>",
  "JsonValue",
  "Cat | Dog",
  "Counts?",
  "TreeNode",
  "Config",
  "string[]",
];
const targets = targetNames.map(typeOf);

/** Text that looks like model output: JSON-ish fragments, prose, fences, quotes and brackets. */
const answerish = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        '"',
        "'",
        "`",
        "```",
        "```json\n",
        "\n",
        " ",
        "\\",
        "\\u00e9",
        "//",
        "/*",
        "*/",
        "None",
        "True",
        "null",
        "1.5",
        "-3",
        "POSITIVE",
        "name",
        "age",
        "“",
        "”",
        "한국어",
        "🚀",
        '"name": "Ann"',
        '"age": "7.5"',
        '"kind": "cat"',
      ),
      fc.string({ maxLength: 6 }),
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(""));

function parseOrError(text: string, type: Type): void {
  try {
    parseValue(text, type, ir);
  } catch (error) {
    if (!SapParseError.isInstance(error)) throw error;
    expect(error.raw).toBe(text);
  }
}

describe("any text", () => {
  it("gives a value or a SapParseError for every target type", () => {
    fc.assert(
      fc.property(answerish, fc.integer({ min: 0, max: targets.length - 1 }), (text, index) => {
        parseOrError(text, targets[index]!);
      }),
      { numRuns: 1500 },
    );
  });

  it("gives a value or a SapParseError for arbitrary unicode", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 200 }),
        fc.integer({ min: 0, max: targets.length - 1 }),
        (text, index) => {
          parseOrError(text, targets[index]!);
        },
      ),
      { numRuns: 800 },
    );
  });

  it("also in prefix mode", () => {
    fc.assert(
      fc.property(answerish, fc.integer({ min: 0, max: targets.length - 1 }), (text, index) => {
        try {
          parseValue(text, targets[index]!, ir, { partial: true });
        } catch (error) {
          if (!SapParseError.isInstance(error)) throw error;
        }
      }),
      { numRuns: 800 },
    );
  });
});

describe("the fixing parser", () => {
  it("reads valid JSON exactly as JSON.parse does", () => {
    fc.assert(
      fc.property(fc.oneof(fc.array(fc.jsonValue()), fc.dictionary(fc.string(), fc.jsonValue())), (value) => {
        const text = JSON.stringify(value);
        const roots = fixingParse(text);
        expect(roots).toHaveLength(1);
        expect(roots[0]!.repairs).toEqual([]);
        // The same tree; only the fixing parser's nodes know where their text is (and what it is).
        const withoutOffsets = (node: unknown) =>
          JSON.parse(
            JSON.stringify(node, (key, inner) =>
              key === "start" || key === "end" || key === "source" ? undefined : inner,
            ),
          );
        expect(withoutOffsets(roots[0]!.node)).toEqual(withoutOffsets(nodeFromJson(JSON.parse(text))));
      }),
      { numRuns: 500 },
    );
  });

  it("builds the same trees from any chunking as from one push", () => {
    fc.assert(
      fc.property(
        answerish,
        fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 40 }),
        (text, sizes) => {
          const parser = new FixingParser();
          let at = 0;
          for (let index = 0; at < text.length; index++) {
            const size = sizes[index % sizes.length]!;
            parser.push(text.slice(at, at + size));
            at += size;
          }
          expect(parser.end()).toEqual(fixingParse(text));
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe("valid JSON", () => {
  const jsonValue = typeOf("JsonValue");
  it("parses to exactly what JSON.parse gives, with no flags, for the recursive JsonValue alias", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        const result = parseValue(text, jsonValue, ir);
        expect(result.value).toEqual(JSON.parse(text));
        expect(result.flags).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it("fenced and surrounded by prose gives the same value, flagged as from a fence", () => {
    fc.assert(
      fc.property(fc.oneof(fc.array(fc.jsonValue()), fc.dictionary(fc.string(), fc.jsonValue())), (value) => {
        const text = JSON.stringify(value, null, 2);
        const result = parseValue(`Here you go:\n\`\`\`json\n${text}\n\`\`\`\nDone.`, jsonValue, ir);
        expect(result.value).toEqual(JSON.parse(text));
        expect(result.flags.map((flag) => flag.kind)).toContain("FromFence");
      }),
      { numRuns: 300 },
    );
  });
});

/** A random but deterministic-per-run way to write JSON badly, the way models do. */
interface Style {
  keyQuote: "double" | "single" | "none";
  stringQuote: "double" | "single";
  trailingCommas: boolean;
  comments: boolean;
  python: boolean;
  newlines: boolean;
  wrap: "bare" | "fence" | "prose" | "fence-and-prose";
}

function writeMessy(value: unknown, style: Style, indent = ""): string {
  const inner = `${indent}  `;
  const breakLine = style.newlines ? `\n${inner}` : " ";
  const close = style.newlines ? `\n${indent}` : "";
  const trailing = style.trailingCommas ? "," : "";
  const comment = style.comments ? " // note" : "";
  if (value === null) return style.python ? "None" : "null";
  if (typeof value === "boolean") return style.python ? (value ? "True" : "False") : String(value);
  if (typeof value === "number") return String(value);
  if (typeof value === "string") {
    if (style.stringQuote === "double") return JSON.stringify(value);
    return `'${value.replaceAll("\\", "\\\\").replaceAll("'", "\\'").replaceAll("\n", "\\n")}'`;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const items = value.map((item) => writeMessy(item, style, inner));
    return `[${breakLine}${items.join(`,${breakLine}`)}${trailing}${close}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).map(([key, item]) => {
    const written =
      style.keyQuote === "none" ? key : style.keyQuote === "single" ? `'${key}'` : JSON.stringify(key);
    return `${written}: ${writeMessy(item, style, inner)}`;
  });
  if (entries.length === 0) return "{}";
  const separator = style.newlines ? `,${comment}${breakLine}` : `, `;
  return `{${breakLine}${entries.join(separator)}${trailing}${close}}`;
}

function wrapAnswer(body: string, wrap: Style["wrap"]): string {
  switch (wrap) {
    case "bare":
      return body;
    case "fence":
      return `\`\`\`json\n${body}\n\`\`\``;
    case "prose":
      return `Sure! After thinking it through, here it is: ${body}\nHope this helps.`;
    case "fence-and-prose":
      return `Let me work through this carefully first.\n\n\`\`\`\n${body}\n\`\`\`\n\nAnything else?`;
  }
}

describe("messy writing of a valid value", () => {
  const order = typeOf("Order");
  const text = fc.string({ maxLength: 12 }).filter((value) => !value.includes("`"));
  const orderValue = fc.record({
    id: text,
    items: fc.array(
      fc.record({
        name: text,
        quantity: fc.integer({ min: -5, max: 1000 }),
        price: fc
          .double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true })
          .map((price) => Math.round(price * 100) / 100),
      }),
      { maxLength: 6 },
    ),
    status: fc.constantFrom("ACTIVE", "INACTIVE", "PENDING_REVIEW", "InProgress"),
    note: fc.option(text, { nil: null }),
  });
  const style = fc.record<Style>({
    keyQuote: fc.constantFrom("double", "single", "none"),
    stringQuote: fc.constantFrom("double", "single"),
    trailingCommas: fc.boolean(),
    comments: fc.boolean(),
    python: fc.boolean(),
    newlines: fc.boolean(),
    wrap: fc.constantFrom("bare", "fence", "prose", "fence-and-prose"),
  });

  it("is read back exactly: every repair is lossless", () => {
    fc.assert(
      fc.property(orderValue, style, (value, writing) => {
        const answer = wrapAnswer(writeMessy(value, writing), writing.wrap);
        expect(parseValue(answer, order, ir).value).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 1500 },
    );
  });
});

describe("pathological nesting", () => {
  const depth = 100_000;
  const cases: [string, string, string][] = [
    ["closed arrays", "[".repeat(depth) + "]".repeat(depth), "JsonValue"],
    ["unclosed arrays", "[".repeat(depth), "int[]"],
    ["closed objects", `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`, "JsonValue"],
    ["unclosed objects", '{"a":'.repeat(depth), "Person"],
    ["arrays for a class", "[".repeat(depth), "Person"],
    ["mixed for a recursive class", '{"value": 1, "children": ['.repeat(depth), "TreeNode"],
  ];
  for (const [name, text, target] of cases) {
    it(`${name} (${depth} deep) never overflows the stack`, () => {
      parseOrError(text, typeOf(target));
      parseOrError(`\`\`\`json\n${text}`, typeOf(target));
    });
  }

  it("is parsed by the fixing parser fed in chunks", () => {
    const parser = new FixingParser();
    const text = '{"a": ['.repeat(depth);
    for (let at = 0; at < text.length; at += 4096) parser.push(text.slice(at, at + 4096));
    const roots = parser.end();
    expect(roots).toHaveLength(1);
    expect(roots[0]!.node.complete).toBe(false);
  });
});

describe("adversarial input stays linear", () => {
  /** The parser's work on a text (steps, not time: the same on any machine, loaded or not). */
  function steps(text: string, type: Type): number {
    const work: WorkCounter = { steps: 0 };
    try {
      parseValue(text, type, ir, { work });
    } catch (error) {
      if (!SapParseError.isInstance(error)) throw error;
    }
    return work.steps;
  }
  const patterns: [string, (count: number) => string][] = [
    ["runs of [", (count) => "[".repeat(count)],
    ["runs of {", (count) => "{".repeat(count)],
    ["runs of quotes in a value", (count) => `{"a": "${'" '.repeat(count)}`],
    ["runs of backslashes", (count) => `{"body": "${"\\".repeat(count)}`],
    ["quotes and backslashes in a list", (count) => `[${'"\\'.repeat(count)}`],
    ["commas", (count) => `{${", ".repeat(count)}`],
    ["unclosed fences", (count) => "```\n{".repeat(count)],
    ["unclosed json fences", (count) => "```json\n{".repeat(count)],
    ["fence lines", (count) => "```\n".repeat(count)],
    ["backticks", (count) => "`".repeat(count)],
    ["fences without line breaks", (count) => "```{".repeat(count)],
    ["words for an enum", (count) => "positive negative ".repeat(count)],
    ["array-object ladders", (count) => "[{".repeat(count)],
    ["unquoted commas", (count) => `{"a": ${"x, ".repeat(count)}`],
    ["unquoted lines", (count) => `{"a": ${"x y\n".repeat(count)}`],
    ["unquoted parentheses", (count) => `{"a": ${"f(x, ".repeat(count)}`],
    ["open inner quotes in a list", (count) => `["a ${'"b", '.repeat(count)}`],
    ["triple quotes", (count) => `{"a": """${'x\n""'.repeat(count)}`],
    ["many small objects", (count) => '{"a": 1} '.repeat(count)],
  ];
  for (const [name, make] of patterns) {
    it(`${name}: work grows with the length, for every target kind`, () => {
      for (const target of targetNames) {
        const type = typeOf(target);
        const small = steps(make(100), type);
        const text = make(800);
        const large = steps(text, type);
        // Eight times the input: linear work is about 8× (fixed costs and where the text happens to end
        // move it a little either way), quadratic 64×.
        expect({ target, ratio: large / small < 12 }).toEqual({ target, ratio: true });
        expect({ target, perCharacter: large / text.length < 12 }).toEqual({ target, perCharacter: true });
      }
    });
  }
});
