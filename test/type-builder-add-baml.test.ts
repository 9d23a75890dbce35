/**
 * `TypeBuilder.addBaml` with the real compiler (`typeBuilderCompiler` from the package root), through the
 * whole runtime: the added schema reaches the prompt and the parser fills the added fields from a mock
 * model's answer. The runtime cannot import the compiler, so these cases live here rather than beside it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile, type Ir, typeBuilderCompiler } from "../src/index.js";
import { BamlInvalidArgumentError, SaplingRuntime, TypeBuilder } from "../src/runtime/index.js";
import { answer, type MockLlmServer, startMockLlmServer } from "../src/testing/index.js";

const project = `client<llm> Mock {
  provider openai-generic
  options {
    base_url env.MOCK_URL
    model "mock"
  }
}

class Person {
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

class Customer {
  person Person
  category Category
}

function Describe(text: string) -> Customer {
  client Mock
  prompt #"
    Describe the customer in {{ text }}.
    {{ ctx.output_format }}
  "#
}
`;

function projectIr(): Ir {
  const { ir, diagnostics } = compile({ "main.baml": project });
  if (!ir) throw new Error(diagnostics.map((item) => item.message).join("\n"));
  return ir;
}

const snippet = `class Address {
  street string
  city string @alias("town")
}

enum Tier {
  GOLD
  SILVER
}

dynamic class Person {
  address Address? @description("where they live")
  tier Tier
}

dynamic enum Category {
  VIP @description("spends a lot")
}
`;

let server: MockLlmServer;
beforeAll(async () => {
  server = await startMockLlmServer({
    defaultAnswer: answer(
      'Sure! ```json\n{"person": {"name": "Ann", "address": {"street": "1 Main St", "town": "Springfield"},' +
        ' "tier": "GOLD"}, "category": "VIP"}\n```',
    ),
  });
});
afterAll(async () => {
  await server.close();
});

describe("TypeBuilder.addBaml", () => {
  it("adds classes, enums and dynamic members that the prompt shows and the parser fills", async () => {
    const ir = projectIr();
    const tb = new TypeBuilder(ir, { compileBaml: typeBuilderCompiler });
    tb.addBaml(snippet);
    const runtime = SaplingRuntime.fromIr(ir, { env: { MOCK_URL: server.baseUrls.openai } });
    const result = await runtime.call("Describe", { text: "a note" }, { tb });
    expect(result).toEqual({
      person: { name: "Ann", address: { street: "1 Main St", city: "Springfield" }, tier: "GOLD" },
      category: "VIP",
    });
    const prompt = JSON.stringify(server.requests.at(-1)?.body);
    expect(prompt).toContain("where they live");
    expect(prompt).toContain("town");
    expect(prompt).toContain("spends a lot");
    // Without the builder the declared schema applies: VIP is no Category then.
    await expect(runtime.call("Describe", { text: "a note" })).rejects.toThrow(
      /expected enum Category \(REGULAR\), found "VIP"/,
    );
  });

  it("combines with the builder API before and after, in either direction", () => {
    const ir = projectIr();
    const tb = new TypeBuilder(ir, { compileBaml: typeBuilderCompiler });
    const job = tb.addClass("Job");
    job.addProperty("title", tb.string());
    tb.addBaml("dynamic class Person {\n  job Job\n}\ndynamic class Job {\n  salary int?\n}");
    tb.classBuilder("Person").addProperty("age", tb.int());
    tb.addBaml("class Pet {\n  owner Person\n}\n");
    tb.classBuilder("Pet").addProperty("name", tb.string());
    const extended = tb.applyTo(ir);
    const fields = (name: string): string[] =>
      extended.classes.find((item) => item.name === name)?.fields.map((field) => field.name) ?? [];
    expect(fields("Person")).toEqual(["name", "job", "age"]);
    expect(fields("Job")).toEqual(["title", "salary"]);
    expect(fields("Pet")).toEqual(["owner", "name"]);
    expect(
      tb
        .classBuilder("Person")
        .listProperties()
        .map(([name]) => name),
    ).toEqual(["name", "job", "age"]);
  });

  it("adds type aliases", () => {
    const ir = projectIr();
    const tb = new TypeBuilder(ir, { compileBaml: typeBuilderCompiler });
    tb.addBaml("type Tags = string[]\ndynamic class Person {\n  tags Tags\n}");
    const extended = tb.applyTo(ir);
    expect(extended.aliases.map((alias) => alias.name)).toEqual(["Tags"]);
    expect(() => tb.addClass("Tags")).toThrow(/already exists/);
  });

  it("refuses what the builder API refuses, and then changes nothing", () => {
    const ir = projectIr();
    const tb = new TypeBuilder(ir, { compileBaml: typeBuilderCompiler });
    tb.classBuilder("Person").addProperty("age", tb.int());
    expect(() =>
      tb.addBaml("dynamic enum Category {\n  VIP\n}\ndynamic class Person {\n  age float\n}"),
    ).toThrow('Class Person already has a property "age"; use .property("age") to change it.');
    expect(tb.applyTo(ir).enums.find((item) => item.name === "Category")?.values).toEqual([
      { name: "REGULAR" },
    ]);
    tb.addBaml("dynamic class Person {\n  nickname string\n}");
    expect(() => tb.classBuilder("Person").addProperty("nickname", tb.string())).toThrow(
      /already has a property/,
    );
  });

  it("sees what an earlier addBaml added", () => {
    const ir = projectIr();
    const tb = new TypeBuilder(ir, { compileBaml: typeBuilderCompiler });
    tb.addBaml("class Address {\n  street string\n}");
    expect(() => tb.addBaml("class Address {\n  city string\n}")).toThrow(
      /"Address" is declared more than once/,
    );
    tb.addBaml("dynamic class Address {\n  city string\n}");
    expect(
      tb
        .applyTo(ir)
        .classes.find((item) => item.name === "Address")
        ?.fields.map((field) => field.name),
    ).toEqual(["street", "city"]);
  });

  it("throws the diagnostics with code frames", () => {
    const tb = new TypeBuilder(projectIr(), { compileBaml: typeBuilderCompiler });
    let error: unknown;
    try {
      tb.addBaml("dynamic class Fixed {\n  extra strin\n}");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(BamlInvalidArgumentError);
    expect((error as Error).message).toBe(`TypeBuilder.addBaml: the BAML text has errors.

error[E0705]: Class "Fixed" is extended here but is not marked @@dynamic.
  --> <addBaml>:1:15
  |
1 | dynamic class Fixed {
  |               ^^^^^
  = hint: add @@dynamic to the declaration to allow extending it at call time

error[E0101]: Unknown type "strin".
  --> <addBaml>:2:9
  |
2 |   extra strin
  |         ^^^^^
  = hint: did you mean "string"?`);
  });

  it("says how to enable it when no compiler was given", () => {
    const tb = new TypeBuilder(projectIr());
    expect(() => tb.addBaml("class A {\n  x int\n}")).toThrow(BamlInvalidArgumentError);
    expect(() => tb.addBaml("class A {\n  x int\n}")).toThrow(
      /Pass it when creating the builder: `new TypeBuilder\(\{ compileBaml: typeBuilderCompiler \}\)`.*importing typeBuilderCompiler from "sapling-llm"/,
    );
  });
});
