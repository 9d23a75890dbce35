import { type Ir, loadIr, type TestTypeBuilder, type TypeAlias, unionOf } from "../ir/index.js";
import type { BamlSourceCompiler } from "./baml-source-compiler.js";
import { ClassBuilder } from "./class-builder.js";
import { EnumBuilder } from "./enum-builder.js";
import { BamlInvalidArgumentError } from "./errors.js";
import { FieldType } from "./field-type.js";
import type { SchemaTypeAdditions, SchemaTypeConverter } from "./schema-type-converter.js";

/** Options of a `TypeBuilder`. */
export interface TypeBuilderOptions {
  /** Compiles the text of `addBaml`: `typeBuilderCompiler` from the `sapling-llm` package. */
  compileBaml?: BamlSourceCompiler | undefined;
  /** Converts the Zod schemas of `addZod`: `zodTypeConverter` from "sapling-llm/zod". */
  convertZod?: SchemaTypeConverter | undefined;
  /** Converts the JSON Schemas of `addJsonSchema`: `jsonSchemaTypeConverter` from "sapling-llm/json-schema". */
  convertJsonSchema?: SchemaTypeConverter | undefined;
}

/**
 * Changes the schema for one call (BAML's TypeBuilder): add classes and enums, add properties to
 * `@@dynamic` classes and values to `@@dynamic` enums, in code or as BAML text (`addBaml`). Pass it as the
 * `tb` call option; the runtime applies it to a copy of the IR, so other calls are unaffected. The
 * generated client subclasses this with typed accessors for each dynamic type.
 */
export class TypeBuilder {
  readonly #ir: Ir;
  readonly #classes = new Map<string, ClassBuilder>();
  readonly #enums = new Map<string, EnumBuilder>();
  readonly #aliases = new Map<string, TypeAlias>();
  readonly #compileBaml: BamlSourceCompiler | undefined;
  readonly #convertZod: SchemaTypeConverter | undefined;
  readonly #convertJsonSchema: SchemaTypeConverter | undefined;

  /**
   * `ir` is the project's IR (the generated client passes its embedded copy); `options.compileBaml`
   * enables `addBaml` (`typeBuilderCompiler` from "sapling-llm": the runtime leaves the compiler out).
   */
  constructor(ir: unknown, options: TypeBuilderOptions = {}) {
    this.#ir = loadIr(ir);
    this.#compileBaml = options.compileBaml;
    this.#convertZod = options.convertZod;
    this.#convertJsonSchema = options.convertJsonSchema;
  }

  string(): FieldType {
    return new FieldType({ kind: "primitive", name: "string" });
  }
  int(): FieldType {
    return new FieldType({ kind: "primitive", name: "int" });
  }
  float(): FieldType {
    return new FieldType({ kind: "primitive", name: "float" });
  }
  bool(): FieldType {
    return new FieldType({ kind: "primitive", name: "bool" });
  }
  null(): FieldType {
    return new FieldType({ kind: "primitive", name: "null" });
  }
  literalString(value: string): FieldType {
    return new FieldType({ kind: "literal", value });
  }
  literalInt(value: number): FieldType {
    if (!Number.isInteger(value))
      throw new BamlInvalidArgumentError(`literalInt needs an integer, got ${value}.`);
    return new FieldType({ kind: "literal", value });
  }
  literalBool(value: boolean): FieldType {
    return new FieldType({ kind: "literal", value });
  }
  list(item: FieldType): FieldType {
    return item.list();
  }
  map(key: FieldType, value: FieldType): FieldType {
    return new FieldType({ kind: "map", key: key.type, value: value.type });
  }
  /** A union; nested unions are flattened and `null` arms become an optional, as the IR requires. */
  union(options: FieldType[]): FieldType {
    return new FieldType(unionOf(options.map((option) => option.type)));
  }

  /** Adds a new class; a name already declared or added is an error. */
  addClass(name: string): ClassBuilder {
    this.#assertNew(name);
    const builder = new ClassBuilder(name, undefined);
    this.#classes.set(name, builder);
    return builder;
  }

  /** Adds a new enum; a name already declared or added is an error. */
  addEnum(name: string): EnumBuilder {
    this.#assertNew(name);
    const builder = new EnumBuilder(name, undefined);
    this.#enums.set(name, builder);
    return builder;
  }

  /**
   * Forgets every class, enum, alias, property and value this builder added (BAML's `reset`), so it
   * applies the declared schema again. Builders taken before (`const person = tb.Person`) are detached
   * from it: take them again.
   */
  reset(): void {
    this.#classes.clear();
    this.#enums.clear();
    this.#aliases.clear();
  }

  /** The builder of a declared or added class (changes need `@@dynamic`). */
  classBuilder(name: string): ClassBuilder {
    const existing = this.#classes.get(name);
    if (existing) return existing;
    const declared = this.#ir.classes.find((item) => item.name === name);
    if (!declared) throw new BamlInvalidArgumentError(`TypeBuilder: no class named ${name}.`);
    const builder = new ClassBuilder(name, declared);
    this.#classes.set(name, builder);
    return builder;
  }

  /** The builder of a declared or added enum (changes need `@@dynamic`). */
  enumBuilder(name: string): EnumBuilder {
    const existing = this.#enums.get(name);
    if (existing) return existing;
    const declared = this.#ir.enums.find((item) => item.name === name);
    if (!declared) throw new BamlInvalidArgumentError(`TypeBuilder: no enum named ${name}.`);
    const builder = new EnumBuilder(name, declared);
    this.#enums.set(name, builder);
    return builder;
  }

  /**
   * Adds BAML declarations, as a test's `type_builder { … }` does: new `class`, `enum` and `type`
   * declarations, and `dynamic class X { … }` / `dynamic enum E { … }` blocks that add properties or values
   * to `@@dynamic` types, with their attributes. The text may use the project's types and everything this
   * builder added before. Throws `BamlInvalidArgumentError` on any problem (the message shows the
   * diagnostics with code frames in `<addBaml>`), and then adds nothing.
   */
  addBaml(source: string): void {
    if (!this.#compileBaml) {
      throw new BamlInvalidArgumentError(
        "TypeBuilder.addBaml needs the BAML compiler, which sapling-llm/runtime leaves out of the call path. " +
          "Pass it when creating the builder: `new TypeBuilder({ compileBaml: typeBuilderCompiler })` (the " +
          'generated client\'s; `new TypeBuilder(ir, { … })` for this class), importing typeBuilderCompiler from "sapling-llm".',
      );
    }
    const { additions, problems } = this.#compileBaml(source, this.applyTo(this.#ir));
    if (!additions) {
      throw new BamlInvalidArgumentError(`TypeBuilder.addBaml: the BAML text has errors.\n\n${problems}`);
    }
    this.#addAll(additions);
  }

  /**
   * Adds a type named `name` from a Zod 4 schema (objects become classes, enums enums, …, as
   * `toBamlType` from "sapling-llm/zod" maps them) and returns a reference to it, for `addProperty` or a
   * union. Nested objects and enums get names of their own (`.meta({ id })`, else from their key). Needs
   * `convertZod: zodTypeConverter` in the builder's options. Zod's refinements and defaults do not run on
   * values parsed through a TypeBuilder: the runtime reads the type, not the schema.
   */
  addZod(name: string, schema: unknown): FieldType {
    return this.#addSchema(zodSchemas, this.#convertZod, name, schema);
  }

  /** As `addZod`, from a JSON Schema (the subset `sapling-llm/json-schema` reads). Needs `convertJsonSchema`. */
  addJsonSchema(name: string, schema: unknown): FieldType {
    return this.#addSchema(jsonSchemas, this.#convertJsonSchema, name, schema);
  }

  #addSchema(
    { method, option, converterName, entry }: SchemaKind,
    converter: SchemaTypeConverter | undefined,
    name: string,
    schema: unknown,
  ): FieldType {
    if (!converter) {
      throw new BamlInvalidArgumentError(
        `TypeBuilder.${method} needs a schema converter, which sapling-llm/runtime leaves out of the call path. ` +
          `Pass it when creating the builder: \`new TypeBuilder({ ${option}: ${converterName} })\`, importing ` +
          `${converterName} from "${entry}".`,
      );
    }
    this.#assertNew(name);
    let additions: SchemaTypeAdditions;
    try {
      additions = converter(schema, name, (candidate) => this.#isTaken(candidate));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new BamlInvalidArgumentError(`TypeBuilder.${method}("${name}"): ${message}`);
    }
    for (const item of additions.classes)
      this.#classes.set(item.name, new ClassBuilder(item.name, undefined, item));
    for (const item of additions.enums)
      this.#enums.set(item.name, new EnumBuilder(item.name, undefined, item));
    for (const item of additions.aliases) this.#aliases.set(item.name, item);
    return new FieldType(additions.type);
  }

  /** A copy of `ir` with this builder's classes and enums added or extended. `ir` is left unchanged. */
  applyTo(ir: Ir): Ir {
    const classes = ir.classes.map((item) => this.#classes.get(item.name)?.toClass() ?? item);
    const enums = ir.enums.map((item) => this.#enums.get(item.name)?.toEnum() ?? item);
    const declaredClasses = new Set(ir.classes.map((item) => item.name));
    const declaredEnums = new Set(ir.enums.map((item) => item.name));
    for (const [name, builder] of this.#classes)
      if (!declaredClasses.has(name)) classes.push(builder.toClass());
    for (const [name, builder] of this.#enums) if (!declaredEnums.has(name)) enums.push(builder.toEnum());
    const aliases = [...ir.aliases, ...[...this.#aliases.values()].map((alias) => ({ ...alias }))];
    return { ...ir, classes, enums, aliases };
  }

  /**
   * Adds compiled `addBaml` declarations. Every conflict with what the builder already holds is found
   * before anything changes, so a failing `addBaml` leaves the builder as it was.
   */
  #addAll(additions: TestTypeBuilder): void {
    try {
      for (const item of [...additions.classes, ...additions.enums, ...additions.aliases])
        this.#assertNew(item.name);
      for (const extension of additions.dynamicClasses) {
        const builder = this.classBuilder(extension.name);
        for (const field of extension.fields) builder.assertNoProperty(field.name);
      }
      for (const extension of additions.dynamicEnums) {
        const builder = this.enumBuilder(extension.name);
        for (const value of extension.values) builder.assertNoValue(value.name);
      }
    } catch (error) {
      // Say which call found the conflict: the builder API's message alone points at addProperty.
      if (!BamlInvalidArgumentError.isInstance(error)) throw error;
      throw new BamlInvalidArgumentError(`TypeBuilder.addBaml: ${error.message}`);
    }
    for (const item of additions.classes)
      this.#classes.set(item.name, new ClassBuilder(item.name, undefined, item));
    for (const item of additions.enums)
      this.#enums.set(item.name, new EnumBuilder(item.name, undefined, item));
    for (const item of additions.aliases) this.#aliases.set(item.name, item);
    for (const extension of additions.dynamicClasses) {
      const builder = this.classBuilder(extension.name);
      for (const field of extension.fields) builder.addField(field);
      if (extension.alias !== undefined) builder.alias(extension.alias);
      if (extension.description !== undefined) builder.description(extension.description);
    }
    for (const extension of additions.dynamicEnums) {
      const builder = this.enumBuilder(extension.name);
      for (const value of extension.values) builder.addEnumValue(value);
    }
  }

  #isTaken(name: string): boolean {
    return (
      this.#classes.has(name) ||
      this.#enums.has(name) ||
      this.#aliases.has(name) ||
      this.#ir.classes.some((item) => item.name === name) ||
      this.#ir.enums.some((item) => item.name === name) ||
      this.#ir.aliases.some((item) => item.name === name)
    );
  }

  #assertNew(name: string): void {
    if (this.#isTaken(name)) {
      throw new BamlInvalidArgumentError(
        `TypeBuilder: a type named ${name} already exists; use classBuilder/enumBuilder to extend a @@dynamic one.`,
      );
    }
  }
}

/** How a schema kind is named in the builder's errors: its method, option, converter and entry point. */
interface SchemaKind {
  method: string;
  option: string;
  converterName: string;
  entry: string;
}

const zodSchemas: SchemaKind = {
  method: "addZod",
  option: "convertZod",
  converterName: "zodTypeConverter",
  entry: "sapling-llm/zod",
};

const jsonSchemas: SchemaKind = {
  method: "addJsonSchema",
  option: "convertJsonSchema",
  converterName: "jsonSchemaTypeConverter",
  entry: "sapling-llm/json-schema",
};
