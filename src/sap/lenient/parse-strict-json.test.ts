import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseStrictJson } from "./parse-strict-json.js";

describe("parseStrictJson", () => {
  it("reads every valid JSON text, blanks around it or not, as JSON.parse does", () => {
    const blanks = fc.constantFrom("", " ", "\n", "\t\r\n ", "\uFEFF", "\u00a0");
    fc.assert(
      fc.property(fc.json(), blanks, blanks, (json, before, after) => {
        expect(parseStrictJson(before + json + after)).toEqual({ value: JSON.parse(json) });
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    ["[]", []],
    ["{ }", {}],
    ['  [ \n{ "a" : [ ] } ]', [{ a: [] }]],
    ["[[[-1]]]", [[[-1]]]],
    ['[true, null, false, "x", 0]', [true, null, false, "x", 0]],
  ])("%j is JSON", (text, value) => {
    expect(parseStrictJson(text)).toEqual({ value });
  });

  it.each(["{name: 'x'}", "[{a: 1}]", "[ 'a' ]", "[.5]", "{ , }", "[[{ 'k': 1 }]]", "{"])(
    "%j is not JSON",
    (text) => {
      expect(parseStrictJson(text)).toBeUndefined();
    },
  );
});
