import { describe, expect, it } from "vitest";
import { emptyIr, type Ir, IrIndex, type LlmFunction, t } from "../ir/index.js";
import { BamlInvalidArgumentError } from "./errors.js";
import { Image, Pdf } from "./media.js";
import { validateArguments } from "./validate-arguments.js";

const ir: Ir = {
  ...emptyIr(),
  classes: [
    {
      name: "Person",
      fields: [
        { name: "name", type: t.string() },
        { name: "age", type: t.optional(t.int()) },
        { name: "tags", type: t.list(t.string()) },
      ],
      dynamic: false,
      constraints: [],
    },
  ],
  enums: [{ name: "Tier", values: [{ name: "FREE" }, { name: "PRO" }], dynamic: false, constraints: [] }],
  aliases: [{ name: "Json", type: t.union(t.int(), t.string(), t.list(t.aliasRef("Json"))) }],
};
const index = new IrIndex(ir);
const fn: LlmFunction = {
  name: "Describe",
  params: [
    { name: "person", type: t.classRef("Person") },
    { name: "tier", type: t.enumRef("Tier") },
    { name: "photo", type: t.optional(t.media("image")) },
    { name: "scores", type: t.map(t.string(), t.float()) },
    { name: "payload", type: t.aliasRef("Json") },
    { name: "mode", type: t.union(t.literal("fast"), t.literal("slow")) },
  ],
  returnType: t.string(),
  client: "Main",
  prompt: "",
};
const valid = {
  person: { name: "Ada", tags: ["math"], extra: "ignored" },
  tier: "PRO",
  photo: Image.fromUrl("https://example.test/a.png"),
  scores: { math: 9.5 },
  payload: [1, ["two", [3]]],
  mode: "fast",
};

function problem(args: Record<string, unknown>): string {
  try {
    validateArguments(fn, args, index);
    return "valid";
  } catch (error) {
    if (!BamlInvalidArgumentError.isInstance(error)) throw error;
    return `${error.path}: ${error.message}`;
  }
}

describe("validateArguments", () => {
  it("accepts values of every parameter kind, extra object keys and missing optionals", () => {
    expect(problem(valid)).toBe("valid");
    expect(problem({ ...valid, photo: undefined })).toBe("valid");
  });

  it("names the path, the expected type and what was given", () => {
    expect(problem({ ...valid, person: { name: "Ada", tags: ["a", 3] } })).toBe(
      "person.tags[1]: Argument person.tags[1] of Describe: expected a string, got number 3.",
    );
    expect(problem({ ...valid, person: { tags: [] } })).toMatch(
      /^person\.name: .*expected a string, got nothing \(the argument is missing\)/,
    );
    expect(problem({ ...valid, person: { name: "Ada", age: 3.5, tags: [] } })).toMatch(
      /^person\.age: .*an integer/,
    );
    expect(problem({ ...valid, tier: "GOLD" })).toMatch(
      /^tier: .*one of Tier: FREE, PRO, got the string "GOLD"/,
    );
    expect(problem({ ...valid, photo: Pdf.fromUrl("https://example.test/a.pdf") })).toMatch(
      /^photo: .*an image/,
    );
    expect(problem({ ...valid, scores: { math: "high" } })).toMatch(/^scores\["math"\]: .*a number/);
    expect(problem({ ...valid, payload: [true] })).toMatch(/^payload/);
    expect(problem({ ...valid, mode: "medium" })).toMatch(/^mode: .*expected "(fast|slow)"/);
  });

  it("rejects unknown parameter names", () => {
    expect(problem({ ...valid, persona: {} })).toMatch(/Describe has no parameter "persona"/);
  });
});
