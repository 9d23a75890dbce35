/**
 * JSON Schema (draft-04 to 2020-12, and OpenAPI's `nullable`) → the Sapling type the parser reads
 * toward. Only the shape is converted here (json-schema-keywords.ts says which keywords shape the type);
 * every other rule is the validator's (schema-validator.ts), which checks the parsed value against the
 * whole schema as written. A keyword outside the JSON Schema vocabulary is ignored with a warning; a
 * schema the parser cannot read toward (a remote `$ref`, a `false` schema) is an `UnsupportedSchemaError`
 * naming the construct and where it is.
 */
import { type Class, type Type, unionOf } from "../ir/index.js";
import {
  itemHint,
  type SchemaIssue,
  setEntry,
  TypeCollector,
  UnsupportedSchemaError,
} from "../typed-schema/index.js";
import { constraintNote } from "./constraint-note.js";
import { type FinalAdapter, type FlagIndex, fieldStep, isRecord } from "./final-adapter.js";
import {
  ARRAY_KEYWORDS,
  KEYWORD_ROLES,
  NUMBER_KEYWORDS,
  OBJECT_KEYWORDS,
  SHAPE_KEYWORDS,
  STRING_KEYWORDS,
} from "./json-schema-keywords.js";
import { mergeAllOf } from "./merge-all-of.js";
import { ReferenceResolver } from "./resolve-reference.js";

/** A JSON Schema document or sub-schema, as parsed JSON. */
export type JsonSchemaInput = Record<string, unknown> | boolean;

/** One sub-schema converted: its type, whether `null` is allowed, and what runs on the final value. */
export interface JsonSchemaConversion {
  type: Type;
  acceptsNull: boolean;
  final?: FinalAdapter | undefined;
  /** Whether a parsed value is of this sub-schema's kind (an object: its required properties present). */
  fits?: ((value: unknown) => boolean) | undefined;
}

type SchemaNode = Record<string, unknown>;
type ReferenceSlot = { alias?: string; result?: JsonSchemaConversion; open: boolean };

const NULL: Type = { kind: "primitive", name: "null" };

export class JsonSchemaConverter {
  /** Keywords ignored because they are not JSON Schema (vendor `x-*`, `javaType`, typos), one line each. */
  readonly warnings: string[] = [];
  readonly #references = new Map<unknown, ReferenceSlot>();
  readonly #objects = new Map<object, JsonSchemaConversion>();
  /**
   * Every sub-schema converted once: a schema reached again (through another `$ref` sibling, an `anyOf`
   * arm with keywords merged in, a shared definition) is the same type, and converting it again would
   * make a large schema's conversion grow with the number of paths to each node, not the nodes.
   */
  readonly #converted = new Map<object, JsonSchemaConversion>();
  /** Sub-schemas being converted now (a cycle back to one becomes an alias of it). */
  readonly #open = new Map<object, ReferenceSlot>();
  /** How many sub-schemas deep the conversion is (bounded: the walk is recursive). */
  #depth = 0;
  readonly #merged = new Map<object, SchemaNode>();
  readonly #resolver: ReferenceResolver;
  #jsonValue: Type | undefined;

  constructor(
    readonly collector: TypeCollector,
    root: SchemaNode,
  ) {
    this.#resolver = new ReferenceResolver(root);
  }

  convert(schema: unknown, path: string, hint: string): JsonSchemaConversion {
    if (schema === true) return this.#anyValue();
    if (schema === false)
      throw new UnsupportedSchemaError(
        "a `false` schema (no value is allowed)",
        path,
        "remove the property, or give it a schema that some value satisfies.",
      );
    if (typeof schema !== "object" || schema === null || Array.isArray(schema))
      throw new UnsupportedSchemaError(
        `the schema ${JSON.stringify(schema)}`,
        path,
        "a schema is an object (or true); write { type: … }.",
      );
    const node = schema as SchemaNode;
    const known = this.#converted.get(node);
    if (known) return known;
    // A schema reached again while it is being converted (through an `anyOf` arm whose `$ref` was merged
    // with the keywords beside it, so no reference of its own marks the cycle): it names itself.
    const open = this.#open.get(node);
    if (open) return selfReference(open, () => this.collector.reserve(hint));
    this.#warnUnknown(node, path);
    if (this.#depth >= MAX_DEPTH)
      throw new UnsupportedSchemaError(
        `a schema nested more than ${MAX_DEPTH} levels deep`,
        path,
        "name the inner schemas under $defs and refer to them with $ref.",
      );
    const slot: ReferenceSlot = { open: true };
    this.#open.set(node, slot);
    this.#depth += 1;
    let core: JsonSchemaConversion;
    try {
      core = this.#convertCore(this.#shapeOf(node, path), path, hint);
    } finally {
      this.#depth -= 1;
      this.#open.delete(node);
    }
    const nullable = node.nullable === true;
    const inner = core.final;
    const conversion: JsonSchemaConversion = {
      type: nullable ? unionOf([core.type, NULL]) : core.type,
      acceptsNull: core.acceptsNull || nullable,
      // A string the parser made from an object or a list (`JsonToString`) is put back as the model wrote
      // it, for the validator to judge: under `anyOf [string, object]` it is an object that failed its arm.
      final: (value, at, flags) => {
        if (typeof value === "string" && flags.get(at)?.has("JsonToString")) return writtenJson(value);
        return inner ? inner(value, at, flags) : value;
      },
      fits: (value) => (value === null && nullable) || fitsOf(core)(value),
    };
    const result = closeSlot(slot, conversion, this.collector);
    this.#converted.set(node, result);
    return result;
  }

  #warnUnknown(node: SchemaNode, path: string): void {
    for (const key of Object.keys(node)) {
      if (Object.hasOwn(KEYWORD_ROLES, key)) continue;
      this.warnings.push(`${path}: "${key}" is not a JSON Schema keyword; ignored.`);
    }
  }

  /**
   * The node with `allOf` merged in and a `$ref`'s shape-giving siblings merged with its target, so the
   * rest of the converter sees one schema; cached per node, so a class made from it is made once.
   */
  #shapeOf(node: SchemaNode, path: string): SchemaNode {
    const cached = this.#merged.get(node);
    if (cached) return cached;
    let shaped = node;
    const hasAllOf = Array.isArray(node.allOf);
    const refWithShape = typeof node.$ref === "string" && hasShape(node, ["$ref"]);
    if (hasAllOf || refWithShape) {
      const { allOf, $ref, ...rest } = node;
      const arms: unknown[] = [rest, ...(Array.isArray(allOf) ? allOf : [])];
      if (typeof $ref === "string") arms.push({ $ref });
      const merged = mergeAllOf(arms, (reference) => this.#resolver.resolve(reference, path));
      // Arms with no type in common: the first arm's shape is read, the validator checks every arm.
      shaped = merged ?? firstShape(arms);
    }
    this.#merged.set(node, shaped);
    return shaped;
  }

  #convertCore(node: SchemaNode, path: string, hint: string): JsonSchemaConversion {
    if (typeof node.$ref === "string") return this.#reference(node.$ref, path);
    if (node.$recursiveRef === "#") return this.#reference("#", path);
    const arms = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
    if (arms && arms.length > 0 && arms.some((arm) => isRecord(arm) && hasShape(arm, []))) {
      const { anyOf, oneOf, ...siblings } = node;
      // Keywords beside the arms apply to every arm: each arm is read with them merged in.
      const distributed = hasShape(siblings, [])
        ? arms.map(
            (arm) =>
              mergeAllOf([siblings, arm], (reference) => this.#resolver.resolve(reference, path)) ?? arm,
          )
        : arms;
      return this.#union(distributed.map((arm, index) => this.convert(arm, `${path}.anyOf[${index}]`, hint)));
    }
    if ("const" in node) return this.#literals([node.const], node, path);
    if (Array.isArray(node.enum)) return this.#enumeration(node, path, hint);
    const types = typesOf(node);
    if (types === undefined) return this.#anyValue();
    const options = types.map((type) => this.#typed(type, node, path, hint));
    if (options.length === 1 && options[0]) return options[0];
    return this.#union(options);
  }

  #typed(type: string, node: SchemaNode, path: string, hint: string): JsonSchemaConversion {
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
        return { type: NULL, acceptsNull: true };
      case "array":
        return this.#array(node, path, hint);
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

  #array(node: SchemaNode, path: string, hint: string): JsonSchemaConversion {
    // Tuples (`prefixItems`, or draft-07 `items: [...]`) are read as lists of any of their item schemas;
    // the validator checks each position.
    const positional = Array.isArray(node.prefixItems)
      ? node.prefixItems
      : Array.isArray(node.items)
        ? node.items
        : [];
    const rest = Array.isArray(node.items) ? node.additionalItems : node.items;
    const schemas = [...positional, ...(rest === undefined || rest === false ? [] : [rest])];
    const items =
      schemas.length === 0
        ? [this.#anyValue()]
        : schemas.map((schema, index) => this.convert(schema, `${path}[${index}]`, itemHint(hint)));
    const item = items.length === 1 && items[0] ? items[0] : this.#union(items);
    const adapt = item.final;
    return {
      type: { kind: "list", item: item.type },
      acceptsNull: false,
      final: adapt
        ? (value, at, flags) => {
            if (!Array.isArray(value)) return value;
            let copy: unknown[] | undefined;
            for (const [index, entry] of value.entries()) {
              const after = adapt(entry, `${at}[${index}]`, flags);
              if (after === entry) continue;
              copy ??= [...value];
              copy[index] = after;
            }
            return copy ?? value;
          }
        : undefined,
    };
  }

  #object(node: SchemaNode, path: string, hint: string): JsonSchemaConversion {
    const cached = this.#objects.get(node);
    if (cached) return cached;
    const properties = isRecord(node.properties) ? { ...node.properties } : {};
    const required = new Set(Array.isArray(node.required) ? node.required.map(String) : []);
    const extra = this.#extraValue(node, path, hint);
    // A required name with no property schema is still a field (typed by additionalProperties, if any).
    for (const name of required)
      if (!Object.hasOwn(properties, name)) properties[name] = extra?.schema ?? true;
    if (Object.keys(properties).length === 0) {
      const value = extra?.conversion ?? this.#anyValue();
      const adapt = value.final;
      const map: JsonSchemaConversion = {
        type: { kind: "map", key: { kind: "primitive", name: "string" }, value: value.type },
        acceptsNull: false,
        final: adapt
          ? (entries, at, flags) => {
              if (!isRecord(entries)) return entries;
              let copy: Record<string, unknown> | undefined;
              for (const [key, entry] of Object.entries(entries)) {
                const after = adapt(entry, at + fieldStep(key), flags);
                if (after === entry) continue;
                copy ??= { ...entries };
                setEntry(copy, key, after);
              }
              return copy ?? entries;
            }
          : undefined,
        fits: isRecord,
      };
      this.#objects.set(node, map);
      return map;
    }
    const name = this.collector.reserve(typeof node.title === "string" ? node.title : hint);
    const declaration: Class = { name, fields: [], dynamic: false, constraints: [] };
    if (typeof node.description === "string") declaration.description = node.description;
    this.collector.classes.push(declaration);
    const fields: ObjectField[] = [];
    const conversion: JsonSchemaConversion = {
      type: { kind: "class", name },
      acceptsNull: false,
      final: (value, at, flags) => adaptObject(fields, value, at, flags),
      fits: (value) => isRecord(value) && [...required].every((key) => Object.hasOwn(value, key)),
    };
    this.#objects.set(node, conversion);
    for (const [key, propertySchema] of Object.entries(properties)) {
      const property = this.convert(propertySchema, `${path}.${key}`, key);
      const isRequired = required.has(key);
      const propertyNode = isRecord(propertySchema) ? propertySchema : {};
      const description = [
        typeof propertyNode.description === "string" ? propertyNode.description : undefined,
        constraintNote(propertyNode),
      ]
        .filter((line) => line !== undefined)
        .join(" ");
      declaration.fields.push({
        name: key,
        type: isRequired ? property.type : unionOf([property.type, NULL]),
        ...(description === "" ? {} : { description }),
      });
      fields.push({ key, property });
    }
    return conversion;
  }

  /** The values of keys beyond `properties`: `patternProperties` and an `additionalProperties` schema. */
  #extraValue(
    node: SchemaNode,
    path: string,
    hint: string,
  ): { schema: unknown; conversion: JsonSchemaConversion } | undefined {
    const schemas: unknown[] = isRecord(node.patternProperties) ? Object.values(node.patternProperties) : [];
    if (isRecord(node.additionalProperties)) schemas.push(node.additionalProperties);
    if (schemas.length === 0) return undefined;
    if (schemas.length === 1)
      return { schema: schemas[0], conversion: this.convert(schemas[0], `${path}{}`, itemHint(hint)) };
    const arms = schemas.map((schema, index) => this.convert(schema, `${path}{}[${index}]`, itemHint(hint)));
    return { schema: { anyOf: schemas }, conversion: this.#union(arms) };
  }

  #enumeration(node: SchemaNode, path: string, hint: string): JsonSchemaConversion {
    const declared = typesOf(node, false);
    const all = node.enum as unknown[];
    // An enum beside a type lists only values of that type: the others can never be valid.
    const values = declared ? all.filter((value) => declared.some((type) => isOfType(value, type))) : all;
    if (values.length === 0)
      throw new UnsupportedSchemaError(
        `an enum with no value of its type (${declared?.join(", ")})`,
        path,
        "no value can satisfy it; make the enum's values match the type, or drop the type.",
      );
    const strings = values.filter((value) => typeof value === "string");
    const hasNull = values.includes(null);
    if (strings.length === 0 || strings.length + (hasNull ? 1 : 0) !== values.length)
      return this.#literals(values, node, path);
    const name = this.collector.reserve(typeof node.title === "string" ? node.title : hint);
    this.collector.enums.push({
      name,
      dynamic: false,
      constraints: [],
      values: [...new Set(strings)].map((value) => ({ name: value })),
      ...(typeof node.description === "string" ? { description: node.description } : {}),
    });
    const type: Type = { kind: "enum", name };
    return { type: hasNull ? unionOf([type, NULL]) : type, acceptsNull: hasNull };
  }

  #literals(values: unknown[], node: SchemaNode, path: string): JsonSchemaConversion {
    const declared = typesOf(node, false);
    if (declared && !values.some((value) => declared.some((type) => isOfType(value, type))))
      throw new UnsupportedSchemaError(
        `a const/enum with no value of its type (${declared.join(", ")})`,
        path,
        "no value can satisfy it; make the value match the type, or drop the type.",
      );
    // Objects and lists among the values: read any JSON value, the validator compares it with them.
    if (values.some((value) => typeof value === "object" && value !== null)) return this.#anyValue();
    const types = values.map(
      (value): Type => (value === null ? NULL : { kind: "literal", value: value as string }),
    );
    return { type: unionOf(types), acceptsNull: values.includes(null) };
  }

  #union(options: JsonSchemaConversion[]): JsonSchemaConversion {
    // Which arm the parser read is not recorded in the value: the first arm the value fits is its arm.
    const armOf = (value: unknown): JsonSchemaConversion | undefined =>
      options.find((option) => fitsOf(option)(value));
    return {
      type: unionOf(options.map((option) => option.type)),
      acceptsNull: options.some((option) => option.acceptsNull),
      final: options.some((option) => option.final)
        ? (value, at, flags) => {
            const adapt = armOf(value)?.final;
            return adapt ? adapt(value, at, flags) : value;
          }
        : undefined,
      fits: (value) => armOf(value) !== undefined,
    };
  }

  /** Any JSON value: `{}`, `true`, a free-form object's values, an array without `items`. */
  #anyValue(): JsonSchemaConversion {
    if (this.#jsonValue === undefined) {
      const name = this.collector.reserve("JsonValue");
      const self: Type = { kind: "alias", name };
      this.collector.aliases.push({
        name,
        type: unionOf([
          { kind: "primitive", name: "string" },
          { kind: "primitive", name: "int" },
          { kind: "primitive", name: "float" },
          { kind: "primitive", name: "bool" },
          NULL,
          { kind: "list", item: self },
          { kind: "map", key: { kind: "primitive", name: "string" }, value: self },
        ]),
      });
      this.#jsonValue = self;
    }
    return { type: this.#jsonValue, acceptsNull: true, fits: () => true };
  }

  #reference(reference: string, path: string): JsonSchemaConversion {
    const target = this.#resolver.resolve(reference, path);
    const hint = referenceHint(reference);
    if (isRecord(target)) {
      const shaped = this.#merged.get(target) ?? target;
      // An object definition is a class: recursion refers to it by name, through the object cache.
      const known = this.#objects.get(shaped);
      if (known) return known;
    }
    const slot = this.#references.get(target);
    if (slot?.result) return slot.result;
    if (slot?.open) return selfReference(slot, () => this.collector.reserve(hint));
    const fresh: ReferenceSlot = { open: true };
    this.#references.set(target, fresh);
    return closeSlot(fresh, this.convert(target, reference, hint), this.collector);
  }
}

/**
 * How deep sub-schemas may nest. The walk is recursive, and a real schema nests a few dozen levels at
 * most; deeper is a generated schema that would overflow the call stack (a clear error instead).
 */
const MAX_DEPTH = 400;

/** A reference to a schema still being converted: an alias named now, defined when it is done. */
function selfReference(slot: ReferenceSlot, name: () => string): JsonSchemaConversion {
  slot.alias ??= name();
  return {
    type: { kind: "alias", name: slot.alias },
    acceptsNull: false,
    final: (value, at, flags) => (slot.result?.final ? slot.result.final(value, at, flags) : value),
    fits: (value) => (slot.result ? fitsOf(slot.result)(value) : true),
  };
}

/** A schema's conversion is done: an alias named while it was open gets its definition. */
function closeSlot(
  slot: ReferenceSlot,
  converted: JsonSchemaConversion,
  collector: TypeCollector,
): JsonSchemaConversion {
  slot.open = false;
  slot.result = converted;
  if (slot.alias !== undefined) {
    collector.aliases.push({ name: slot.alias, type: converted.type });
    slot.result = { ...converted, type: { kind: "alias", name: slot.alias } };
  }
  return slot.result;
}

/** One property of a class, with what its final value needs. */
interface ObjectField {
  key: string;
  property: JsonSchemaConversion;
}

/**
 * A class's final value. The parser gives `null` for a field the model left out (flagged
 * `DefaultFromMissing`): it is left out again (a `default` is an annotation in JSON Schema, as its
validators read it: it never fills the value). A field the model wrote but that
 * did not fit (`DefaultFromInvalid`) stays `null` — never the default — for the validator to judge, as
 * does an explicit `null` the model wrote. A required list left out (`EmptyFromMissing`) is left out, and
 * the validator reports it missing.
 */
function adaptObject(fields: readonly ObjectField[], value: unknown, at: string, flags: FlagIndex): unknown {
  if (!isRecord(value)) return value;
  let copy: Record<string, unknown> | undefined;
  for (const { key, property } of fields) {
    const path = at + fieldStep(key);
    const before = value[key];
    const flagged = flags.get(path);
    let after: unknown;
    if (flagged?.has("DefaultFromMissing") || flagged?.has("EmptyFromMissing") || before === undefined)
      after = undefined;
    else if (flagged?.has("DefaultFromInvalid")) after = null;
    else after = property.final ? property.final(before, path, flags) : before;
    if (after === before && (after === undefined || Object.hasOwn(value, key))) continue;
    copy ??= { ...value };
    if (after === undefined) delete copy[key];
    else setEntry(copy, key, after);
  }
  return copy ?? value;
}

/** `type` as a list; without one, read off the keywords the schema uses (`properties` → object, …). */
function typesOf(node: SchemaNode, infer = true): string[] | undefined {
  if (typeof node.type === "string") return [node.type];
  if (Array.isArray(node.type) && node.type.length > 0) return node.type.map(String);
  if (!infer) return undefined;
  const uses = (keywords: readonly string[]): boolean => keywords.some((keyword) => keyword in node);
  if (uses(OBJECT_KEYWORDS)) return ["object"];
  if (uses(ARRAY_KEYWORDS)) return ["array"];
  if (uses(STRING_KEYWORDS)) return ["string"];
  if (uses(NUMBER_KEYWORDS)) return ["number"];
  return undefined;
}

function isOfType(value: unknown, type: string): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number";
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return isRecord(value);
    default:
      return true;
  }
}

/** Whether a schema gives a shape (a type, properties, arms, …) beyond the keywords in `except`. */
function hasShape(node: SchemaNode, except: readonly string[]): boolean {
  return (
    SHAPE_KEYWORDS.some((keyword) => keyword in node && !except.includes(keyword)) ||
    OBJECT_KEYWORDS.some((keyword) => keyword in node && keyword !== "required") ||
    ARRAY_KEYWORDS.some((keyword) => keyword in node)
  );
}

function firstShape(arms: readonly unknown[]): SchemaNode {
  for (const arm of arms) if (isRecord(arm) && hasShape(arm, [])) return arm;
  return {};
}

function referenceHint(reference: string): string {
  const last = reference
    .split(/[/#]/)
    .filter((part) => part !== "")
    .pop();
  return last ? decodeURIComponent(last).replace(/\.json$/, "") : "Output";
}

/** The JSON text a `JsonToString` string holds, as a value again (the text itself when it is not JSON). */
function writtenJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
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

/** Converts a root JSON Schema; `name` names the root class or enum when it has no `title`. */
export function convertJsonSchema(
  schema: unknown,
  name: string,
  collector = new TypeCollector(),
): { collector: TypeCollector; root: JsonSchemaConversion; warnings: string[] } {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema))
    throw new TypeError(
      `Expected a JSON Schema object, but got ${Array.isArray(schema) ? "an array" : String(schema)}.`,
    );
  const converter = new JsonSchemaConverter(collector, schema as SchemaNode);
  const root = converter.convert(schema, "$", name);
  return { collector, root, warnings: converter.warnings };
}

export type { SchemaIssue };
