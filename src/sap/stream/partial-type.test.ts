import { describe, expect, it } from "vitest";
import { compile, parseTypeExpression } from "../../language/index.js";
import { checkPartialValue } from "./check-partial-value.js";
import { partialClassFields, partialType, partialTypeToString } from "./partial-type.js";

const { ir } = compile({
  "schema.baml": `
enum Status {
  OPEN
  DONE
}
class Item {
  name string
  qty int
  tags string[]
  note string? @stream.with_state
  code string @stream.done
  owner string @stream.not_null
}
class Point {
  x int
  y int
  @@stream.done
}
class Tree {
  label string
  children Tree[]
}
type JsonValue = string | int | JsonValue[] | map<string, JsonValue>
`,
});
if (!ir) throw new Error("the test schema does not compile");

function printed(expression: string): string {
  return partialTypeToString(partialType(parseTypeExpression(expression, ir!).type!, ir!));
}

describe("partialType", () => {
  it("makes every value nullable except lists, maps, items, entries and union arms", () => {
    expect(printed("string")).toBe("string | null");
    expect(printed("int")).toBe("int | null");
    expect(printed("string[]")).toBe("string[]");
    expect(printed("map<string, int>")).toBe("map<string, int>");
    expect(printed("Item[]")).toBe("Partial<Item>[]");
    expect(printed("int | string")).toBe("int | string | null");
    expect(printed("int?")).toBe("int | null");
  });

  it("keeps the final shape of values that appear only whole", () => {
    expect(printed("Status")).toBe("Status | null");
    expect(printed('"a" | "b"')).toBe('"a" | "b" | null');
    expect(printed("Point")).toBe("Point | null");
    expect(printed("Point[]")).toBe("Point[]");
  });

  it("reads field attributes: not_null, done, with_state", () => {
    const fields = Object.fromEntries(
      partialClassFields("Item", ir!).map((field) => [field.name, partialTypeToString(field.type)]),
    );
    expect(fields).toEqual({
      name: "string | null",
      qty: "int | null",
      tags: "string[]",
      note: "StreamState<string | null>",
      code: "string | null",
      owner: "string",
    });
    const code = partialClassFields("Item", ir!).find((field) => field.name === "code")!;
    expect(code.type.kind).toBe("whole");
  });

  it("refers to classes and aliases by name, so recursive types stay finite", () => {
    expect(printed("Tree")).toBe("Partial<Tree> | null");
    expect(partialClassFields("Tree", ir!).map((field) => partialTypeToString(field.type))).toEqual([
      "string | null",
      "Partial<Tree>[]",
    ]);
    expect(printed("JsonValue")).toBe("Partial<JsonValue> | null");
  });
});

describe("checkPartialValue", () => {
  const item = partialType(parseTypeExpression("Item", ir!).type!, ir!);
  const partial = {
    name: "pe",
    qty: null,
    tags: [],
    note: { value: null, state: "Pending" },
    code: null,
    owner: "a",
  };

  it("accepts a partial of the type", () => {
    expect(checkPartialValue(partial, item, ir!)).toBeUndefined();
    expect(checkPartialValue(null, item, ir!)).toBeUndefined();
  });

  it("says where a value breaks the partial type", () => {
    expect(checkPartialValue({ ...partial, owner: null }, item, ir!)).toBe(
      "$.owner: expected text, found null",
    );
    expect(checkPartialValue({ ...partial, tags: null }, item, ir!)).toBe(
      "$.tags: expected a list, found null",
    );
    expect(checkPartialValue({ ...partial, qty: "3" }, item, ir!)).toBe(
      '$.qty: expected a whole int, found "3"',
    );
    expect(checkPartialValue({ ...partial, note: "x" }, item, ir!)).toBe(
      '$.note: expected { value, state }, found "x"',
    );
    expect(checkPartialValue({ name: "x" }, item, ir!)).toContain("expected the fields name, qty, tags");
  });

  it("follows recursive aliases", () => {
    const json = partialType(parseTypeExpression("JsonValue", ir!).type!, ir!);
    expect(checkPartialValue({ a: [1, "two", { b: [] }] }, json, ir!)).toBeUndefined();
    expect(checkPartialValue({ a: [true] }, json, ir!)).toContain("fits none");
  });
});
