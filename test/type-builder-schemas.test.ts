/**
 * `TypeBuilder.addZod` and `addJsonSchema`: dynamic output types from the schemas a backend already has.
 * The runtime loads neither Zod nor the converters; the application injects them (`zodTypeConverter`,
 * `jsonSchemaTypeConverter`), as it injects the compiler for `addBaml`.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { compile, type Ir } from "../src/index.js";
import { jsonSchemaTypeConverter } from "../src/json-schema/index.js";
import { BamlInvalidArgumentError, SaplingRuntime, TypeBuilder } from "../src/runtime/index.js";
import { zodTypeConverter } from "../src/zod/index.js";

const project = `client<llm> Mock {
  provider openai-generic
  options {
    base_url "http://127.0.0.1:9/v1"
    model "mock"
  }
}

class Person {
  name string
  @@dynamic
}

function Describe(text: string) -> Person {
  client Mock
  prompt #"
    {{ ctx.output_format }}
  "#
}
`;

function projectIr(): Ir {
  const { ir, diagnostics } = compile({ "main.baml": project });
  if (!ir) throw new Error(diagnostics.map((item) => item.message).join("\n"));
  return ir;
}

const Address = z.object({
  street: z.string(),
  city: z.string().describe("the town"),
  kind: z.enum(["HOME", "WORK"]),
});

describe("TypeBuilder.addZod / addJsonSchema", () => {
  it("adds a class (and its enums) from a Zod schema that the parser fills", () => {
    const ir = projectIr();
    const tb = new TypeBuilder(ir, { convertZod: zodTypeConverter });
    tb.classBuilder("Person").addProperty("address", tb.addZod("Address", Address).optional());
    const runtime = SaplingRuntime.fromIr(ir);
    const text = "```json\n{name: Ann, address: {street: '1 Main St', city: Springfield, kind: home}}\n```";
    expect(runtime.parse("Describe", text, { tb })).toEqual({
      name: "Ann",
      address: { street: "1 Main St", city: "Springfield", kind: "HOME" },
    });
    const extended = tb.applyTo(ir);
    expect(extended.classes.map((item) => item.name)).toEqual(["Person", "Address"]);
    expect(extended.enums.map((item) => item.name)).toEqual(["Kind"]);
    expect(extended.classes[1]?.fields[1]).toMatchObject({ name: "city", description: "the town" });
  });

  it("adds a JSON Schema; a root that is no object gets an alias of the name", () => {
    const ir = projectIr();
    const tb = new TypeBuilder(ir, { convertJsonSchema: jsonSchemaTypeConverter });
    const tags = tb.addJsonSchema("Tags", { type: "array", items: { type: "string" } });
    expect(tags.type).toEqual({ kind: "alias", name: "Tags" });
    tb.classBuilder("Person").addProperty("tags", tags);
    expect(SaplingRuntime.fromIr(ir).parse("Describe", "{name: Bo, tags: 'a, b'}", { tb })).toEqual({
      name: "Bo",
      tags: ["a", "b"],
    });
  });

  it("gives nested types fresh names when the project or the builder uses theirs", () => {
    const ir = projectIr();
    const tb = new TypeBuilder(ir, { convertZod: zodTypeConverter });
    tb.addZod("Contact", z.object({ person: z.object({ nick: z.string() }) }));
    expect(tb.applyTo(ir).classes.map((item) => item.name)).toEqual(["Person", "Contact", "Person2"]);
  });

  it("needs the injected converter, refuses a taken name, and reports unsupported schemas", () => {
    const ir = projectIr();
    expect(() => new TypeBuilder(ir).addZod("Address", Address)).toThrow(
      /addZod needs a schema converter.*convertZod: zodTypeConverter.*sapling-llm\/zod/,
    );
    const tb = new TypeBuilder(ir, {
      convertZod: zodTypeConverter,
      convertJsonSchema: jsonSchemaTypeConverter,
    });
    expect(() => tb.addZod("Person", Address)).toThrow(/a type named Person already exists/);
    expect(() => tb.addZod("When", z.object({ at: z.date() }))).toThrow(BamlInvalidArgumentError);
    expect(() => tb.addZod("When", z.object({ at: z.date() }))).toThrow(
      /addZod\("When"\): z\.date\(\) at \$\.at/,
    );
    expect(() => tb.addJsonSchema("Free", { $ref: "https://example.com/free.json" })).toThrow(
      /addJsonSchema\("Free"\): the remote \$ref "https:\/\/example.com\/free.json"/,
    );
    // Nothing was added by the failures.
    expect(tb.applyTo(ir).classes.map((item) => item.name)).toEqual(["Person"]);
  });
});
