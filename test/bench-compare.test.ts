/**
 * The side-by-side benchmark's own machinery (bench/corpus, bench/compare): the committed corpus is what
 * the seeded generator makes, the answer writer and the judging helpers do what the report claims. Only the
 * parts free of BAML, Zod, jsonrepair and the AI SDK are imported (those stay inside bench/); timing is
 * never asserted here — `npm run bench` measures.
 */
import { describe, expect, it } from "vitest";
import { deepEqual } from "../bench/compare/deep-equal.js";
import { firstDifference } from "../bench/compare/first-difference.js";
import { formatDuration, formatRatio, markdownTable } from "../bench/compare/markdown-table.js";
import { median } from "../bench/compare/measure-time.js";
import { splitIntoChunks } from "../bench/compare/stream-strategy.js";
import { buildCorpus } from "../bench/corpus/build-corpus.js";
import { committedSizes, loadCorpus } from "../bench/corpus/corpus-files.js";
import { withOverrides } from "../bench/corpus/json-value.js";
import { createSeededRandom } from "../bench/corpus/seeded-random.js";
import { jsonStyle, writeAnswer } from "../bench/corpus/write-answer.js";

describe("bench corpus", () => {
  const committed = loadCorpus().filter((corpusCase) => corpusCase.size !== "200k");

  it("is exactly what the seeded generator builds (regenerate with bench/corpus/generate-corpus.ts)", () => {
    const built = buildCorpus(committedSizes);
    const byId = new Map(built.map((corpusCase) => [corpusCase.id, corpusCase]));
    expect(committed.map((corpusCase) => corpusCase.id).sort()).toEqual([...byId.keys()].sort());
    for (const corpusCase of committed) expect(corpusCase).toEqual(byId.get(corpusCase.id));
  });

  it("cuts truncated answers inside a string, keeping the expected text as written", () => {
    const truncated = committed.filter((corpusCase) => corpusCase.variant === "truncated");
    expect(truncated.length).toBeGreaterThanOrEqual(8);
    for (const corpusCase of truncated) {
      expect(() => JSON.parse(corpusCase.answer)).toThrow();
      expect(corpusCase.answer).toMatch(/"[^"]*[\p{L}\p{N}]$/u);
    }
  });

  it("rebuilds the 200 KB answers near their nominal size", () => {
    const large = buildCorpus(["200k"]);
    expect(large).toHaveLength(12);
    for (const corpusCase of large) expect(corpusCase.answer.length).toBeGreaterThan(100_000);
  });
});

describe("answer writer", () => {
  const value = { name: "Kim's", tags: ["a", "b"], tip: null, paid: true };

  it("writes JSON that parses back to the value", () => {
    expect(JSON.parse(writeAnswer(value, jsonStyle))).toEqual(value);
  });

  it("writes Python literals the way repr() does", () => {
    const python = {
      indent: 0,
      keyQuote: "'",
      stringQuote: "'",
      trailingCommas: false,
      python: true,
    } as const;
    expect(writeAnswer(value, python)).toBe(
      `{'name': "Kim's", 'tags': ['a', 'b'], 'tip': None, 'paid': True}`,
    );
  });

  it("writes object literals with bare keys, trailing commas and comments", () => {
    const text = writeAnswer(
      { a: 1, b: [2] },
      { ...jsonStyle, keyQuote: "", trailingCommas: true, comments: new Map([["b[0]", "two"]]) },
    );
    expect(text).toBe("{\n  a: 1,\n  b: [\n    2,  // two\n  ],\n}");
  });

  it("overrides values by path and refuses a path that does not exist", () => {
    expect(withOverrides({ a: [{ b: 1 }] }, new Map([["a[0].b", "x"]]))).toEqual({ a: [{ b: "x" }] });
    expect(() => withOverrides({ a: [] }, new Map([["a[0].b", 1]]))).toThrow(/no value at a\[0\]\.b/);
  });

  it("draws the same sequence from the same seed", () => {
    const first = createSeededRandom(42);
    const second = createSeededRandom(42);
    expect(Array.from({ length: 5 }, () => first.integer(0, 1000))).toEqual(
      Array.from({ length: 5 }, () => second.integer(0, 1000)),
    );
  });
});

describe("judging and reporting helpers", () => {
  it("compares values strictly but ignores key order", () => {
    expect(deepEqual({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 })).toBe(true);
    expect(deepEqual({ a: null }, {})).toBe(false);
    expect(deepEqual({ a: 8 }, { a: "8" })).toBe(false);
    expect(deepEqual([1, 2], [2, 1])).toBe(false);
  });

  it("names the first difference with its path", () => {
    expect(firstDifference({ a: { b: ["x, y"] } }, { a: { b: ["x", "y"] } })).toBe(
      'a.b[0]: expected "x", got "x, y" (1 items instead of 2)',
    );
    expect(firstDifference({ a: 1 }, { a: 1 })).toBeUndefined();
  });

  it("splits streams into chunks without cutting a surrogate pair", () => {
    const text = `${"a".repeat(15)}😀${"b".repeat(20)}`;
    const chunks = splitIntoChunks(text, 16);
    expect(chunks.join("")).toBe(text);
    expect(chunks[0]?.endsWith("😀")).toBe(true);
  });

  it("formats medians, durations, ratios and tables", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(formatDuration(0.0123)).toBe("12.3 µs");
    expect(formatDuration(2100)).toBe("2.10 s");
    expect(formatRatio(300, 2)).toBe("150×");
    expect(formatRatio(1, 2)).toBe("0.50×");
    expect(markdownTable(["a", "b"], [["x", "1"]])).toBe("| a | b |\n| --- | ---: |\n| x | 1 |");
  });
});
