import { describe, expect, it } from "vitest";
import type { Type } from "../ir/index.js";
import { makeOptional, makeUnion, withAttributes } from "./lower-type.js";

const int: Type = { kind: "primitive", name: "int" };
const text: Type = { kind: "primitive", name: "string" };
const nothing: Type = { kind: "primitive", name: "null" };
const done = { streamDone: true };

describe("makeUnion", () => {
  it("turns null members into an optional union", () => {
    expect(makeUnion([int, nothing, text])).toEqual(makeOptional({ kind: "union", options: [int, text] }));
    expect(makeUnion([int, nothing])).toEqual({ kind: "optional", inner: int });
    expect(makeUnion([nothing, nothing])).toEqual(nothing);
  });

  it("flattens nested unions and optionals, moving their attributes onto the members", () => {
    const nested = withAttributes({ kind: "union", options: [int, text] }, done);
    const optional = withAttributes({ kind: "optional", inner: int }, done);
    expect(makeUnion([nested, nothing])).toEqual({
      kind: "optional",
      inner: { kind: "union", options: [withAttributes(int, done), withAttributes(text, done)] },
    });
    expect(makeUnion([optional, text])).toEqual({
      kind: "optional",
      inner: { kind: "union", options: [withAttributes(int, done), text] },
    });
  });

  it("collapses T?? and null?", () => {
    expect(makeOptional(makeOptional(int))).toEqual({ kind: "optional", inner: int });
    expect(makeOptional(nothing)).toEqual(nothing);
  });

  it("merges constraints when attributes are added twice", () => {
    const first = withAttributes(int, {
      constraints: [{ level: "check", label: "a", expression: "this > 0" }],
    });
    const both = withAttributes(first, {
      constraints: [{ level: "assert", expression: "this < 9" }],
      streamNotNull: true,
    });
    expect(both.attrs).toEqual({
      constraints: [
        { level: "check", label: "a", expression: "this > 0" },
        { level: "assert", expression: "this < 9" },
      ],
      streamNotNull: true,
    });
  });
});
