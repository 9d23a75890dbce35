import { describe, expect, it } from "vitest";
import { emptyIr, type Ir, IrIndex, type Type, t } from "../ir/index.js";
import { renderFinalType } from "./render-final-type.js";
import { renderPartialType } from "./render-partial-type.js";
import { joinMembers, type TypeRenderContext } from "./type-render-context.js";

const ir: Ir = {
  ...emptyIr(),
  classes: [
    { name: "Item", fields: [], dynamic: false, constraints: [] },
    { name: "Receipt", fields: [], dynamic: false, constraints: [], streamDone: true },
    {
      name: "Span",
      fields: [],
      dynamic: false,
      constraints: [
        { level: "check", label: "ordered", expression: "this.start <= this.end" },
        { level: "assert", expression: "this.start >= 0" },
      ],
    },
  ],
  enums: [
    { name: "Color", values: [{ name: "RED" }], dynamic: false, constraints: [] },
    { name: "Tag", values: [{ name: "A" }], dynamic: true, constraints: [] },
  ],
  aliases: [
    { name: "Maybe", type: t.optional(t.string()) },
    { name: "Json", type: t.union(t.string(), t.list(t.aliasRef("Json"))) },
  ],
};

function context(): TypeRenderContext {
  return {
    index: new IrIndex(ir),
    typesPrefix: "types.",
    partialPrefix: "partial_types.",
    inAliasBody: false,
    used: new Set(),
  };
}

const done = (type: Type): Type => t.withAttrs(type, { streamDone: true });
const notNull = (type: Type): Type => t.withAttrs(type, { streamNotNull: true });
const withState = (type: Type): Type => t.withAttrs(type, { streamWithState: true });
const checked = (type: Type, ...labels: string[]): Type =>
  t.withAttrs(type, { constraints: labels.map((label) => ({ level: "check", label, expression: "true" })) });

// [description, field type, partial type of a field, final type]
const cases: [string, Type, string, string][] = [
  ["string grows, may be missing", t.string(), "string | null", "string"],
  ["int is inherently done", t.int(), "number | null", "number"],
  ["enum is inherently done", t.enumRef("Color"), "types.Color | null", "types.Color"],
  ["dynamic enum admits any string", t.enumRef("Tag"), "string | types.Tag | null", "string | types.Tag"],
  ["literal", t.literal("a"), '"a" | null', '"a"'],
  ["list never null, items needed", t.list(t.int()), "number[]", "number[]"],
  ["optional list", t.optional(t.list(t.string())), "string[] | null", "string[] | null"],
  [
    "map never null",
    t.map(t.string(), t.classRef("Item")),
    "Record<string, partial_types.Item>",
    "Record<string, types.Item>",
  ],
  ["class streams", t.classRef("Item"), "partial_types.Item | null", "types.Item"],
  ["@@stream.done class uses final shape", t.classRef("Receipt"), "types.Receipt | null", "types.Receipt"],
  ["@stream.done class", done(t.classRef("Item")), "types.Item | null", "types.Item"],
  ["@stream.done list propagates to items", done(t.list(t.classRef("Item"))), "types.Item[]", "types.Item[]"],
  ["@stream.not_null", notNull(t.string()), "string", "string"],
  ["@stream.not_null class", notNull(t.classRef("Item")), "partial_types.Item", "types.Item"],
  ["@stream.with_state", withState(t.string()), "StreamState<string | null>", "string"],
  ["with_state + not_null", withState(notNull(t.int())), "StreamState<number>", "number"],
  [
    "union arms are needed",
    t.union(t.string(), t.classRef("Item")),
    "string | partial_types.Item | null",
    "string | types.Item",
  ],
  ["optional union", t.optional(t.union(t.int(), t.float())), "number | null", "number | null"],
  ["list of optional", t.list(t.optional(t.int())), "(number | null)[]", "(number | null)[]"],
  ["alias to optional is not doubly null", t.aliasRef("Maybe"), "partial_types.Maybe", "types.Maybe"],
  ["recursive alias", t.aliasRef("Json"), "partial_types.Json | null", "types.Json"],
  [
    "@check wraps, null outside",
    checked(t.int(), "b", "a"),
    'types.Checked<number, "a" | "b"> | null',
    'types.Checked<number, "a" | "b">',
  ],
  [
    "@check on a list",
    checked(t.list(t.string()), "few"),
    'types.Checked<string[], "few">',
    'types.Checked<string[], "few">',
  ],
  [
    "@check on an optional: null stays unwrapped",
    checked(t.optional(t.int()), "a"),
    'types.Checked<number, "a"> | null',
    'types.Checked<number, "a"> | null',
  ],
  [
    "a class's @@check wraps every use of it (asserts do not)",
    t.list(t.classRef("Span")),
    'types.Checked<partial_types.Span, "ordered">[]',
    'types.Checked<types.Span, "ordered">[]',
  ],
  [
    "an optional field of a @@check class: null stays unwrapped",
    t.optional(t.classRef("Span")),
    'types.Checked<partial_types.Span, "ordered"> | null',
    'types.Checked<types.Span, "ordered"> | null',
  ],
  ["media", t.media("image"), "Image | null", "Image"],
];

describe("partial and final types (BAML's streaming converter rules)", () => {
  for (const [description, type, partial, final] of cases) {
    it(description, () => {
      expect(joinMembers(renderPartialType(type, { needed: false, done: false }, context()))).toBe(partial);
      expect(joinMembers(renderFinalType(type, context()))).toBe(final);
    });
  }

  it("maps with enum or literal keys keep only the keys that exist", () => {
    const type = t.map(t.enumRef("Color"), t.int());
    expect(joinMembers(renderFinalType(type, context()))).toBe("Partial<Record<types.Color, number>>");
    expect(joinMembers(renderFinalType(type, { ...context(), inAliasBody: true }))).toBe(
      "{ [key in types.Color]?: number }",
    );
  });

  it("records the outside names a printed type uses, for the import lines", () => {
    const used = context();
    renderPartialType(t.list(withState(t.media("pdf"))), { needed: true, done: false }, used);
    expect([...used.used].sort()).toEqual(["Pdf", "StreamState"]);
  });

  it("rejects a reference the IR does not declare", () => {
    expect(() => renderFinalType(t.classRef("Missing"), context())).toThrow(/class "Missing"/);
  });
});
