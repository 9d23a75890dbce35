/**
 * A fence that arrives whole (a consumer that reads after many chunks, a one-shot partial parse) is read
 * as final mode reads it: `JSON.parse`, and when the value is exactly of the type, that value — no node
 * tree, no coercion. The stream must not be able to tell: every conformance case (final and partial
 * tables) and every stream-table case is read twice by the partial reader, once pushed whole and once
 * pushed one character at a time (a fence's content then never arrives whole, so the fixing parser reads
 * it), and the two readings must be the same: value, flags, score, what is still pending, and the region
 * and root they were read from.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Ir, IrIndex } from "../src/ir/index.js";
import { compile, parseTypeExpression } from "../src/language/index.js";
import { evaluateConstraint } from "../src/prompt/index.js";
import { PartialReader, type PartialReading } from "../src/sap/stream/partial-reader.js";
import { describeReading } from "./describe-reading.js";
import { irForCase, readCaseFile, type SapCase } from "./sap-fixture-file.js";

const folder = join(import.meta.dirname, "fixtures", "sap");

const cases: SapCase[] = [];
for (const name of readdirSync(folder)
  .filter((file) => file.endsWith(".cases"))
  .sort()) {
  for (const entry of readCaseFile(readFileSync(join(folder, name), "utf8"), name).cases) {
    if (entry.rawFile !== undefined) entry.raw = readFileSync(join(folder, entry.rawFile), "utf8");
    cases.push({ ...entry, name: `${name}: ${entry.name}` });
  }
}

/** What a reading shows and where it came from, with the flags and checks it carries. */
function describeWithFlags(reader: PartialReader, reading: PartialReading | undefined) {
  const described = describeReading(reader, reading);
  return described && { ...described, flags: reading!.result.flags, checks: reading!.result.checks };
}

function readWhole(entry: Pick<SapCase, "type">, pieces: string[], ir: Ir) {
  const type = parseTypeExpression(entry.type, ir).type!;
  const reader = new PartialReader(type, new IrIndex(ir), {
    constraintEvaluator: evaluateConstraint,
    collectFlags: true,
  });
  for (const piece of pieces) reader.push(piece);
  const reading = reader.read();
  const regions = (reader as unknown as { scanner: { regions: { whole?: unknown }[] } }).scanner.regions;
  return { reading: describeWithFlags(reader, reading), fast: regions.some((region) => region.whole) };
}

describe("a fence read whole reads as the same fence read piece by piece", () => {
  let fast = 0;
  for (const entry of cases) {
    it(entry.name, () => {
      const ir = irForCase(entry, folder);
      const whole = readWhole(entry, [entry.raw], ir);
      const pieces = readWhole(entry, entry.raw.split(""), ir);
      expect(pieces.fast).toBe(false);
      expect(whole.reading).toEqual(pieces.reading);
      if (whole.fast) fast++;
    });
  }

  it("takes the JSON.parse path for some of the cases", () => {
    // The tables hold a few fences of valid JSON exactly of the type; the path must not silently stop.
    expect(fast).toBeGreaterThanOrEqual(4);
  });
});

const schema = compile({
  "schema.baml": `
type JsonValue = string | int | float | bool | null | JsonValue[] | map<string, JsonValue>
enum Level {
  LOW
  HIGH @alias("very high")
  MID @skip
}
class Item {
  name string
  count int
  price float?
  level Level
  kind "a" | "b"
  tags string[]
  extra map<string, int | string>
}
class Dated {
  when string @alias("date")
  items Item[]
}
`,
}).ir!;

/** A JSON text in the spellings models use: numbers as `5.0` or `5e0`, any spacing, escapes. */
const spacing = fc.constantFrom("", " ", "\n  ", "\t");
const word = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom("LOW", "HIGH", "very high", " LOW", "low", "MID", "a", "b", " a", "\\u00e9", "x\\ny"),
);
const numberText = fc.oneof(
  fc.integer({ min: -99, max: 99 }).map(String),
  fc.constantFrom("5.0", "1e2", "-0", "0.50", "12345678901234567890", "2.5", "1E-2"),
);
function jsonText(depth: number): fc.Arbitrary<string> {
  const scalar = fc.oneof(
    word.map((text) => JSON.stringify(text)),
    numberText,
    fc.constantFrom("true", "false", "null"),
  );
  if (depth === 0) return scalar;
  const inner = jsonText(depth - 1);
  return fc.oneof(
    scalar,
    fc
      .array(fc.tuple(spacing, inner), { maxLength: 3 })
      .map((items) => `[${items.map(([space, item]) => space + item).join(",")}]`),
    fc
      .array(
        fc.tuple(
          fc.constantFrom(
            "name",
            "count",
            "price",
            "level",
            "kind",
            "tags",
            "extra",
            "date",
            "when",
            "items",
            "k",
          ),
          spacing,
          inner,
        ),
        { maxLength: 8 },
      )
      .map(
        (entries) =>
          `{${entries.map(([key, space, value]) => `${space}"${key}":${space}${value}`).join(",")}}`,
      ),
  );
}
const item = fc
  .record({
    name: word,
    count: fc.constantFrom("3", "5.0", "-0", "1e2", "2.5", '"4"'),
    price: fc.constantFrom("null", "1.50", "2", "1e400"),
    level: fc.constantFrom("LOW", "very high", "HIGH", " LOW", "MID", "low"),
    kind: fc.constantFrom("a", "b", " a", "A"),
    tags: fc.array(word, { maxLength: 3 }),
    extra: fc.dictionary(
      fc.constantFrom("x", "y", "__proto__"),
      fc.oneof(
        numberText,
        word.map((text) => JSON.stringify(text)),
      ),
      { maxKeys: 2 },
    ),
  })
  .map(
    (fields) =>
      `{"name": ${JSON.stringify(fields.name)}, "count": ${fields.count}, "price": ${fields.price}, ` +
      `"level": "${fields.level}", "kind": "${fields.kind}", "tags": ${JSON.stringify(fields.tags)}, ` +
      `"extra": {${Object.entries(fields.extra)
        .map(([key, value]) => `"${key}": ${value}`)
        .join(", ")}}}`,
  );
const answer = (body: fc.Arbitrary<string>) =>
  fc
    .tuple(fc.constantFrom("", "Here:\n", '{"draft": 1}\n'), body, fc.constantFrom("", "\nDone.", "\n[1]"))
    .map(([before, value, after]) => `${before}\`\`\`json\n${value}\n\`\`\`${after}`);

describe("generated fences read whole read as read piece by piece", () => {
  const targets: [string, fc.Arbitrary<string>][] = [
    ["Item", answer(item)],
    ["Item[]", answer(fc.array(item, { maxLength: 3 }).map((items) => `[${items.join(", ")}]`))],
    [
      "Dated",
      answer(fc.array(item, { maxLength: 2 }).map((items) => `{"date": "d", "items": [${items.join(",")}]}`)),
    ],
    ["JsonValue", answer(jsonText(3))],
    ["map<string, JsonValue>", answer(jsonText(3))],
    ["Level[]", answer(jsonText(2))],
    ["(int | string)[]", answer(jsonText(2))],
  ];
  for (const [typeText, texts] of targets) {
    it(`as ${typeText}`, () => {
      let fast = 0;
      fc.assert(
        fc.property(texts, (text) => {
          const whole = readWhole({ type: typeText }, [text], schema);
          const pieces = readWhole({ type: typeText }, text.split(""), schema);
          expect(whole.reading).toEqual(pieces.reading);
          if (whole.fast) fast++;
        }),
        { numRuns: 300, seed: 20261202 },
      );
      expect(fast).toBeGreaterThan(0);
    });
  }
});
