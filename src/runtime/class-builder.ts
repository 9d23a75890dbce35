import type { Class, Field, Type } from "../ir/index.js";
import { BamlInvalidArgumentError } from "./errors.js";
import { FieldType } from "./field-type.js";

/** One property of a class being built; the setters chain. */
export class ClassPropertyBuilder {
  constructor(
    readonly name: string,
    private readonly field: Field,
    private readonly guard: () => void,
  ) {}

  /** Changes the property's type. */
  setType(type: FieldType): this {
    this.guard();
    this.field.type = type.type;
    return this;
  }

  getType(): FieldType {
    return new FieldType(this.field.type);
  }

  /** The key the model sees and the parser matches (`@alias`). */
  alias(alias: string | null): this {
    this.guard();
    if (alias === null) delete this.field.alias;
    else this.field.alias = alias;
    return this;
  }

  /** Text shown to the model next to the property (`@description`). */
  description(description: string | null): this {
    this.guard();
    if (description === null) delete this.field.description;
    else this.field.description = description;
    return this;
  }
}

/**
 * A class added by a TypeBuilder, or a declared `@@dynamic` class being extended. Declared non-dynamic
 * classes can be referenced (`type()`) but not changed, as in BAML.
 */
export class ClassBuilder {
  readonly #fields: Field[];
  readonly #declaredNames: Set<string>;
  #alias: string | undefined;
  #description: string | undefined;

  readonly #base: Class;

  /**
   * `declared` is the class from the IR when extending one; a new class starts from `template` (a class
   * written in `addBaml`, with its fields, checks and docs) or empty. A new class stays changeable.
   */
  constructor(
    readonly name: string,
    private readonly declared: Class | undefined,
    template?: Class,
  ) {
    this.#base = declared ?? { ...(template ?? { name, fields: [], constraints: [] }), name, dynamic: true };
    this.#fields = this.#base.fields.map((field) => ({ ...field }));
    this.#declaredNames = new Set((declared?.fields ?? []).map((field) => field.name));
    this.#alias = this.#base.alias;
    this.#description = this.#base.description;
  }

  /** Whether properties may be added or changed (a new class, or a declared `@@dynamic` one). */
  get isDynamic(): boolean {
    return this.declared === undefined || this.declared.dynamic;
  }

  /** A reference to this class, for property types and unions. */
  type(): FieldType {
    return new FieldType({ kind: "class", name: this.name } satisfies Type);
  }

  /** Adds a property; an existing name is an error (use `property(name)` to change one). */
  addProperty(name: string, type: FieldType): ClassPropertyBuilder {
    return this.addField({ name, type: type.type });
  }

  /**
   * Adds a property given as IR data (with `@alias`, `@description`, `@skip`, docs), as `addBaml` does;
   * the same rules as `addProperty`.
   */
  addField(field: Field): ClassPropertyBuilder {
    this.#guard();
    this.assertNoProperty(field.name);
    const added: Field = { ...field };
    this.#fields.push(added);
    return new ClassPropertyBuilder(added.name, added, () => this.#guard());
  }

  /** Throws when the class already has a property `name` (what `addProperty` refuses). */
  assertNoProperty(name: string): void {
    if (this.#fields.some((field) => field.name === name)) {
      throw new BamlInvalidArgumentError(
        `Class ${this.name} already has a property "${name}"; use .property("${name}") to change it.`,
      );
    }
  }

  /** The builder of an existing property. */
  property(name: string): ClassPropertyBuilder {
    const field = this.#fields.find((item) => item.name === name);
    if (!field) {
      const known = this.#fields.map((item) => item.name).join(", ") || "none";
      throw new BamlInvalidArgumentError(`Class ${this.name} has no property "${name}" (it has: ${known}).`);
    }
    return new ClassPropertyBuilder(name, field, () => this.#guard());
  }

  /** Every property, declared ones first, as `[name, builder]` pairs. */
  listProperties(): [string, ClassPropertyBuilder][] {
    return this.#fields.map((field) => [
      field.name,
      new ClassPropertyBuilder(field.name, field, () => this.#guard()),
    ]);
  }

  /** Removes a property added by this builder (declared properties stay: the generated types rely on them). */
  removeProperty(name: string): void {
    this.#guard();
    if (this.#declaredNames.has(name)) {
      throw new BamlInvalidArgumentError(
        `Property ${this.name}.${name} is declared in .baml and cannot be removed.`,
      );
    }
    const position = this.#fields.findIndex((field) => field.name === name);
    if (position >= 0) this.#fields.splice(position, 1);
  }

  /** Drops every property added by this builder. */
  reset(): void {
    this.#guard();
    for (let position = this.#fields.length - 1; position >= 0; position--) {
      const field = this.#fields[position];
      if (field && !this.#declaredNames.has(field.name)) this.#fields.splice(position, 1);
    }
  }

  /** The name the model sees for this class (`@@alias`). */
  alias(alias: string | null): this {
    this.#guard();
    this.#alias = alias ?? undefined;
    return this;
  }

  /** `@@description`. */
  description(description: string | null): this {
    this.#guard();
    this.#description = description ?? undefined;
    return this;
  }

  /** The class as IR data, with this builder's changes. */
  toClass(): Class {
    const result: Class = { ...this.#base, fields: this.#fields.map((field) => ({ ...field })) };
    if (this.#alias !== undefined) result.alias = this.#alias;
    else delete result.alias;
    if (this.#description !== undefined) result.description = this.#description;
    else delete result.description;
    return result;
  }

  #guard(): void {
    if (!this.isDynamic) {
      throw new BamlInvalidArgumentError(
        `Class ${this.name} is not @@dynamic, so a TypeBuilder cannot change it. Add @@dynamic to it in .baml.`,
      );
    }
  }
}
