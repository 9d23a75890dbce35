import { describe, expect, it } from "vitest";
import { emptyIr, type Ir, t } from "../ir/index.js";
import { parseTypeExpression } from "./parse-type-expression.js";

const ir: Ir = {
  ...emptyIr(),
  classes: [{ name: "Resume", fields: [], dynamic: false, constraints: [] }],
  enums: [{ name: "Decision", values: [], dynamic: false, constraints: [] }],
  aliases: [{ name: "Json", type: t.string() }],
};

describe("parseTypeExpression", () => {
  it.each([
    ["Resume[]", { kind: "list", item: { kind: "class", name: "Resume" } }],
    [
      "map<string, Decision>",
      { kind: "map", key: { kind: "primitive", name: "string" }, value: { kind: "enum", name: "Decision" } },
    ],
    ["Json?", { kind: "optional", inner: { kind: "alias", name: "Json" } }],
    [
      '"a" | "b" | null',
      {
        kind: "optional",
        inner: {
          kind: "union",
          options: [
            { kind: "literal", value: "a" },
            { kind: "literal", value: "b" },
          ],
        },
      },
    ],
    [
      "(int @stream.done)[]",
      { kind: "list", item: { kind: "primitive", name: "int", attrs: { streamDone: true } } },
    ],
    ["image", { kind: "media", name: "image" }],
  ])("%s", (text, expected) => {
    const result = parseTypeExpression(text, ir);
    expect(result.diagnostics).toEqual([]);
    expect(result.type).toEqual(expected);
  });

  it("reports unknown names with a suggestion and returns no type", () => {
    const result = parseTypeExpression("Resum[]", ir);
    expect(result.type).toBeUndefined();
    expect(result.diagnostics.map((item) => [item.code, item.hint, item.file, item.span])).toEqual([
      ["E0101", 'did you mean "Resume"?', "<type>", { start: 0, end: 5 }],
    ]);
  });

  it("reports trailing text", () => {
    const result = parseTypeExpression("int string", ir);
    expect(result.type).toBeUndefined();
    expect(result.diagnostics[0]?.message).toBe('Expected the end of the type, found "string".');
  });
});
