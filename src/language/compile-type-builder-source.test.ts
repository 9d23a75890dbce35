import { describe, expect, it } from "vitest";
import { renderDiagnostics } from "../diagnostics/index.js";
import type { Ir } from "../ir/index.js";
import { compile } from "./compile.js";
import { compileTypeBuilderSource, typeBuilderSourceFile } from "./compile-type-builder-source.js";

const project = `class Person {
  name string
  @@dynamic
}

enum Category {
  REGULAR
  @@dynamic
}

class Fixed {
  id int
}

function Extract(text: string) -> Person {
  client "openai/gpt-4o"
  prompt #"{{ text }} {{ ctx.output_format }}"#
}
`;

function projectIr(): Ir {
  const { ir, diagnostics } = compile({ "main.baml": project });
  if (!ir) throw new Error(renderDiagnostics(diagnostics, { "main.baml": project }));
  return ir;
}

/** The rendered diagnostics of a snippet, as a user reads them in the thrown error. */
function problems(source: string): string {
  const result = compileTypeBuilderSource(source, projectIr());
  expect(result.additions).toBeUndefined();
  return renderDiagnostics(result.diagnostics, { [typeBuilderSourceFile]: source });
}

describe("compileTypeBuilderSource", () => {
  it("adds classes, enums and aliases, and extends @@dynamic ones, with their attributes", () => {
    const result = compileTypeBuilderSource(
      `class Address {
  street string @description("street and number")
  city string @alias("town")
  @@description("where someone lives")
}

/// Loyalty level.
enum Tier {
  GOLD @alias("gold")
  SILVER
  BRONZE @skip
}

type Tags = string[]

dynamic class Person {
  address Address?
  tier Tier
  tags Tags
}

dynamic enum Category {
  VIP @description("pays more")
}
`,
      projectIr(),
    );
    expect(result.diagnostics).toEqual([]);
    expect(result.additions).toEqual({
      classes: [
        {
          name: "Address",
          fields: [
            { name: "street", type: { kind: "primitive", name: "string" }, description: "street and number" },
            { name: "city", type: { kind: "primitive", name: "string" }, alias: "town" },
          ],
          dynamic: false,
          constraints: [],
          description: "where someone lives",
        },
      ],
      enums: [
        {
          name: "Tier",
          values: [{ name: "GOLD", alias: "gold" }, { name: "SILVER" }, { name: "BRONZE", skip: true }],
          dynamic: false,
          constraints: [],
          docs: "Loyalty level.",
        },
      ],
      aliases: [{ name: "Tags", type: { kind: "list", item: { kind: "primitive", name: "string" } } }],
      dynamicClasses: [
        {
          name: "Person",
          fields: [
            { name: "address", type: { kind: "optional", inner: { kind: "class", name: "Address" } } },
            { name: "tier", type: { kind: "enum", name: "Tier" } },
            { name: "tags", type: { kind: "alias", name: "Tags" } },
          ],
          dynamic: false,
          constraints: [],
        },
      ],
      dynamicEnums: [
        {
          name: "Category",
          values: [{ name: "VIP", description: "pays more" }],
          dynamic: false,
          constraints: [],
        },
      ],
    });
  });

  it("refers to the project's types, and to types the IR gained before (an earlier addBaml)", () => {
    const ir = projectIr();
    ir.classes.push({ name: "Added", fields: [], dynamic: true, constraints: [] });
    const result = compileTypeBuilderSource("dynamic class Added {\n  owner Person\n}\n", ir);
    expect(result.diagnostics).toEqual([]);
    expect(result.additions?.dynamicClasses[0]?.fields).toEqual([
      { name: "owner", type: { kind: "class", name: "Person" } },
    ]);
  });

  it("accepts an empty snippet", () => {
    expect(compileTypeBuilderSource("  // nothing yet\n", projectIr())).toEqual({
      additions: { classes: [], enums: [], aliases: [], dynamicClasses: [], dynamicEnums: [] },
      diagnostics: [],
    });
  });

  it("reports an unknown type with a suggestion", () => {
    expect(problems("dynamic class Person {\n  age Integer\n  tier Categroy\n}")).toBe(
      `error[E0101]: Unknown type "Integer".
  --> <addBaml>:2:7
  |
2 |   age Integer
  |       ^^^^^^^
  = hint: declare it with \`class\`, \`enum\` or \`type\`, or use string, int, float, bool or null

error[E0101]: Unknown type "Categroy".
  --> <addBaml>:3:8
  |
3 |   tier Categroy
  |        ^^^^^^^^
  = hint: did you mean "Category"?`,
    );
  });

  it("reports redefining a project type without dynamic, naming where it is declared", () => {
    expect(problems("class Person {\n  age int\n}")).toBe(
      `error[E0102]: "Person" is declared more than once.
  --> <addBaml>:1:7
  |
1 | class Person {
  |       ^^^^^^
  = hint: rename one of the type declarations; names share one namespace per kind
  = note: already declared (main.baml:1:1); extend it with \`dynamic\` instead`,
    );
  });

  it("reports dynamic on a type that is not @@dynamic, or that does not exist", () => {
    expect(problems("dynamic class Fixed {\n  extra string\n}\ndynamic enum Categori {\n  RED\n}")).toBe(
      `error[E0705]: Class "Fixed" is extended here but is not marked @@dynamic.
  --> <addBaml>:1:15
  |
1 | dynamic class Fixed {
  |               ^^^^^
  = hint: add @@dynamic to the declaration to allow extending it at call time

error[E0101]: Unknown type "Categori".
  --> <addBaml>:4:14
  |
4 | dynamic enum Categori {
  |              ^^^^^^^^
  = hint: did you mean "Category"?`,
    );
  });

  it("reports a dynamic block of the wrong kind", () => {
    expect(problems("dynamic enum Person {\n  EXTRA\n}")).toContain(
      'error[E0709]: "Person" is a class, but this dynamic block adds enum values.',
    );
  });

  it("rejects functions, clients and tests", () => {
    expect(
      problems(
        'function Other(x: string) -> string {\n  client "openai/gpt-4o"\n  prompt #"{{ x }}"#\n}\nclient<llm> Fast {\n  provider openai\n}\ntest T {\n  functions [Extract]\n}',
      ),
    ).toBe(
      `error[E0707]: A type_builder block may contain only class, enum, type and dynamic declarations.
  --> <addBaml>:1:1
  |
1 | function Other(x: string) -> string {
  | ^^^^^^^^^^^^^^
  = note: addBaml only adds types; declare functions, clients and tests in baml_src/

error[E0707]: A type_builder block may contain only class, enum, type and dynamic declarations.
  --> <addBaml>:5:1
  |
5 | client<llm> Fast {
  | ^^^^^^^^^^^^^^^^
  = note: addBaml only adds types; declare functions, clients and tests in baml_src/

error[E0707]: A type_builder block may contain only class, enum, type and dynamic declarations.
  --> <addBaml>:8:1
  |
8 | test T {
  | ^^^^^^
  = note: addBaml only adds types; declare functions, clients and tests in baml_src/`,
    );
  });

  it("reports syntax errors, duplicates inside the snippet and misplaced attributes", () => {
    expect(problems("class Address {\n  street string, city string\n}")).toBe(
      `error[E0001]: Expected a new line after the field, found ",".
  --> <addBaml>:2:16
  |
2 |   street string, city string
  |                ^`,
    );
    expect(problems("enum Tier {\n  GOLD\n}\nenum Tier {\n  SILVER\n}")).toContain(
      'error[E0102]: "Tier" is declared more than once.\n  --> <addBaml>:4:6',
    );
    expect(problems("class Address {\n  street string @skip\n}")).toContain("<addBaml>:2:3");
  });
});
