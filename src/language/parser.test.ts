import { describe, expect, it } from "vitest";
import type { ClassDecl, ConfigValue, FunctionDecl, TestDecl, TypeExpression } from "./ast.js";
import { parseSource } from "./parser.js";

function parseOne<T>(text: string): T {
  const { file, diagnostics } = parseSource(text, "t.baml");
  expect(diagnostics).toEqual([]);
  return file.declarations[0] as T;
}

function shape(type: TypeExpression): unknown {
  const attributes = type.attributes.map((attribute) => attribute.name);
  const base = attributes.length > 0 ? { attributes } : {};
  switch (type.kind) {
    case "named":
      return { ...base, named: type.name };
    case "union":
      return { ...base, union: type.options.map(shape) };
    case "list":
      return { ...base, list: shape(type.item) };
    case "group":
      return { ...base, group: shape(type.inner) };
    case "optional":
      return { ...base, optional: shape(type.inner) };
    default:
      return { ...base, kind: type.kind };
  }
}

describe("parseSource", () => {
  it("gives attributes after the last union member to the field, and those before `|` to the member", () => {
    const declaration = parseOne<ClassDecl>(
      'class A {\n  a Sub @assert(ok, {{ this }}) | null @description("d")\n  b (T @stream.done)[]\n}\n',
    );
    const [a, b] = declaration.fields;
    expect(shape(a?.type as TypeExpression)).toEqual({
      union: [{ named: "Sub", attributes: ["assert"] }, { named: "null" }],
    });
    expect(a?.attributes.map((attribute) => attribute.name)).toEqual(["description"]);
    expect(shape(b?.type as TypeExpression)).toEqual({
      list: { group: { named: "T", attributes: ["stream.done"] } },
    });
    expect(b?.attributes).toEqual([]);
  });

  it("keeps /// docs on declarations and members, and block attributes apart from fields", () => {
    const declaration = parseOne<ClassDecl>(
      "/// The class.\nclass A {\n  /// The field.\n  a int\n  @@dynamic\n}\n",
    );
    expect(declaration.docs).toBe("The class.");
    expect(declaration.fields[0]?.docs).toBe("The field.");
    expect(declaration.attributes.map((attribute) => [attribute.name, attribute.block])).toEqual([
      ["dynamic", true],
    ]);
  });

  it("reads a function's parameters, return type, client and prompt with its content offset", () => {
    const text =
      'function F(a: int, b: string[]) -> map<string, int> {\n  client "openai/gpt-4o"\n  prompt ##"hi "# there"##\n}\n';
    const declaration = parseOne<FunctionDecl>(text);
    expect(declaration.params.map((param) => param.name.name)).toEqual(["a", "b"]);
    expect(declaration.returnType.kind).toBe("map");
    const prompt = declaration.body.entries[1]?.value as Extract<ConfigValue, { kind: "raw-string" }>;
    expect(prompt).toMatchObject({ kind: "raw-string", value: 'hi "# there', hashes: 2 });
    expect(text.slice(prompt.contentStart, prompt.contentStart + 2)).toBe("hi");
  });

  it("reads config values of every kind", () => {
    const text =
      'client<llm> C {\n  provider openai-generic\n  options {\n    base_url http://localhost:8000/v1 // note\n    key env.API_KEY\n    n -1.5\n    on true\n    none null\n    list [a, "b", 3]\n    "quoted-key" { x #"raw"# }\n  }\n}\n';
    const declaration = parseOne<{ body: { entries: { value: ConfigValue }[] } }>(text);
    const options = declaration.body.entries[1]?.value as Extract<ConfigValue, { kind: "map" }>;
    expect(declaration.body.entries[0]?.value).toMatchObject({ kind: "unquoted", value: "openai-generic" });
    expect(options.block.entries.map((entry) => [entry.key.name, entry.quotedKey, entry.value.kind])).toEqual(
      [
        ["base_url", false, "unquoted"],
        ["key", false, "env"],
        ["n", false, "number"],
        ["on", false, "bool"],
        ["none", false, "null"],
        ["list", false, "array"],
        ["quoted-key", true, "map"],
      ],
    );
    expect(options.block.entries[0]?.value).toMatchObject({ value: "http://localhost:8000/v1" });
  });

  it("parses a test's type_builder and its block constraints", () => {
    const declaration = parseOne<TestDecl>(
      "test T {\n  functions [F]\n  type_builder {\n    class New {\n      a int\n    }\n    dynamic enum E {\n      X\n    }\n  }\n  @@assert({{ this }})\n}\n",
    );
    expect(
      declaration.body.typeBuilder?.declarations.map((item) => [
        item.kind,
        item.name.name,
        "dynamic" in item && item.dynamic,
      ]),
    ).toEqual([
      ["class", "New", false],
      ["enum", "E", true],
    ]);
    expect(declaration.body.attributes[0]?.args[0]).toMatchObject({
      kind: "expression",
      expression: " this ",
    });
  });

  it("recovers after a bad declaration and keeps parsing the next ones", () => {
    const { file, diagnostics } = parseSource("clas A {\n  a int\n}\nclass B {\n  b int\n}\n", "t.baml");
    expect(diagnostics.map((item) => item.code)).toEqual(["E0005"]);
    expect(file.declarations.map((item) => item.name.name)).toEqual(["B"]);
  });
});
