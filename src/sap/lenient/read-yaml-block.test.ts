import { describe, expect, it } from "vitest";
import { yamlScalar } from "./read-yaml-block.js";

describe("yamlScalar", () => {
  it("reads a flow list by the fixing parser: words, numbers and literals", () => {
    expect(yamlScalar("[1, TRUE, x]")).toMatchObject({
      kind: "array",
      items: [{ kind: "number", value: 1 }, { kind: "bool", value: true }, { value: "x" }],
    });
    expect(yamlScalar("[x, y]")).toMatchObject({ kind: "array", items: [{ value: "x" }, { value: "y" }] });
  });
});
