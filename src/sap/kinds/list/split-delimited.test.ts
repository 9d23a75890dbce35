import { describe, expect, it } from "vitest";
import { splitDelimited } from "./split-delimited.js";

describe("splitDelimited", () => {
  it.each([
    ["Python, Rust, Go", ["Python", "Rust", "Go"]],
    ["red, green, and blue", ["red", "green", "blue"]],
    ["a; b c", ["a", "b c"]],
    ["- one\n- two", ["one", "two"]],
    ["1. alpha\n2) beta", ["alpha", "beta"]],
    ["[x, y]", ["x", "y"]],
    ["1, 2, 3", ["1", "2", "3"]],
  ])("%j → %j", (text, pieces) => {
    expect(splitDelimited(text)).toEqual(pieces);
  });

  it.each([
    "solo",
    "1,234",
    "$1,299.99",
    "I led the migration, which cut our costs by a third",
    "Shipped an event-sourcing platform, raising test coverage to 22%",
  ])("%j is not a list", (text) => {
    expect(splitDelimited(text)).toBeUndefined();
  });
});
