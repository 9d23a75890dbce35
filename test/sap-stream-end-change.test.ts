/**
 * What the end of a stream may change in its last partial (decision 0039, docs/sap.md *What a partial may
 * show and the final may change*), by the rule `finish()` applies and the fuzz run counts by
 * (`endChange`):
 * - the rule itself, case by case;
 * - every conformance case streamed (one chunk, one code unit at a time, seeded random splits): where the
 *   final value replaces what the last partial showed, `finish()` says so with `ReadingSwitch`, and only
 *   there; its value and other flags are `parseValue`'s; and only the cases listed below step back at the
 *   end at all (a new one means the stream shows something the end takes back: fix it or list it).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Ir, Type } from "../src/ir/index.js";
import { parseTypeExpression } from "../src/language/index.js";
import { evaluateConstraint } from "../src/prompt/index.js";
import {
  createStreamParser,
  type Flag,
  type ParseResult,
  parseValue,
  partialType,
  SapParseError,
} from "../src/sap/index.js";
import { finalAsPartial } from "../src/sap/stream/check-partial-value.js";
import { endChange } from "../src/sap/stream/end-change.js";
import { irForCase, readCaseFile, type SapCase } from "./sap-fixture-file.js";
import { randomChunks, seededRandom } from "./seeded-random.js";

const folder = join(import.meta.dirname, "fixtures", "sap");
const options = { constraintEvaluator: evaluateConstraint };

describe("endChange: what the end may change in the last partial", () => {
  it("is the same value", () => {
    expect(endChange({ a: [1, "x"] }, { a: [1, "x"] })).toEqual({ kind: "same" });
    expect(endChange([], [])).toEqual({ kind: "same" });
  });

  it("fills what showed nothing, grows and trims text, adds items, advances a state", () => {
    const ways = (shown: unknown, final: unknown) => {
      const change = endChange(shown, final);
      return change.kind === "extends" ? [...change.ways] : change.kind;
    };
    expect(ways({ n: null, s: "" }, { n: 3, s: "" })).toEqual(["filled"]);
    expect(ways(null, { name: "Ann" })).toEqual(["filled"]);
    expect(ways({ name: null, age: null }, "HIRE")).toEqual(["filled"]);
    expect(ways({ body: "hel" }, { body: "hello" })).toEqual(["grown"]);
    expect(ways("4\n\n", "4")).toEqual(["trimmed"]);
    expect(ways([1, 2], [1, 2, 3])).toEqual(["added"]);
    expect(ways({ a: 1 }, { a: 1, b: 2 })).toEqual(["added"]);
    expect(ways({ value: "a", state: "Incomplete" }, { value: "ab", state: "Complete" })).toEqual([
      "advanced",
      "grown",
    ]);
  });

  it("replaces another value, text that does not start with the text shown, an item the final lacks", () => {
    expect(endChange({ count: 1 }, { count: 2 })).toMatchObject({ kind: "replaces", path: "$.count" });
    expect(endChange("```\nthe summary\n```", "the summary")).toMatchObject({ kind: "replaces", path: "$" });
    expect(endChange({ body: "hello}" }, { body: "hello" })).toMatchObject({ kind: "replaces" });
    expect(endChange([1, 2], [1])).toMatchObject({ kind: "replaces", path: "$[1]", final: undefined });
    expect(endChange({ value: "a", state: "Complete" }, { value: "a", state: "Incomplete" })).toMatchObject({
      kind: "replaces",
    });
  });

  it("drops an item shown that final mode flags dropped, lining up the ones after it", () => {
    const dropped: Flag[] = [{ kind: "ItemDropped", path: "$[0]", detail: "" }];
    const shown = [
      { name: "Ann", age: null },
      { name: "Bo", age: 4 },
    ];
    expect(endChange(shown, [{ name: "Bo", age: 4 }], dropped)).toEqual({
      kind: "drops",
      path: "$[0]",
      shown: { name: "Ann", age: null },
      final: undefined,
    });
    // A stream that never showed the dropped item lines up too.
    expect(endChange([{ name: "Bo", age: 4 }], [{ name: "Bo", age: 4 }], dropped)).toEqual({ kind: "same" });
    // An item shown empty that the final drops was not shown.
    expect(endChange([1, null], [1])).toEqual({ kind: "same" });
    // A drop does not hide another value replaced.
    expect(
      endChange(
        [
          { name: "Ann", age: null },
          { name: "Bo", age: 4 },
        ],
        [{ name: "Bo", age: 5 }],
        dropped,
      ),
    ).toMatchObject({ kind: "replaces", path: "$[1].age" });
  });
});

/** Conformance cases whose stream steps back at the end, with why: `finish()` must announce it. */
const STEPS_BACK = new Map<string, string>([
  [
    "constraints.cases: failing assert drops a list item",
    "an item failing its @assert is dropped at the end",
  ],
  ["large.cases: truncated list of 300 tasks drops the cut item", "a cut-off item is dropped"],
  ["lists.cases: list of objects with one bad item", "an item that does not fit is dropped at the end"],
  [
    "real-shapes.cases: a list of objects cut inside the third object keeps the two finished ones",
    "a cut-off item is dropped",
  ],
  ["truncation.cases: cut inside the last list item object", "a cut-off item is dropped"],
  ["truncation.cases: cut inside a nested list item keeps complete siblings", "a cut-off item is dropped"],
  [
    "stream-end.cases: a list cut off inside an item missing a required field: the end drops the item shown",
    "a cut-off item missing a required field is dropped",
  ],
  [
    "stream-end.cases: a closed item missing a required field: shown while the stream goes on, dropped at the end",
    "an item that does not fit is dropped at the end",
  ],
  [
    "stream-end.cases: an answer after a reasoning block cut off: the draft in the reasoning is the final value",
    "the open answer fails its required field and the draft wins",
  ],
  [
    "stream-end.cases: a YAML list item whose flow list is cut off: the end reads the block another way",
    "a YAML block re-read at the end: the items shown are not the final ones",
  ],
  [
    "stream-end.cases: a text answer cut off inside its second code block: the first block's text is the final value",
    "a text answer cut off inside a fence is that fence's text",
  ],
  [
    "no-silent-wrong.cases: two records of label lines for a map: the last values, flagged as a record lost",
    "a number on the last line, a key written again, shows only at the end (the map kept the value before; as in the base)",
  ],
  [
    "no-silent-wrong.cases: two records of label lines for any JSON value: the list of records",
    "the answer's text shows while its last line is written; the end reads the records (as the base read the object)",
  ],
]);

const cases: SapCase[] = [];
for (const name of readdirSync(folder)
  .filter((file) => file.endsWith(".cases"))
  .sort()) {
  for (const entry of readCaseFile(readFileSync(join(folder, name), "utf8"), name).cases) {
    if (entry.partial) continue;
    if (entry.rawFile !== undefined) entry.raw = readFileSync(join(folder, entry.rawFile), "utf8");
    cases.push({ ...entry, name: `${name}: ${entry.name}` });
  }
}

function splits(raw: string): [string, string[]][] {
  const random = (seed: number) => randomChunks(raw, seededRandom(seed));
  const all: [string, string[]][] = [
    ["one chunk", [raw]],
    ["random split 1", random(1)],
    ["random split 2", random(2)],
  ];
  if (raw.length <= 2000) all.push(["per character", raw.split("")]);
  return all;
}

const withoutSwitch = (flags: readonly Flag[]) => flags.filter((flag) => flag.kind !== "ReadingSwitch");

/** Streams `chunks`; returns whether the end stepped back, or a problem. */
function endOf(type: Type, ir: Ir, chunks: string[], final: ParseResult): boolean | string {
  const parser = createStreamParser(type, ir, options);
  let last: unknown = null;
  for (const chunk of chunks) last = parser.push(chunk).value;
  const finished = parser.finish();
  if (JSON.stringify(finished.value) !== JSON.stringify(final.value)) return "finish() is not parseValue";
  // finish() is parseValue flag for flag, but for the announcement.
  if (JSON.stringify(withoutSwitch(finished.flags)) !== JSON.stringify(final.flags))
    return `flags differ: ${JSON.stringify(finished.flags)}`;
  if (last === null)
    return finished.flags.length !== final.flags.length ? "announced with nothing shown" : false;
  const change = endChange(last, finalAsPartial(final.value, partialType(type, ir), ir), final.flags);
  const stepsBack = change.kind === "replaces" || change.kind === "drops";
  const announced = finished.flags.some((flag) => flag.kind === "ReadingSwitch");
  if (stepsBack !== announced)
    return `${stepsBack ? "not announced" : "announced"}: ${JSON.stringify(change).slice(0, 300)}`;
  return stepsBack;
}

describe("the end of a stream adds to its last partial, or announces what it replaced", () => {
  for (const entry of cases) {
    it(entry.name, () => {
      const ir = irForCase(entry, folder);
      const type = parseTypeExpression(entry.type, ir).type!;
      let final: ParseResult;
      try {
        final = parseValue(entry.raw, type, ir, options);
      } catch (error) {
        if (SapParseError.isInstance(error)) return;
        throw error;
      }
      const outcomes = splits(entry.raw).map(
        ([how, chunks]) => [how, endOf(type, ir, chunks, final)] as const,
      );
      const problems = outcomes.filter(([, outcome]) => typeof outcome === "string");
      expect(problems.map(([how, problem]) => `${how}: ${problem}`)).toEqual([]);
      const steppedBack = outcomes.filter(([, outcome]) => outcome === true).map(([how]) => how);
      if (STEPS_BACK.has(entry.name)) expect(steppedBack).toContain("one chunk");
      else expect(steppedBack).toEqual([]);
    });
  }

  it("lists only cases of the table", () => {
    const names = new Set(cases.map((entry) => entry.name));
    expect([...STEPS_BACK.keys()].filter((name) => !names.has(name))).toEqual([]);
  });
});
