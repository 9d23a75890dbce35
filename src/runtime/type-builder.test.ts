import { describe, expect, it } from "vitest";
import { emptyIr, type Ir, t } from "../ir/index.js";
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
});
