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

  constructor(
    readonly name: string,
    private readonly declared: Class | undefined,
  ) {
    this.#fields = (declared?.fields ?? []).map((field) => ({ ...field }));
    this.#declaredNames = new Set(this.#fields.map((field) => field.name));
    this.#alias = declared?.alias;
    this.#description = declared?.description;
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
    this.#guard();
    if (this.#fields.some((field) => field.name === name)) {
      throw new BamlInvalidArgumentError(
        `Class ${this.name} already has a property "${name}"; use .property("${name}") to change it.`,
      );
    }
    const field: Field = { name, type: type.type };
    this.#fields.push(field);
    return new ClassPropertyBuilder(name, field, () => this.#guard());
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
    const result: Class = {
      ...(this.declared ?? { name: this.name, fields: [], dynamic: true, constraints: [] }),
      fields: this.#fields.map((field) => ({ ...field })),
    };
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
