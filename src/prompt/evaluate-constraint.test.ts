import { describe, expect, it } from "vitest";
import { TemplateError } from "./errors.js";
import { comparedValue, evaluateConstraint, evaluateTestConstraint } from "./evaluate-constraint.js";

describe("evaluateConstraint", () => {
  it("binds `this` to the value and uses Jinja truthiness", () => {
    expect(evaluateConstraint("this > 5", 8)).toBe(true);
    expect(evaluateConstraint("this > 5", 3)).toBe(false);
    expect(evaluateConstraint("this|length > 0", [])).toBe(false);
    expect(evaluateConstraint("this.name", { name: "" })).toBe(false);
  });
  it("supports BAML's filters in checks", () => {
    expect(evaluateConstraint('this|regex_match("^[^@]+@[^@]+$")', "ada@example.com")).toBe(true);
    expect(evaluateConstraint("this|sum == 6", [1, 2, 3])).toBe(true);
    expect(evaluateConstraint('this in ["A", "B"]', "C")).toBe(false);
  });
  it("throws a TemplateError for a broken expression", () => {
    expect(() => evaluateConstraint("this >", 1)).toThrow(TemplateError);
    expect(() => evaluateConstraint("that > 1", 1)).toThrow(/Variable `that` is not defined/);
  });
});

describe("evaluateTestConstraint", () => {
  it("exposes _.result and _.checks", () => {
    const result = { years: 8 };
    expect(evaluateTestConstraint("this.years > 5", { result })).toBe(true);
    expect(
      evaluateTestConstraint("_.result.years > 5 and _.checks.senior", { result, checks: { senior: true } }),
    ).toBe(true);
    expect(evaluateTestConstraint("_.checks.senior", { result, checks: { senior: false } })).toBe(false);
  });
});

describe("comparedValue", () => {
  it("reads the value a `this == …` comparison names, on either side", () => {
    expect(
      comparedValue('this == {"name": "Ada", "tags": ["a", 2], "boss": none, "ok": true, "x": 1.5}'),
    ).toEqual({
      value: { name: "Ada", tags: ["a", 2], boss: null, ok: true, x: 1.5 },
    });
    expect(comparedValue('"HIRE" == this')).toEqual({ value: "HIRE" });
  });
  it("names no value for another expression, and refuses a value that reads a variable", () => {
    expect(comparedValue("this.years > 5")).toBeUndefined();
    expect(comparedValue('this.name == "Ada"')).toBeUndefined();
    expect(() => comparedValue("this == that")).toThrow(/Variable `that` is not defined/);
  });
});
