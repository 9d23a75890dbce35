/**
 * A container that a stream parser meets for the first time when it is already finished (a read that
 * catches up over a stretch of the answer, or the one read of a whole answer) is read by the final-mode
 * coercers, when they read it as the streaming ones would (`FinishedNodeReader`). The stream must not be
 * able to tell. Every conformance case (final and partial tables) and every stream-table case is read by
 * two stream parsers' readers in the same steps (the text in a few pieces, a read after each), one whose
 * streaming coercers read every node and one that reads finished nodes whole. Every read must choose the
 * same reading and give the same value, score, fields still to come, and the same `changed` and
 * `switched`. Generated answers add what the tables have little of: fields missing or written twice,
 * items that do not fit.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Ir, IrIndex } from "../src/ir/index.js";
import { compile, parseTypeExpression } from "../src/language/index.js";
import { evaluateConstraint } from "../src/prompt/index.js";
import { PartialReader, type PartialReading } from "../src/sap/stream/partial-reader.js";
import { samePartial } from "../src/sap/stream/same-partial.js";
import type { StreamCoerceContext } from "../src/sap/stream/stream-coerce-context.js";
import { describeReading } from "./describe-reading.js";
import { irForCase, readCaseFile } from "./sap-fixture-file.js";
import { MARK, readStreamCases } from "./sap-stream-table-file.js";

interface Answer {
  name: string;
  type: string;
  raw: string;
  ir: () => Ir;
}

const answers: Answer[] = [];
const sapFolder = join(import.meta.dirname, "fixtures", "sap");
for (const name of readdirSync(sapFolder)
  .filter((file) => file.endsWith(".cases"))
  .sort()) {
  for (const entry of readCaseFile(readFileSync(join(sapFolder, name), "utf8"), name).cases) {
    if (entry.rawFile !== undefined) entry.raw = readFileSync(join(sapFolder, entry.rawFile), "utf8");
    answers.push({
      name: `${name}: ${entry.name}`,
      type: entry.type,
      raw: entry.raw,
      ir: () => irForCase(entry, sapFolder),
    });
  }
}
const streamFolder = join(import.meta.dirname, "fixtures", "sap-stream");
const streamIrs = new Map<string, Ir>();
for (const name of readdirSync(streamFolder)
  .filter((file) => file.endsWith(".cases"))
  .sort()) {
  for (const entry of readStreamCases(readFileSync(join(streamFolder, name), "utf8"), name).cases) {
    answers.push({
      name: `${name}: ${entry.name}`,
      type: entry.type,
      raw: entry.marked.split(MARK).join(""),
      ir: () => {
        let ir = streamIrs.get(entry.schema);
        if (ir === undefined) {
          const source = readFileSync(join(streamFolder, "schemas", `${entry.schema}.baml`), "utf8");
          ir = compile({ "schema.baml": source }).ir!;
          streamIrs.set(entry.schema, ir);
        }
        return ir;
      },
    });
  }
}

/**
 * What a reading shows and where it came from, as the reader chooses among readings; `changed` as a stream
 * parser reports it (the reader's own flag is only a hint: false means "compare them").
 */
function describeRead(reader: PartialReader, reading: PartialReading | undefined, previous: unknown) {
  const described = describeReading(reader, reading);
  return (
    described && {
      ...described,
      changed: reader.changed || !samePartial(reading!.value, previous),
      switched: reader.switched,
    }
  );
}

/** How many finished nodes the reader read whole. */
function readWhole(reader: PartialReader): number {
  return (reader as unknown as { context: StreamCoerceContext }).context.finished?.taken ?? 0;
}

/** The reads of `pieces`, one after each, by a stream parser's reader, finished nodes read whole or not. */
function readPieces(type: string, ir: Ir, pieces: readonly string[], finishedWhole: boolean) {
  const parsed = parseTypeExpression(type, ir).type!;
  const reader = new PartialReader(parsed, new IrIndex(ir), {
    constraintEvaluator: evaluateConstraint,
    collectFlags: false,
    finishedWhole,
  });
  let previous: unknown;
  const reads = pieces.map((piece) => {
    reader.push(piece);
    const reading = describeRead(reader, reader.read(), previous);
    previous = reading?.value;
    return reading;
  });
  return { reads, taken: readWhole(reader) };
}

/** The answer whole, then in two and in five pieces. */
function schedules(raw: string): string[][] {
  const cut = (parts: number) =>
    Array.from({ length: parts }, (_, index) =>
      raw.slice(Math.floor((raw.length * index) / parts), Math.floor((raw.length * (index + 1)) / parts)),
    ).filter((piece) => piece !== "");
  return [[raw], cut(2), cut(5)];
}

describe("a finished node read by the final-mode coercers reads as the streaming ones read it", () => {
  let taken = 0;
  for (const answer of answers) {
    it(answer.name, () => {
      const ir = answer.ir();
      for (const pieces of schedules(answer.raw)) {
        const streaming = readPieces(answer.type, ir, pieces, false);
        const whole = readPieces(answer.type, ir, pieces, true);
        expect(whole.reads).toEqual(streaming.reads);
        expect(streaming.taken).toBe(0);
        if (whole.taken > 0) taken++;
      }
    });
  }

  it("reads finished nodes whole for many of the cases", () => {
    // The path must not silently stop being taken.
    expect(taken).toBeGreaterThanOrEqual(400);
  });
});

const schema = compile({
  "schema.baml": `
enum Level {
  LOW
  HIGH @alias("very high")
}
class Item {
  name string
  count int
  price float?
  level Level
  kind "a" | "b"
  tags string[]
  extra map<string, int>
}
class Dated {
  when string @alias("date")
  items Item[]
  note string?
}
class Wrapper {
  items Item[]
}
`,
}).ir!;

/** Values as models write them: some fit, some do not, some are missing or written twice. */
const field = (name: string, values: string[]) =>
  fc.option(fc.tuple(fc.constantFrom(name, name.toUpperCase()), fc.constantFrom(...values)), {
    nil: undefined,
    freq: 4,
  });
const item = fc
  .tuple(
    field("name", ['"n"', '"Bo"', "12", "null", "{}"]),
    field("count", ["3", '"4"', "2.5", '"x"', "null", "[1]"]),
    field("price", ["1.5", "null", '"free"', "{}"]),
    field("level", ['"LOW"', '"very high"', '"low"', '"MID"', "1"]),
    field("kind", ['"a"', '"b"', '"A"', '"c"']),
    field("tags", ['["x"]', '"x, y"', '"x"', "[]", "[1, {}]", "null"]),
    field("extra", ['{"x": 1}', '{"x": "y"}', '{"x": 1, "x": 2}', "{}", "[]", "null"]),
    fc.boolean(),
  )
  .map(([...entries]) => {
    const again = entries.pop() as boolean;
    const written = (entries as ([string, string] | undefined)[]).filter((entry) => entry !== undefined);
    // A key written again (the last one wins; a stream announces it).
    if (again && written.length > 0) written.push(written[0]!);
    return `{${written.map(([key, value]) => `"${key}": ${value}`).join(", ")}}`;
  });
const items = fc.array(fc.oneof(item, item, fc.constantFrom("1", '"x"', "[]", "null")), { maxLength: 4 });
const answer = (body: fc.Arbitrary<string>) =>
  fc
    .tuple(
      fc.constantFrom("", "Here:\n```json\n", "{'draft': 1}\n"),
      body,
      fc.constantFrom("", "\n```", "\nDone."),
    )
    .map(([before, value, after]) => `${before}${value}${after}`);
const splits = (text: string) =>
  fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 4 }).map((cuts) => {
    const ends = [...new Set([...cuts, text.length])].sort((left, right) => left - right);
    let start = 0;
    return ends.map((end) => {
      const piece = text.slice(start, end);
      start = end;
      return piece;
    });
  });

describe("generated answers read in pieces read the same either way", () => {
  const targets: [string, fc.Arbitrary<string>][] = [
    ["Item", answer(item)],
    ["Item[]", answer(items.map((list) => `[${list.join(", ")}]`))],
    [
      "Dated",
      answer(
        fc
          .tuple(items, fc.constantFrom("", ', "note": "n"', ', "note": 1', ', "date": "e"', ', "note": {}'))
          .map(([list, rest]) => `{"date": "d", "items": [${list.join(",")}]${rest}}`),
      ),
    ],
    ["Wrapper", answer(items.map((list) => `[${list.join(", ")}]`))],
    ["map<string, Item[]>", answer(items.map((list) => `{"a": [${list.join(", ")}], "a": []}`))],
    // An object for a list: the list under its only key, else the object as one item.
    [
      "map<string, int[]>[]",
      answer(
        fc
          .array(fc.constantFrom("1", '"2"', '"x"', "[3]", "{}"), { maxLength: 3 })
          .chain((list) =>
            fc.constantFrom(`{"k": [${list}]}`, `[{"k": [${list}]}]`, `{"k": [${list}], "j": []}`),
          ),
      ),
    ],
    // An object with none of a single-field class's keys may be its field's value.
    ["Wrapper", answer(items.map((list) => `{"list": [${list.join(", ")}]}`))],
  ];
  for (const [typeText, texts] of targets) {
    it(`as ${typeText}`, () => {
      let taken = 0;
      fc.assert(
        fc.property(
          texts.chain((text) => splits(text)),
          (pieces) => {
            const streaming = readPieces(typeText, schema, pieces, false);
            const whole = readPieces(typeText, schema, pieces, true);
            expect(whole.reads).toEqual(streaming.reads);
            if (whole.taken > 0) taken++;
          },
        ),
        { numRuns: 400, seed: 20261202 },
      );
      expect(taken).toBeGreaterThan(40);
    });
  }
});
