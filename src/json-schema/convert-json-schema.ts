/**
 * JSON Schema → Sapling type, for the subset that OpenAI structured outputs, MCP tool schemas and OpenAPI
 * use: `type` (one or a list), `properties`/`required`, `additionalProperties` (false, or a schema: a map),
 * `items`, `enum`, `const`, `anyOf`/`oneOf`, a one-element `allOf`, `$ref` into `$defs`/`definitions`,
 * OpenAPI's `nullable`, `description` and `default`; plus the bounds checked after parsing (see
 * `validate-json-schema.ts`). Any other keyword is an `UnsupportedSchemaError` naming it and its path.
 */
import { type Class, type Type, unionOf } from "../ir/index.js";
import {
  adaptEntries,
  adaptFields,
  adaptItems,
  itemHint,
  type SchemaIssue,
  TypeCollector,
  UnsupportedSchemaError,
  type ValueAdapter,
} from "../typed-schema/index.js";
import { boundsValidator, type Validator } from "./validate-json-schema.js";

/** A JSON Schema document or sub-schema, as parsed JSON. */
export type JsonSchemaInput = Record<string, unknown> | boolean;

/** One sub-schema converted: its type, whether `null` is allowed, the after-parse adapter and checks. */
export interface JsonSchemaConversion {
  type: Type;
  acceptsNull: boolean;
  final?: ValueAdapter | undefined;
  validate?: Validator | undefined;
  /** Whether a parsed value is of this sub-schema's kind (an object: only its properties, the required ones). */
  fits?: ((value: unknown) => boolean) | undefined;
}

/** Keywords that only annotate: no effect on the type or the value. `format` is one by the 2020-12 spec. */
const ANNOTATIONS = new Set([
  "$schema",
  "$id",
  "$comment",
  "title",
  "description",
  "examples",
  "example",
  "deprecated",
  "readOnly",
  "writeOnly",
  "format",
  "$defs",
  "definitions",
  "default",
  "strict",
]);
const BOUNDS = new Set([
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
]);
const STRUCTURE = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
  "oneOf",
  "allOf",
  "$ref",
  "nullable",
]);

export class JsonSchemaConverter {
  readonly #references = new Map<string, { alias?: string; result?: JsonSchemaConversion; open: boolean }>();
  readonly #objects = new Map<object, JsonSchemaConversion>();

  constructor(
    readonly collector: TypeCollector,
    private readonly root: Record<string, unknown>,
  ) {}

  convert(schema: unknown, path: string, hint: string): JsonSchemaConversion {
    if (schema === true || schema === false || typeof schema !== "object" || schema === null) {
      throw new UnsupportedSchemaError(
        schema === true || (typeof schema === "object" && schema !== null)
          ? "an empty schema"
          : `the schema ${JSON.stringify(schema)}`,
        path,
        "a model's answer needs a shape to be read into; give it a `type`.",
      );
    }
    const node = schema as Record<string, unknown>;
    for (const key of Object.keys(node)) {
      if (!ANNOTATIONS.has(key) && !BOUNDS.has(key) && !STRUCTURE.has(key))
        throw new UnsupportedSchemaError(`the keyword "${key}"`, path, KEYWORD_HINTS[key] ?? SUBSET);
    }
    const core = this.#convertCore(node, path, hint);
    const nullable = node.nullable === true;
    const bounds = boundsValidator(node, path);
    const validate = combine(core.validate, bounds);
    const conversion: JsonSchemaConversion = {
      type: nullable ? unionOf([core.type, { kind: "primitive", name: "null" }]) : core.type,
      acceptsNull: core.acceptsNull || nullable,
      final: core.final,
      validate,
      fits: (value) => (value === null && nullable) || fitsOf(core)(value),
    };
    return conversion;
  }

  #convertCore(node: Record<string, unknown>, path: string, hint: string): JsonSchemaConversion {
    if (typeof node.$ref === "string") return this.#reference(node.$ref, path);
    if (Array.isArray(node.allOf)) {
      if (node.allOf.length !== 1)
        throw new UnsupportedSchemaError(
          "allOf with several schemas",
          path,
          "merge them into one object schema.",
        );
      return this.convert(node.allOf[0], `${path}.allOf[0]`, hint);
    }
    const arms = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
    if (arms) return this.#union(arms, path, hint);
    if ("const" in node) return literals([node.const], path);
    if (Array.isArray(node.enum)) return this.#enumeration(node.enum, node, path, hint);
    const types =
      typeof node.type === "string" ? [node.type] : Array.isArray(node.type) ? node.type : undefined;
    if (types === undefined)
      throw new UnsupportedSchemaError(
        "a schema without a type",
        path,
        "add `type` (or `enum`, `const`, `anyOf`, `$ref`).",
      );
    const options = types.map((type) => this.#typed(String(type), node, path, hint));
    if (options.length === 1 && options[0]) return options[0];
    return this.#unionOfConversions(options);
  }

  #typed(type: string, node: Record<string, unknown>, path: string, hint: string): JsonSchemaConversion {
    switch (type) {
      case "string":
        return { type: { kind: "primitive", name: "string" }, acceptsNull: false };
      case "integer":
        return { type: { kind: "primitive", name: "int" }, acceptsNull: false };
      case "number":
        return { type: { kind: "primitive", name: "float" }, acceptsNull: false };
      case "boolean":
        return { type: { kind: "primitive", name: "bool" }, acceptsNull: false };
      case "null":
        return { type: { kind: "primitive", name: "null" }, acceptsNull: true };
      case "array": {
        if (node.items === undefined || Array.isArray(node.items))
          throw new UnsupportedSchemaError(
            node.items === undefined ? "an array without items" : "tuple items",
            path,
            "give `items` one schema for every element.",
          );
        const item = this.convert(node.items, `${path}[]`, itemHint(hint));
        return {
          type: { kind: "list", item: item.type },
          acceptsNull: false,
          final: item.final ? adaptItems(() => item.final) : undefined,
          validate: item.validate ? validateItems(item.validate) : undefined,
        };
      }
      case "object":
        return this.#object(node, path, hint);
      default:
        throw new UnsupportedSchemaError(
          `the type "${type}"`,
          path,
          "use string, integer, number, boolean, null, array or object.",
        );
    }
  }

  #object(node: Record<string, unknown>, path: string, hint: string): JsonSchemaConversion {
    const cached = this.#objects.get(node);
    if (cached) return cached;
    const properties = node.properties as Record<string, unknown> | undefined;
    const additional = node.additionalProperties;
    if (properties === undefined || Object.keys(properties).length === 0) {
      if (typeof additional === "object" && additional !== null) {
        const value = this.convert(additional, `${path}{}`, hint);
        return {
          type: { kind: "map", key: { kind: "primitive", name: "string" }, value: value.type },
          acceptsNull: false,
          final: value.final ? adaptEntries(value.final) : undefined,
          validate: value.validate ? validateEntries(value.validate) : undefined,
        };
      }
      throw new UnsupportedSchemaError(
        "an object without properties",
        path,
        "list its `properties`, or give `additionalProperties` a schema for a map.",
      );
    }
    if (typeof additional === "object" && additional !== null)
      throw new UnsupportedSchemaError(
        "properties together with an additionalProperties schema",
        path,
        "use either fixed properties (a class) or additionalProperties (a map).",
      );
    const name = this.collector.reserve(typeof node.title === "string" ? node.title : hint);
    const declaration: Class = { name, fields: [], dynamic: false, constraints: [] };
    if (typeof node.description === "string") declaration.description = node.description;
    this.collector.classes.push(declaration);
    const slot: { final?: ValueAdapter | undefined; validate?: Validator | undefined } = {};
    const required = new Set(Array.isArray(node.required) ? node.required.map(String) : []);
    const keys = new Set(Object.keys(properties));
    const conversion: JsonSchemaConversion = {
      type: { kind: "class", name },
      acceptsNull: false,
      final: (value) => (slot.final ? slot.final(value) : value),
      validate: (value, at, issues) => slot.validate?.(value, at, issues),
      fits: (value) =>
        isRecord(value) &&
        Object.keys(value).every((key) => keys.has(key)) &&
        [...required].every((key) => key in value),
    };
    this.#objects.set(node, conversion);
    const finals: [string, ValueAdapter][] = [];
    const validators: [string, Validator][] = [];
    for (const [key, propertySchema] of Object.entries(properties)) {
      const property = this.convert(propertySchema, `${path}.${key}`, key);
      const description = (propertySchema as Record<string, unknown>).description;
      const isRequired = required.has(key);
      declaration.fields.push({
        name: key,
        type: isRequired ? property.type : unionOf([property.type, { kind: "primitive", name: "null" }]),
        ...(typeof description === "string" ? { description } : {}),
      });
      const fallback = (propertySchema as Record<string, unknown>).default;
      const adapt = isRequired ? property.final : missingAllowed(property, fallback);
      if (adapt) finals.push([key, adapt]);
      if (property.validate) validators.push([key, property.validate]);
    }
    slot.final = finals.length > 0 ? adaptFields(finals) : undefined;
    slot.validate =
      validators.length > 0
        ? (value, at, issues) => {
            if (typeof value !== "object" || value === null) return;
            for (const [key, validate] of validators) {
              const field = (value as Record<string, unknown>)[key];
              if (field !== undefined) validate(field, [...at, key], issues);
            }
          }
        : undefined;
    return conversion;
  }

  #enumeration(
    values: unknown[],
    node: Record<string, unknown>,
    path: string,
    hint: string,
  ): JsonSchemaConversion {
    const strings = values.filter((value) => typeof value === "string");
    const hasNull = values.includes(null);
    if (strings.length === 0 || strings.length + (hasNull ? 1 : 0) !== values.length)
      return literals(values, path);
    const name = this.collector.reserve(typeof node.title === "string" ? node.title : hint);
    this.collector.enums.push({
      name,
      dynamic: false,
      constraints: [],
      values: strings.map((value) => ({ name: value })),
      ...(typeof node.description === "string" ? { description: node.description } : {}),
    });
    const type: Type = { kind: "enum", name };
    return {
      type: hasNull ? unionOf([type, { kind: "primitive", name: "null" }]) : type,
      acceptsNull: hasNull,
    };
  }

  #union(arms: unknown[], path: string, hint: string): JsonSchemaConversion {
    return this.#unionOfConversions(
      arms.map((arm, index) => this.convert(arm, `${path}.anyOf[${index}]`, hint)),
    );
  }

  #unionOfConversions(options: JsonSchemaConversion[]): JsonSchemaConversion {
    // Which arm the parser read is not recorded in the value: the first arm the value fits is its arm,
    // for the adapter (missing properties) and for the bounds alike.
    const armOf = (value: unknown): JsonSchemaConversion | undefined =>
      options.find((option) => fitsOf(option)(value));
    const adapts = options.some((option) => option.final);
    const validates = options.some((option) => option.validate);
    return {
      type: unionOf(options.map((option) => option.type)),
      acceptsNull: options.some((option) => option.acceptsNull),
      final: adapts
        ? (value) => {
            const adapt = armOf(value)?.final;
            return adapt ? adapt(value) : value;
          }
        : undefined,
      validate: validates ? (value, at, issues) => armOf(value)?.validate?.(value, at, issues) : undefined,
      fits: (value) => armOf(value) !== undefined,
    };
  }

  #reference(reference: string, path: string): JsonSchemaConversion {
    const match = /^#(?:\/(\$defs|definitions)\/(.+))?$/.exec(reference);
    if (!match)
      throw new UnsupportedSchemaError(
        `the $ref "${reference}"`,
        path,
        "point $ref into this schema's $defs (#/$defs/Name).",
      );
    const [, section, key] = match;
    const target =
      section && key
        ? (this.root[section] as Record<string, unknown> | undefined)?.[decodeURIComponent(key)]
        : this.root;
    if (target === undefined)
      throw new UnsupportedSchemaError(
        `the $ref "${reference}"`,
        path,
        `no such definition; add it under ${section ?? "$defs"}.`,
      );
    const hint = key ? decodeURIComponent(key) : "Output";
    const targetNode = target as Record<string, unknown>;
    // An object definition is a class: recursion refers to it by name, through the object cache.
    if (targetNode.type === "object" && targetNode.properties !== undefined && this.#objects.has(targetNode))
      return this.#objects.get(targetNode) as JsonSchemaConversion;
    const slot = this.#references.get(reference);
    if (slot?.result) return slot.result;
    if (slot?.open) {
      slot.alias ??= this.collector.reserve(hint);
      return {
        type: { kind: "alias", name: slot.alias },
        acceptsNull: false,
        final: (value) => (slot.result?.final ? slot.result.final(value) : value),
        validate: (value, at, issues) => slot.result?.validate?.(value, at, issues),
      };
    }
    const fresh: { alias?: string; result?: JsonSchemaConversion; open: boolean } = { open: true };
    this.#references.set(reference, fresh);
    const converted = this.convert(target, reference, hint);
    fresh.open = false;
    fresh.result = converted;
    if (fresh.alias !== undefined) {
      this.collector.aliases.push({ name: fresh.alias, type: converted.type });
      fresh.result = { ...converted, type: { kind: "alias", name: fresh.alias } };
    }
    return fresh.result;
  }
}

const SUBSET =
  "sapling-llm/json-schema reads the subset used by OpenAI structured outputs, MCP and OpenAPI (type, properties, required, additionalProperties, items, enum, const, anyOf/oneOf, $ref/$defs, nullable, description, default and simple bounds).";

const KEYWORD_HINTS: Record<string, string> = {
  patternProperties: "use additionalProperties with one schema for a map.",
  prefixItems: "tuples are not supported; use items with one schema (anyOf for several kinds).",
  if: "conditional schemas are not supported; use anyOf of the cases.",
  not: "negated schemas are not supported; describe what is allowed instead.",
  dependentRequired: "not supported; make the fields optional and check them after parsing.",
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A conversion's `fits`, or one read off its type's kind (a string for `string`, a list for `T[]`, …). */
function fitsOf(conversion: JsonSchemaConversion): (value: unknown) => boolean {
  if (conversion.fits) return conversion.fits;
  const type = conversion.type;
  return (value) => fitsKind(type, value);
}

function fitsKind(type: Type, value: unknown): boolean {
  switch (type.kind) {
    case "primitive":
      if (type.name === "string") return typeof value === "string";
      if (type.name === "int") return Number.isInteger(value);
      if (type.name === "float") return typeof value === "number";
      if (type.name === "bool") return typeof value === "boolean";
      return value === null;
    case "literal":
      return value === type.value;
    case "enum":
      return typeof value === "string";
    case "list":
      return Array.isArray(value);
    case "map":
      return isRecord(value);
    case "optional":
      return value === null || fitsKind(type.inner, value);
    case "union":
      return type.options.some((option) => fitsKind(option, value));
    default:
      return true;
  }
}

function literals(values: unknown[], path: string): JsonSchemaConversion {
  const types = values.map((value): Type => {
    if (value === null) return { kind: "primitive", name: "null" };
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
      return { kind: "literal", value };
    throw new UnsupportedSchemaError(
      `the value ${JSON.stringify(value)} in enum/const`,
      path,
      "use strings, numbers, booleans or null.",
    );
  });
  return { type: unionOf(types), acceptsNull: values.includes(null) };
}

/** A property that may be left out: `null` from the parser becomes its `default`, or absent. */
function missingAllowed(property: JsonSchemaConversion, fallback: unknown): ValueAdapter | undefined {
  const inner = property.final;
  if (property.acceptsNull && fallback === undefined) return inner;
  return (value) => {
    if (value === null) return fallback === undefined ? undefined : structuredClone(fallback);
    return inner ? inner(value) : value;
  };
}

function validateItems(validate: Validator): Validator {
  return (value, at, issues) => {
    if (!Array.isArray(value)) return;
    for (const [index, item] of value.entries()) validate(item, [...at, index], issues);
  };
}

function validateEntries(validate: Validator): Validator {
  return (value, at, issues) => {
    if (typeof value !== "object" || value === null) return;
    for (const [key, entry] of Object.entries(value)) validate(entry, [...at, key], issues);
  };
}

function combine(first: Validator | undefined, second: Validator | undefined): Validator | undefined {
  if (!first) return second;
  if (!second) return first;
  return (value, at, issues) => {
    first(value, at, issues);
    second(value, at, issues);
  };
}

/** Converts a root JSON Schema; `name` names the root class or enum when it has no `title`. */
export function convertJsonSchema(
  schema: unknown,
  name: string,
  collector = new TypeCollector(),
): { collector: TypeCollector; root: JsonSchemaConversion } {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema))
    throw new TypeError(
      `Expected a JSON Schema object, but got ${Array.isArray(schema) ? "an array" : String(schema)}.`,
    );
  const converter = new JsonSchemaConverter(collector, schema as Record<string, unknown>);
  return { collector, root: converter.convert(schema, "$", name) };
}

export type { SchemaIssue };
