import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyDelta, diffPartial } from "./partial-delta.js";

describe("diffPartial and applyDelta", () => {
  it("sends appended text, new items and completed fields, and nothing for shared subtrees", () => {
    const done = { company: "Acme", years: 3 };
    const before = { name: "Ada Lo", jobs: [done, { company: "Bab", years: null }], skills: [] as string[] };
    const after = {
      name: "Ada Lovelace",
      jobs: [done, { company: "Babbage", years: 2 }, { company: "", years: null }],
      skills: ["math"],
    };
    expect(diffPartial(before, after)).toEqual([
      ["+", ["name"], "velace"],
      ["+", ["jobs", 1, "company"], "bage"],
      ["=", ["jobs", 1, "years"], 2],
      ["+", ["jobs"], [{ company: "", years: null }]],
      ["+", ["skills"], ["math"]],
    ]);
    expect(applyDelta(before, diffPartial(before, after))).toEqual(after);
    expect(diffPartial(after, after)).toEqual([]);
    expect(diffPartial(undefined, after)).toEqual([["=", [], after]]);
  });

  it("replaces what does not grow: a shorter list, a dropped field, a string that changed", () => {
    expect(diffPartial({ a: [1, 2] }, { a: [1] })).toEqual([["=", ["a"], [1]]]);
    expect(diffPartial({ a: 1, b: 2 }, { a: 1 })).toEqual([["=", [], { a: 1 }]]);
    expect(diffPartial({ s: "draft" }, { s: "final" })).toEqual([["=", ["s"], "final"]]);
    expect(diffPartial({ s: null }, { s: { v: 1 } })).toEqual([["=", ["s"], { v: 1 }]]);
  });

  it("never mutates the value it applies to", () => {
    const before = { list: [{ text: "a" }] };
    const frozen = structuredClone(before);
    const after = applyDelta(before, [
      ["+", ["list", 0, "text"], "b"],
      ["+", ["list"], [{ text: "c" }]],
      ["+", ["list", 1, "text"], "d"],
    ]);
    expect(after).toEqual({ list: [{ text: "ab" }, { text: "cd" }] });
    expect(before).toEqual(frozen);
  });

  it("treats keys such as __proto__ as data", () => {
    const after = applyDelta({}, [["=", ["__proto__"], { polluted: true }]]) as Record<string, unknown>;
    expect(Object.hasOwn(after, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses operations that do not fit the value", () => {
    expect(() => applyDelta({ a: 1 }, [["+", ["a"], "x"]])).toThrow(/holds no string/);
    expect(() => applyDelta({ a: [] }, [["=", ["a", 0], 1]])).toThrow(/does not fit/);
    expect(() => applyDelta({ a: "x" }, [["+", ["a"], [1]]])).toThrow(/holds no list/);
    expect(() => applyDelta({}, [["?", [], 1] as never])).toThrow(/Not a delta operation/);
  });

  it("sends an append to the string written last as bare text, with the stream's cursor", () => {
    const partials = [
      { a: "x", b: null },
      { a: "xyz", b: null },
      { a: "xyz!", b: "p" },
      { a: "xyz!", b: "pq" },
    ];
    const writer = {};
    const reader = {};
    let shown: unknown;
    const events = partials.map((partial, index) => {
      const operations = diffPartial(index === 0 ? undefined : partials[index - 1], partial, writer);
      shown = applyDelta(shown, operations, reader);
      expect(shown).toEqual(partial);
      return operations;
    });
    expect(events).toEqual([
      [["=", [], { a: "x", b: null }]],
      [["+", ["a"], "yz"]],
      ["!", ["=", ["b"], "p"]],
      ["q"],
    ]);
    expect(() => applyDelta({ a: "" }, ["x"], {})).toThrow(/before any string/);
  });

  it("rebuilds any JSON value from any other (property)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), fc.jsonValue(), (first, before, after) => {
        // A cursor carried over from an earlier event, as in a stream.
        const writer = {};
        const reader = {};
        const middle = applyDelta(structuredClone(first), diffPartial(first, before, writer), reader);
        const rebuilt = applyDelta(middle, diffPartial(before, after, writer), reader);
        // As JSON (a partial's form on the wire): key order aside, and -0 is 0.
        const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;
        expect(json(rebuilt)).toEqual(json(after));
      }),
    );
  });
});
