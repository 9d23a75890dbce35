import { describe, expect, it } from "vitest";
import { emptyIr, type Ir, IrIndex, type Type, t } from "../ir/index.js";
import { hasChecks, type WrapMemo, wrapChecked } from "./wrap-checked.js";

const adult: Type = {
  ...t.int(),
  attrs: { constraints: [{ level: "check", label: "adult", expression: "this >= 18" }] },
};
const ir: Ir = {
  ...emptyIr(),
  classes: [
    {
      name: "Person",
      fields: [
        { name: "name", type: t.string() },
        { name: "age", type: adult },
      ],
      dynamic: false,
      constraints: [],
    },
  ],
};
const index = new IrIndex(ir);
// A stand-in for the prompt room's Jinja evaluator that knows the one expression these cases use.
const evaluate = (expression: string, value: unknown): boolean => {
  if (expression !== "this >= 18") throw new Error(`unexpected expression ${expression}`);
  return (value as number) >= 18;
};

describe("wrapChecked", () => {
  it("wraps a value of a class with a labelled @@check wherever it is used, as BAML does", () => {
    const blockIr: Ir = {
      ...emptyIr(),
      classes: [
        {
          name: "Adult",
          fields: [{ name: "age", type: t.int() }],
          dynamic: false,
          constraints: [{ level: "check", label: "adult", expression: "this >= 18" }],
        },
        {
          name: "Pair",
          fields: [{ name: "first", type: t.classRef("Adult") }],
          dynamic: false,
          constraints: [],
        },
      ],
    };
    const blockIndex = new IrIndex(blockIr);
    // The class-level expression sees the whole object; this evaluator reads its age.
    const byAge = (_expression: string, value: unknown) => (value as { age: number }).age >= 18;
    const outcome = (status: string) => ({ adult: { name: "adult", expr: "this >= 18", status } });
    expect(hasChecks(t.classRef("Pair"), blockIndex)).toBe(true);
    expect(wrapChecked({ first: { age: 9 } }, t.classRef("Pair"), blockIndex, byAge)).toEqual({
      first: { value: { age: 9 }, checks: outcome("failed") },
    });
    expect(wrapChecked([{ age: 40 }], t.list(t.classRef("Adult")), blockIndex, byAge)).toEqual([
      { value: { age: 40 }, checks: outcome("succeeded") },
    ]);
  });

  it("wraps checked fields as Checked values inside classes and lists, leaving the rest plain", () => {
    const people = [
      { name: "Ada", age: 36 },
      { name: "Kid", age: 9 },
    ];
    expect(wrapChecked(people, t.list(t.classRef("Person")), index, evaluate)).toEqual([
      {
        name: "Ada",
        age: { value: 36, checks: { adult: { name: "adult", expr: "this >= 18", status: "succeeded" } } },
      },
      {
        name: "Kid",
        age: { value: 9, checks: { adult: { name: "adult", expr: "this >= 18", status: "failed" } } },
      },
    ]);
  });

  it("keeps null (a field not written yet) as null, and reports whether a type needs the walk", () => {
    expect(wrapChecked({ name: "A", age: null }, t.classRef("Person"), index, evaluate)).toEqual({
      name: "A",
      age: null,
    });
    expect(hasChecks(t.map(t.string(), t.classRef("Person")), index)).toBe(true);
    expect(hasChecks(t.list(t.string()), index)).toBe(false);
  });

  it("with a memo, wraps a subtree shared by consecutive partials once and rewraps only what changed", () => {
    const type = t.list(t.classRef("Person"));
    const ada = { name: "Ada", age: 36 };
    const memo: WrapMemo = new WeakMap();
    const first = wrapChecked([ada, { name: "K", age: null }], type, index, evaluate, memo) as unknown[];
    const second = wrapChecked([ada, { name: "Kid", age: 9 }], type, index, evaluate, memo) as unknown[];
    expect(second[0]).toBe(first[0]);
    expect(second[1]).toEqual({
      name: "Kid",
      age: { value: 9, checks: { adult: { name: "adult", expr: "this >= 18", status: "failed" } } },
    });
    expect(first[1]).toEqual({ name: "K", age: null });
  });
});
