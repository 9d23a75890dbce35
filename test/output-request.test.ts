/**
 * An output plan decides without the JSON Schema writer whether a native-mode answer is wrapped as
 * `{"value": …}` (the plan loads with every page that parses; the schema only with a call: output-request.ts).
 * The decision must be the schema's own: an answer is unwrapped exactly when the return type's JSON Schema
 * is an object with properties at its root, directly or through its root `$ref`.
 */
import { describe, expect, it } from "vitest";
import { IrIndex } from "../src/ir/index.js";
import { compile } from "../src/language/index.js";
import { type JsonSchema, toJsonSchema } from "../src/output-schema/index.js";
import { createOutputPlan } from "../src/runtime/output-plan.js";
import { outputRequest } from "../src/runtime/output-request.js";

const SOURCE = `
class Leaf {
  name string
}
/// A tree.
class Tree {
  label string
  children Tree[]
}
enum Color {
  RED
  BLUE
}
type LeafAlias = Leaf
type Either = Leaf | Tree
type JsonValue = int | string | JsonValue[] | map<string, JsonValue>
type Rows = map<string, Leaf>
`;

const RETURN_TYPES = [
  "Leaf",
  "Tree",
  "LeafAlias",
  "Leaf?",
  "Leaf | Leaf",
  "Leaf | LeafAlias",
  "Leaf | null",
  "Either",
  "Leaf[]",
  "map<string, Leaf>",
  "Rows",
  "JsonValue",
  "Color",
  "string",
  "int | string",
  '"yes" | "no"',
];

/** The schema's root is an object with properties, itself or the definition its root `$ref` names. */
function objectAtRoot(schema: JsonSchema): boolean {
  const name = typeof schema.$ref === "string" ? schema.$ref.replace("#/$defs/", "") : undefined;
  const root = name === undefined ? schema : ((schema.$defs as Record<string, JsonSchema>)[name] ?? {});
  return root.type === "object" && typeof root.properties === "object";
}

describe("a native-mode plan", () => {
  for (const returnType of RETURN_TYPES) {
    it(`wraps ${returnType} exactly when its JSON Schema has no object at its root`, () => {
      const functions = `function F(x: string) -> ${returnType} {\n  client "openai/gpt-4o"\n  prompt #"{{ x }}"#\n}\n`;
      const { ir: compiled, diagnostics } = compile({ "main.baml": SOURCE + functions });
      expect(diagnostics.filter((diagnostic) => diagnostic.severity === "error")).toEqual([]);
      const ir = compiled!;
      const index = new IrIndex(ir);
      const fn = index.functions.get("F")!;
      const plan = createOutputPlan(ir, index, "F", fn.returnType, "native");
      const unwrapped = objectAtRoot(toJsonSchema(ir, fn.returnType));
      expect(plan.text.wrapped).toBe(!unwrapped);
      const request = outputRequest(plan);
      expect(request?.type).toBe("json-schema");
      const schema = request?.type === "json-schema" ? request.schema : {};
      expect(schema.type).toBe("object");
      // A wrapped answer's schema is the wrapper: one required `value` holding the return type's schema.
      if (plan.text.wrapped) expect(schema.required).toEqual(["value"]);
      else expect(Object.keys(schema.properties as object)).not.toEqual(["value"]);
    });
  }

  it("builds its request once", () => {
    const ir = compile({ "main.baml": SOURCE }).ir!;
    expect(ir.classes.length).toBeGreaterThan(0);
    const index = new IrIndex(ir);
    const plan = createOutputPlan(ir, index, "F", { kind: "class", name: "Tree" }, "tools");
    expect(outputRequest(plan)).toBe(outputRequest(plan));
    expect(outputRequest(createOutputPlan(ir, index, "F", { kind: "class", name: "Tree" }, "prompt"))).toBe(
      undefined,
    );
  });
});
