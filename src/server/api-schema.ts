import type { IrIndex, Type } from "../ir/index.js";

/** A JSON Schema object (the OpenAPI 3.1 dialect, i.e. draft 2020-12). */
export type JsonSchema = { [key: string]: unknown };

/** Whether a schema describes what a caller sends (`input`) or what the API answers (`output`). */
export type SchemaDirection = "input" | "output";

/**
 * JSON Schema for values as the HTTP API carries them — unlike the prompt room's `toJsonSchema`, which
 * describes what the *model* writes (field aliases as keys, no `Checked` wrappers). Here keys are the
 * declared names, enum values their declared names, `@check`ed values in answers are BAML's
 * `{ value, checks }`, and media inputs are `{ url }` or `{ base64, media_type }` objects. Classes, enums
 * and aliases become named components (`#/components/schemas/Name`), so recursive types stay finite; a class
 * whose input and output forms differ (it holds checked values) gets a second component `NameInput`.
 */
export class ApiSchemaBuilder {
  readonly #index: IrIndex;
  readonly #components = new Map<string, JsonSchema>();
  readonly #checkedCache = new Map<string, boolean>();

  constructor(index: IrIndex) {
    this.#index = index;
  }

  /** Every component referenced so far, sorted by name. */
  components(): Record<string, JsonSchema> {
    return Object.fromEntries([...this.#components].sort(([a], [b]) => a.localeCompare(b)));
  }

  /** The schema of `type` in one direction; named types are registered as components. */
  schema(type: Type, direction: SchemaDirection): JsonSchema {
    const plain = this.#plain(type, direction);
    if (direction === "input") return plain;
    const checks = (type.attrs?.constraints ?? []).filter(
      (constraint) => constraint.level === "check" && constraint.label !== undefined,
    );
    if (checks.length === 0) return plain;
    return {
      type: "object",
      description: "A value with the outcome of its @check constraints (BAML's Checked<T>).",
      properties: {
        value: plain,
        checks: {
          type: "object",
          properties: Object.fromEntries(checks.map((check) => [check.label, this.#checkOutcome()])),
          required: checks.map((check) => check.label),
        },
      },
      required: ["value", "checks"],
    };
  }

  #plain(type: Type, direction: SchemaDirection): JsonSchema {
    switch (type.kind) {
      case "primitive":
        return { type: PRIMITIVE_TYPES[type.name] };
      case "literal":
        return { const: type.value };
      case "media":
        return this.#component("MediaInput", mediaInputSchema);
      case "optional":
        return { anyOf: [this.schema(type.inner, direction), { type: "null" }] };
      case "list":
        return { type: "array", items: this.schema(type.item, direction) };
      case "map":
        return { type: "object", additionalProperties: this.schema(type.value, direction) };
      case "union":
        return { anyOf: type.options.map((option) => this.schema(option, direction)) };
      case "enum":
        return this.#component(type.name, () => this.#enumSchema(type.name));
      case "alias": {
        const name = this.#directedName(type.name, direction);
        return this.#component(name, () => this.schema(this.#index.getAlias(type.name).type, direction));
      }
      case "class": {
        const name = this.#directedName(type.name, direction);
        return this.#component(name, () => this.#classSchema(type.name, direction));
      }
    }
  }

  /** `Name` for answers and for inputs that look the same; `NameInput` when checks make them differ. */
  #directedName(name: string, direction: SchemaDirection): string {
    if (direction === "output") return name;
    return this.#holdsChecks({ kind: "class", name }, new Set()) ? `${name}Input` : name;
  }

  #component(name: string, build: () => JsonSchema): JsonSchema {
    if (!this.#components.has(name)) {
      // Registered before building, so a recursive reference finds it and stops.
      this.#components.set(name, {});
      this.#components.set(name, build());
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  #classSchema(name: string, direction: SchemaDirection): JsonSchema {
    const declared = this.#index.getClass(name);
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const field of declared.fields) {
      if (field.skip) continue;
      const schema = this.schema(field.type, direction);
      properties[field.name] = field.description ? { ...schema, description: field.description } : schema;
      // Answers always carry every field (null when absent); callers may leave optional ones out.
      if (direction === "output" || field.type.kind !== "optional") required.push(field.name);
    }
    return {
      type: "object",
      ...(declared.description ? { description: declared.description } : {}),
      properties,
      required,
    };
  }

  #enumSchema(name: string): JsonSchema {
    const declared = this.#index.getEnum(name);
    return {
      type: "string",
      ...(declared.description ? { description: declared.description } : {}),
      enum: declared.values.filter((value) => !value.skip).map((value) => value.name),
    };
  }

  #checkOutcome(): JsonSchema {
    return this.#component("CheckOutcome", () => ({
      type: "object",
      properties: {
        name: { type: "string" },
        expr: { type: "string" },
        status: { enum: ["succeeded", "failed"] },
      },
      required: ["name", "expr", "status"],
    }));
  }

  /** Whether a labelled `@check` is reachable from `type` (then its answer form wraps values). */
  #holdsChecks(type: Type, seen: Set<string>): boolean {
    if (type.attrs?.constraints?.some((item) => item.level === "check" && item.label !== undefined))
      return true;
    switch (type.kind) {
      case "optional":
        return this.#holdsChecks(type.inner, seen);
      case "list":
        return this.#holdsChecks(type.item, seen);
      case "map":
        return this.#holdsChecks(type.value, seen);
      case "union":
        return type.options.some((option) => this.#holdsChecks(option, seen));
      case "alias":
      case "class": {
        const key = `${type.kind}:${type.name}`;
        const cached = this.#checkedCache.get(key);
        if (cached !== undefined) return cached;
        if (seen.has(key)) return false;
        seen.add(key);
        const result =
          type.kind === "alias"
            ? this.#holdsChecks(this.#index.getAlias(type.name).type, seen)
            : this.#index.getClass(type.name).fields.some((field) => this.#holdsChecks(field.type, seen));
        this.#checkedCache.set(key, result);
        return result;
      }
      default:
        return false;
    }
  }
}

const PRIMITIVE_TYPES = {
  string: "string",
  int: "integer",
  float: "number",
  bool: "boolean",
  null: "null",
} as const;

function mediaInputSchema(): JsonSchema {
  return {
    description: "A media argument (image, audio, pdf, video): a URL, or base64 data with its MIME type.",
    oneOf: [
      {
        type: "object",
        properties: { url: { type: "string" }, media_type: { type: "string" } },
        required: ["url"],
      },
      {
        type: "object",
        properties: { base64: { type: "string" }, media_type: { type: "string" } },
        required: ["base64", "media_type"],
      },
    ],
  };
}
