import { describe, expect, it } from "vitest";
import { emptyIr, type Ir, type TestTypeBuilder, t } from "../ir/index.js";
import type { BamlSourceCompiler } from "./baml-source-compiler.js";
import { BamlInvalidArgumentError } from "./errors.js";
import { TypeBuilder } from "./type-builder.js";

const ir: Ir = {
  ...emptyIr(),
  classes: [
    { name: "Resume", fields: [{ name: "name", type: t.string() }], dynamic: true, constraints: [] },
    { name: "Fixed", fields: [{ name: "id", type: t.int() }], dynamic: false, constraints: [] },
  ],
  enums: [{ name: "Category", values: [{ name: "TECH" }], dynamic: true, constraints: [] }],
};

describe("TypeBuilder", () => {
  it("extends dynamic classes and enums on a copy of the IR", () => {
    const tb = new TypeBuilder(ir);
    const skill = tb.addEnum("Skill");
    skill.addValue("RUST").alias("rust-lang").description("The language");
    skill.addValue("COBOL").skip();
    const job = tb.addClass("Job");
    job.addProperty("title", tb.string()).description("Job title");
    const resume = tb.classBuilder("Resume");
    resume.addProperty("skills", tb.list(skill.type()));
    resume.addProperty("jobs", job.type().list().optional()).alias("work");
    tb.enumBuilder("Category").addValue("ART");

    const extended = tb.applyTo(ir);
    expect(extended.classes.find((item) => item.name === "Resume")?.fields).toEqual([
      { name: "name", type: t.string() },
      { name: "skills", type: t.list(t.enumRef("Skill")) },
      { name: "jobs", type: t.optional(t.list(t.classRef("Job"))), alias: "work" },
    ]);
    expect(extended.classes.find((item) => item.name === "Job")).toEqual({
      name: "Job",
      fields: [{ name: "title", type: t.string(), description: "Job title" }],
      dynamic: true,
      constraints: [],
    });
    expect(extended.enums.map((item) => [item.name, item.values])).toEqual([
      ["Category", [{ name: "TECH" }, { name: "ART" }]],
      [
        "Skill",
        [
          { name: "RUST", alias: "rust-lang", description: "The language" },
          { name: "COBOL", skip: true },
        ],
      ],
    ]);
    expect(ir.classes[0]?.fields).toHaveLength(1);
    expect(ir.enums[0]?.values).toHaveLength(1);
  });

  it("reset forgets everything added, so the declared schema applies again", () => {
    const tb = new TypeBuilder(ir);
    tb.classBuilder("Resume").addProperty("age", tb.int());
    tb.enumBuilder("Category").addValue("ART");
    tb.addClass("Extra").addProperty("x", tb.string());
    expect(tb.applyTo(ir)).not.toEqual(ir);
    tb.reset();
    expect(tb.applyTo(ir)).toEqual(ir);
    tb.classBuilder("Resume").addProperty("email", tb.string());
    expect(tb.applyTo(ir).classes[0]?.fields.map((field) => field.name)).toEqual(["name", "email"]);
  });

  it("tells equal field types apart from different ones (BAML's FieldType.equals)", () => {
    const tb = new TypeBuilder(ir);
    expect(tb.string().list().equals(tb.string().list())).toBe(true);
    expect(tb.map(tb.string(), tb.int()).equals(tb.map(tb.string(), tb.int()))).toBe(true);
    expect(tb.string().list().equals(tb.string())).toBe(false);
    expect(tb.int().optional().equals(tb.float().optional())).toBe(false);
    expect(tb.literalString("a").equals(tb.literalString("b"))).toBe(false);
  });

  it("builds primitive, literal, map and union types the way the IR expects", () => {
    const tb = new TypeBuilder(ir);
    expect(tb.map(tb.string(), tb.literalInt(3)).type).toEqual(t.map(t.string(), t.literal(3)));
    expect(tb.union([tb.literalString("a"), tb.union([tb.bool(), tb.null()])]).type).toEqual(
      t.optional(t.union(t.literal("a"), t.bool())),
    );
    expect(tb.union([tb.int()]).type).toEqual(t.int());
    expect(tb.float().optional().optional().type).toEqual(t.optional(t.float()));
  });

  it("refuses to change non-dynamic types, or to redeclare names", () => {
    const tb = new TypeBuilder(ir);
    expect(() => tb.classBuilder("Fixed").addProperty("extra", tb.string())).toThrow(/not @@dynamic/);
    expect(tb.classBuilder("Fixed").type().type).toEqual(t.classRef("Fixed"));
    expect(() => tb.addClass("Resume")).toThrow(BamlInvalidArgumentError);
    expect(() => tb.classBuilder("Resume").addProperty("name", tb.int())).toThrow(
      /already has a property "name"/,
    );
    expect(() => tb.classBuilder("Resume").removeProperty("name")).toThrow(/declared in .baml/);
    expect(() => tb.classBuilder("Nope")).toThrow(/no class named Nope/);
  });

  it("lists, removes and resets added properties", () => {
    const tb = new TypeBuilder(ir);
    const resume = tb.classBuilder("Resume");
    resume.addProperty("a", tb.int());
    resume.addProperty("b", tb.int());
    resume.property("a").setType(tb.float());
    expect(resume.listProperties().map(([name, property]) => [name, property.getType().type])).toEqual([
      ["name", t.string()],
      ["a", t.float()],
      ["b", t.int()],
    ]);
    resume.removeProperty("a");
    expect(tb.applyTo(ir).classes[0]?.fields.map((field) => field.name)).toEqual(["name", "b"]);
    resume.reset();
    expect(tb.applyTo(ir).classes[0]?.fields.map((field) => field.name)).toEqual(["name"]);
  });

  describe("addBaml (the compiler is injected; test/type-builder-add-baml.test.ts uses the real one)", () => {
    const none: TestTypeBuilder = {
      classes: [],
      enums: [],
      aliases: [],
      dynamicClasses: [],
      dynamicEnums: [],
    };

    it("compiles against the IR as extended so far and keeps what the declarations carry", () => {
      const seen: Ir[] = [];
      const compileBaml: BamlSourceCompiler = (_source, current) => {
        seen.push(current);
        return {
          problems: "",
          additions: {
            ...none,
            classes: [
              {
                name: "Job",
                fields: [{ name: "title", type: t.string(), skip: true, docs: "Shown nowhere." }],
                dynamic: false,
                constraints: [{ level: "assert", expression: "this.title != ''" }],
                docs: "A job.",
              },
            ],
            dynamicEnums: [
              { name: "Category", values: [{ name: "ART", skip: true }], dynamic: false, constraints: [] },
            ],
          },
        };
      };
      const tb = new TypeBuilder(ir, { compileBaml });
      tb.classBuilder("Resume").addProperty("age", tb.int());
      tb.addBaml("ignored by this compiler");
      expect(seen[0]?.classes[0]?.fields.map((field) => field.name)).toEqual(["name", "age"]);
      expect(tb.applyTo(ir).classes.find((item) => item.name === "Job")).toEqual({
        name: "Job",
        fields: [{ name: "title", type: t.string(), skip: true, docs: "Shown nowhere." }],
        dynamic: true,
        constraints: [{ level: "assert", expression: "this.title != ''" }],
        docs: "A job.",
      });
      expect(
        tb
          .enumBuilder("Category")
          .listValues()
          .map(([name]) => name),
      ).toEqual(["TECH", "ART"]);
      tb.classBuilder("Job").addProperty("company", tb.string());
    });

    it("throws the rendered problems and adds nothing", () => {
      const tb = new TypeBuilder(ir, { compileBaml: () => ({ problems: "error[E0101]: Unknown type" }) });
      expect(() => tb.addBaml("class A {\n  x Nope\n}")).toThrow(
        "TypeBuilder.addBaml: the BAML text has errors.\n\nerror[E0101]: Unknown type",
      );
      expect(tb.applyTo(ir)).toEqual({ ...ir, aliases: [] });
    });

    it("says how to enable it when no compiler was given", () => {
      expect(() => new TypeBuilder(ir).addBaml("class A {\n  x int\n}")).toThrow(
        /compileBaml: typeBuilderCompiler/,
      );
    });
  });
});
