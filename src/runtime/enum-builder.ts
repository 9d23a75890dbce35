import type { Enum, EnumValue } from "../ir/index.js";
import { BamlInvalidArgumentError } from "./errors.js";
import { FieldType } from "./field-type.js";

/** One value of an enum being built; the setters chain. */
export class EnumValueBuilder {
  constructor(
    readonly name: string,
    private readonly value: EnumValue,
    private readonly guard: () => void,
  ) {}

  /** The text the model sees and the parser matches (`@alias`). */
  alias(alias: string | null): this {
    this.guard();
    if (alias === null) delete this.value.alias;
    else this.value.alias = alias;
    return this;
  }

  /** `@description`. */
  description(description: string | null): this {
    this.guard();
    if (description === null) delete this.value.description;
    else this.value.description = description;
    return this;
  }

  /** Leaves the value out of the prompt and the parse (`@skip`). */
  skip(skip = true): this {
    this.guard();
    if (skip) this.value.skip = true;
    else delete this.value.skip;
    return this;
  }
}

/** An enum added by a TypeBuilder, or a declared `@@dynamic` enum being extended. */
export class EnumBuilder {
  readonly #values: EnumValue[];
  readonly #base: Enum;

  /**
   * `declared` is the enum from the IR when extending one; a new enum starts from `template` (an enum
   * written in `addBaml`) or empty. A new enum stays changeable.
   */
  constructor(
    readonly name: string,
    private readonly declared: Enum | undefined,
    template?: Enum,
  ) {
    this.#base = declared ?? { ...(template ?? { name, values: [], constraints: [] }), name, dynamic: true };
    this.#values = this.#base.values.map((value) => ({ ...value }));
  }

  get isDynamic(): boolean {
    return this.declared === undefined || this.declared.dynamic;
  }

  /** A reference to this enum, for property types and unions. */
  type(): FieldType {
    return new FieldType({ kind: "enum", name: this.name });
  }

  /** Adds a value; an existing name is an error (use `value(name)` to change one). */
  addValue(name: string): EnumValueBuilder {
    return this.addEnumValue({ name });
  }

  /**
   * Adds a value given as IR data (with `@alias`, `@description`, `@skip`, docs), as `addBaml` does; the
   * same rules as `addValue`.
   */
  addEnumValue(value: EnumValue): EnumValueBuilder {
    this.#guard();
    this.assertNoValue(value.name);
    const added: EnumValue = { ...value };
    this.#values.push(added);
    return new EnumValueBuilder(added.name, added, () => this.#guard());
  }

  /** Throws when the enum already has a value `name` (what `addValue` refuses). */
  assertNoValue(name: string): void {
    if (this.#values.some((value) => value.name === name)) {
      throw new BamlInvalidArgumentError(
        `Enum ${this.name} already has a value "${name}"; use .value("${name}").`,
      );
    }
  }

  /** The builder of an existing value. */
  value(name: string): EnumValueBuilder {
    const value = this.#values.find((item) => item.name === name);
    if (!value) {
      const known = this.#values.map((item) => item.name).join(", ") || "none";
      throw new BamlInvalidArgumentError(`Enum ${this.name} has no value "${name}" (it has: ${known}).`);
    }
    return new EnumValueBuilder(name, value, () => this.#guard());
  }

  /** Every value, declared ones first, as `[name, builder]` pairs. */
  listValues(): [string, EnumValueBuilder][] {
    return this.#values.map((value) => [
      value.name,
      new EnumValueBuilder(value.name, value, () => this.#guard()),
    ]);
  }

  /** The enum as IR data, with this builder's changes. */
  toEnum(): Enum {
    return { ...this.#base, values: this.#values.map((value) => ({ ...value })) };
  }

  #guard(): void {
    if (!this.isDynamic) {
      throw new BamlInvalidArgumentError(
        `Enum ${this.name} is not @@dynamic, so a TypeBuilder cannot change it. Add @@dynamic to it in .baml.`,
      );
    }
  }
}
