/**
 * Zod 4 schema → Sapling type, in one walk that also builds the steps after parsing (the adapters: a
 * missing `.optional()` field becomes `undefined`, a numeric enum's name its number). Each Zod kind has its
 * own small handler in a table; wrappers (`optional`, `nullable`, `default`, …) pass through to their inner
 * schema. The mapping and its reasons are in docs/decisions/0004-zod-json-schema-and-ai-sdk-entry-points.md.
 */
import { type Class, type Enum, type Type, unionOf } from "../ir/index.js";
import {
  adaptEntries,
  adaptFields,
  adaptItems,
  itemHint,
  TypeCollector,
  UnsupportedSchemaError,
  type ValueAdapter,
} from "../typed-schema/index.js";
import { asZodNode, declaredNameOf, descriptionOf, type ZodDefinition, type ZodNode } from "./zod-node.js";

/** One schema node converted: its type, whether Zod accepts `null` there, and its adapters (if any). */
export interface ZodConversion {
  type: Type;
  acceptsNull: boolean;
  final?: ValueAdapter | undefined;
  partial?: ValueAdapter | undefined;
}

interface Walk {
  node: ZodNode;
  path: string;
  /** A name for a class or enum made here, when the schema declares none (the field's key). */
  hint: string;
}

type Handler = (converter: ZodConverter, walk: Walk, def: ZodDefinition) => ZodConversion;

const INTEGER_FORMATS = new Set(["safeint", "int32", "uint32"]);

/** Converts one root schema (and all it reaches) into declarations in a `TypeCollector`. */
export class ZodConverter {
  readonly #objects = new Map<ZodNode, ZodConversion>();
  readonly #enums = new Map<ZodNode, ZodConversion>();
  readonly #lazies = new Map<ZodNode, { hint: string; alias?: string; result?: ZodConversion }>();
  /** Objects whose fields are being converted, and those of them a field reached again. */
  readonly #open = new Set<ZodNode>();
  readonly #recursive = new Set<ZodNode>();

  constructor(readonly collector: TypeCollector) {}

  convert(schema: unknown, path: string, hint: string): ZodConversion {
    const node = asZodNode(schema, path);
    const def = node._zod.def;
    const handler = handlers[def.type];
    if (handler === undefined) throw unsupported(def.type, path);
    return handler(this, { node, path, hint }, def);
  }

  object(walk: Walk, def: ZodDefinition): ZodConversion {
    const cached = this.#objects.get(walk.node);
    if (cached) {
      if (this.#open.has(walk.node)) this.#recursive.add(walk.node);
      return cached;
    }
    const name = this.collector.reserve(declaredNameOf(walk.node) ?? walk.hint);
    const declaration: Class = { name, fields: [], dynamic: false, constraints: [] };
    const description = descriptionOf(walk.node);
    if (description !== undefined) declaration.description = description;
    this.collector.classes.push(declaration);
    // Registered before the fields, so a field that reaches this object again (recursion) finds it; such a
    // field adapts through the slot, filled once the fields are known.
    const slot: { final?: ValueAdapter | undefined; partial?: ValueAdapter | undefined } = {};
    const type: Type = { kind: "class", name };
    const throughSlot: ZodConversion = {
      type,
      acceptsNull: false,
      final: (value) => (slot.final ? slot.final(value) : value),
      partial: (value) => (slot.partial ? slot.partial(value) : value),
    };
    this.#objects.set(walk.node, throughSlot);
    this.#open.add(walk.node);
    const finals: [string, ValueAdapter][] = [];
    const partials: [string, ValueAdapter][] = [];
    for (const [key, fieldSchema] of Object.entries(def.shape as Record<string, unknown>)) {
      const field = this.convert(fieldSchema, `${walk.path}.${key}`, key);
      const fieldDescription = describedThrough(asZodNode(fieldSchema, walk.path));
      declaration.fields.push({
        name: key,
        type: field.type,
        ...(fieldDescription === undefined ? {} : { description: fieldDescription }),
      });
      if (field.final) finals.push([key, field.final]);
      if (field.partial) partials.push([key, field.partial]);
    }
    this.#open.delete(walk.node);
    slot.final = finals.length > 0 ? adaptFields(finals) : undefined;
    slot.partial = partials.length > 0 ? adaptFields(partials) : undefined;
    if (this.#recursive.has(walk.node)) return throughSlot;
    // Nothing reached this object again while its fields were read: callers adapt only if a field needs it.
    const settled: ZodConversion = { type, acceptsNull: false, final: slot.final, partial: slot.partial };
    this.#objects.set(walk.node, settled);
    return settled;
  }

  enumeration(walk: Walk, def: ZodDefinition): ZodConversion {
    const cached = this.#enums.get(walk.node);
    if (cached) return cached;
    const entries = def.entries as Record<string, string | number>;
    const name = this.collector.reserve(declaredNameOf(walk.node) ?? walk.hint);
    // A TypeScript numeric enum lists its reverse mappings too (`{ 0: "Up", Up: 0 }`); Zod skips them.
    const numbers = new Set(Object.values(entries).filter((value) => typeof value === "number"));
    const members = Object.entries(entries).filter(([key]) => !numbers.has(Number(key)) || key === "");
    const byName = new Map<string, number>();
    const declaration: Enum = {
      name,
      dynamic: false,
      constraints: [],
      // The model writes a string value as it is; a number's meaning is its key (`Up`, not `0`).
      values: members.map(([key, value]) => {
        if (typeof value === "number") byName.set(key, value);
        return { name: typeof value === "number" ? key : value };
      }),
    };
    const description = descriptionOf(walk.node);
    if (description !== undefined) declaration.description = description;
    this.collector.enums.push(declaration);
    const toNumber: ValueAdapter | undefined =
      byName.size === 0
        ? undefined
        : (value) => (typeof value === "string" ? (byName.get(value) ?? value) : value);
    const conversion: ZodConversion = {
      type: { kind: "enum", name },
      acceptsNull: false,
      final: toNumber,
      partial: toNumber,
    };
    this.#enums.set(walk.node, conversion);
    return conversion;
  }

  lazy(walk: Walk): ZodConversion {
    const inner = lazyInner(walk.node);
    // Recursion through an object needs no alias: the class refers to itself by name.
    if (asZodNode(inner, walk.path)._zod.def.type === "object")
      return this.convert(inner, walk.path, walk.hint);
    const slot = this.#lazies.get(walk.node);
    if (slot?.result) return slot.result;
    if (slot) {
      // Reached again while being converted: recursion outside a class, through a `type X = …` alias.
      slot.alias ??= this.collector.reserve(declaredNameOf(walk.node) ?? slot.hint);
      return {
        type: { kind: "alias", name: slot.alias },
        acceptsNull: false,
        final: (value) => {
          const adapt = slot.result?.final;
          return adapt ? adapt(value) : value;
        },
        partial: (value) => {
          const adapt = slot.result?.partial;
          return adapt ? adapt(value) : value;
        },
      };
    }
    const fresh: { hint: string; alias?: string; result?: ZodConversion } = { hint: walk.hint };
    this.#lazies.set(walk.node, fresh);
    const converted = this.convert(inner, walk.path, walk.hint);
    if (fresh.alias === undefined) {
      fresh.result = converted;
      return converted;
    }
    this.collector.aliases.push({ name: fresh.alias, type: converted.type });
    fresh.result = { ...converted, type: { kind: "alias", name: fresh.alias } };
    return fresh.result;
  }
}

/** A field's description: on the field schema or on what it wraps (`z.string().describe(…).optional()`). */
function describedThrough(node: ZodNode): string | undefined {
  for (let current: ZodNode | undefined = node; current; ) {
    const description = descriptionOf(current);
    if (description !== undefined) return description;
    const def: ZodDefinition = current._zod.def;
    const inner: unknown = WRAPPERS.has(def.type)
      ? def.innerType
      : def.type === "pipe"
        ? pipeInput(def)
        : undefined;
    current = inner === undefined ? undefined : asZodNode(inner, "$");
  }
  return undefined;
}

const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "catch", "readonly", "nonoptional"]);

function lazyInner(node: ZodNode): unknown {
  // Zod caches the getter's result as `innerType`; reading it keeps one schema object per lazy.
  const cached = node._zod.innerType;
  if (cached !== undefined) return cached;
  return (node._zod.def.getter as () => unknown)();
}

/** `z.string().transform(f)` is read as its input; `z.preprocess(f, schema)` as its output schema. */
function pipeInput(def: ZodDefinition): unknown {
  const input = def.in as ZodNode;
  return input._zod.def.type === "transform" ? def.out : input;
}

/** A nullable-or-optional type, without doubling an optional. */
function optionalOf(type: Type): Type {
  return type.kind === "optional" ? type : { kind: "optional", inner: type };
}

function unsupported(kind: string, path: string): UnsupportedSchemaError {
  const hint =
    HINTS[kind] ?? "describe this value with strings, numbers, booleans, enums, objects and arrays.";
  return new UnsupportedSchemaError(`z.${kind}()`, path, hint);
}

const HINTS: Record<string, string> = {
  any: "a model's answer needs a shape to be read into; give the field a concrete type (z.string() for free text).",
  unknown:
    "a model's answer needs a shape to be read into; give the field a concrete type (z.string() for free text).",
  date: "text has no dates; use z.iso.date() or z.iso.datetime() (a string), and `.transform((text) => new Date(text))` if you want a Date.",
  bigint: "use z.int() (a safe integer), or z.string() with a transform to BigInt.",
  intersection: "merge the objects into one: z.object({ ...a.shape, ...b.shape }) or a.extend(b.shape).",
  map: "use z.record(z.string(), value): a model writes objects, not Maps.",
  set: "use z.array(item): a model writes lists, not Sets.",
  undefined: "a model cannot write undefined; make the field .optional() instead.",
  void: "a model cannot write undefined; make the field .optional() instead.",
  never: "a field nothing can fill cannot be parsed; remove it.",
  transform: "a transform needs an input schema: write it as z.string().transform(…) (a pipe).",
  custom: "z.custom() has no shape the parser can read toward; use a concrete schema with .refine().",
  symbol: "a model writes text, not symbols.",
  function: "a model writes data, not functions.",
  promise: "a model writes data, not promises.",
  file: "files are inputs, not answers.",
  nan: "use z.number().",
  success: "use z.boolean().",
};

const handlers: Record<string, Handler> = {
  string: () => ({ type: { kind: "primitive", name: "string" }, acceptsNull: false }),
  template_literal: () => ({ type: { kind: "primitive", name: "string" }, acceptsNull: false }),
  number: (_converter, _walk, def) => ({
    type: { kind: "primitive", name: isInteger(def) ? "int" : "float" },
    acceptsNull: false,
  }),
  boolean: () => ({ type: { kind: "primitive", name: "bool" }, acceptsNull: false }),
  null: () => ({ type: { kind: "primitive", name: "null" }, acceptsNull: true }),
  literal: (_converter, walk, def) => {
    const values = def.values as unknown[];
    const types = values.map((value): Type => {
      if (value === null) return { kind: "primitive", name: "null" };
      if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
        return { kind: "literal", value };
      throw new UnsupportedSchemaError(
        `z.literal(${String(value)})`,
        walk.path,
        "literals must be strings, numbers, booleans or null.",
      );
    });
    return { type: unionOf(types), acceptsNull: values.includes(null) };
  },
  enum: (converter, walk, def) => converter.enumeration(walk, def),
  object: (converter, walk, def) => converter.object(walk, def),
  array: (converter, walk, def) => {
    const item = converter.convert(def.element, `${walk.path}[]`, itemHint(walk.hint));
    return {
      type: { kind: "list", item: item.type },
      acceptsNull: false,
      final: item.final && adaptItems(() => item.final),
      partial: item.partial && adaptItems(() => item.partial),
    };
  },
  tuple: (converter, walk, def) => {
    // A list of the union of its item types: the parser reads a list; Zod then checks each position.
    const items = (def.items as unknown[]).map((item, index) =>
      converter.convert(item, `${walk.path}[${index}]`, walk.hint),
    );
    const rest = def.rest ? converter.convert(def.rest, `${walk.path}[]`, walk.hint) : undefined;
    const all = rest ? [...items, rest] : items;
    const positional = (
      pick: (conversion: ZodConversion) => ValueAdapter | undefined,
    ): ValueAdapter | undefined =>
      all.some((conversion) => pick(conversion))
        ? adaptItems((index) => {
            const conversion = items[index] ?? rest;
            return conversion && pick(conversion);
          })
        : undefined;
    return {
      type: { kind: "list", item: unionOf(all.map((conversion) => conversion.type)) },
      acceptsNull: false,
      final: positional((conversion) => conversion.final),
      partial: positional((conversion) => conversion.partial),
    };
  },
  union: (converter, walk, def) => {
    const options = (def.options as unknown[]).map((option) => ({
      schema: asZodNode(option, walk.path),
      conversion: converter.convert(option, walk.path, walk.hint),
    }));
    const anyFinal = options.some((option) => option.conversion.final);
    const anyPartial = options.some((option) => option.conversion.partial);
    return {
      type: unionOf(options.map((option) => option.conversion.type)),
      acceptsNull: options.some((option) => option.conversion.acceptsNull),
      // Which arm a value belongs to is Zod's call: adapt it for each arm in turn, keep the first that passes.
      final: anyFinal
        ? (value) => {
            for (const { schema, conversion } of options) {
              const adapted = conversion.final ? conversion.final(value) : value;
              const result = schema["~standard"].validate(adapted);
              if (!(result instanceof Promise) && result.issues === undefined) return adapted;
            }
            return value;
          }
        : undefined,
      partial: anyPartial
        ? (value) => {
            for (const { conversion } of options) {
              const adapted = conversion.partial ? conversion.partial(value) : value;
              if (adapted !== value) return adapted;
            }
            return value;
          }
        : undefined,
    };
  },
  record: (converter, walk, def) => {
    const key = converter.convert(def.keyType, `${walk.path}{key}`, `${walk.hint} key`);
    if (!isMapKey(key.type)) {
      throw new UnsupportedSchemaError(
        "a z.record() key that is not a string",
        walk.path,
        "record keys must be z.string(), a z.enum() or string literals: JSON object keys are strings.",
      );
    }
    const value = converter.convert(def.valueType, `${walk.path}{}`, walk.hint);
    return {
      type: { kind: "map", key: key.type, value: value.type },
      acceptsNull: false,
      final: value.final && adaptEntries(value.final),
      partial: value.partial && adaptEntries(value.partial),
    };
  },
  optional: (converter, walk, def) => missingAllowed(converter.convert(def.innerType, walk.path, walk.hint)),
  default: (converter, walk, def) => missingAllowed(converter.convert(def.innerType, walk.path, walk.hint)),
  prefault: (converter, walk, def) => missingAllowed(converter.convert(def.innerType, walk.path, walk.hint)),
  nullable: (converter, walk, def) => {
    const inner = converter.convert(def.innerType, walk.path, walk.hint);
    const final = inner.final;
    return {
      type: optionalOf(inner.type),
      acceptsNull: true,
      final: final ? (value) => (value === null ? null : final(value)) : undefined,
      partial: inner.partial,
    };
  },
  nonoptional: (converter, walk, def) => {
    const inner = converter.convert(def.innerType, walk.path, walk.hint);
    return { ...inner, type: inner.type.kind === "optional" ? inner.type.inner : inner.type };
  },
  readonly: (converter, walk, def) => converter.convert(def.innerType, walk.path, walk.hint),
  catch: (converter, walk, def) => converter.convert(def.innerType, walk.path, walk.hint),
  pipe: (converter, walk, def) => converter.convert(pipeInput(def), walk.path, walk.hint),
  lazy: (converter, walk) => converter.lazy(walk),
};

/**
 * `.optional()` / `.default()`: the model may leave the value out, which the parser reports as `null`;
 * Zod wants `undefined` there unless the inner schema takes `null` (then `null` is kept: it may be meant).
 */
function missingAllowed(inner: ZodConversion): ZodConversion {
  const innerFinal = inner.final;
  return {
    type: optionalOf(inner.type),
    acceptsNull: inner.acceptsNull,
    final: inner.acceptsNull
      ? innerFinal
      : (value) => (value === null ? undefined : innerFinal ? innerFinal(value) : value),
    partial: inner.partial,
  };
}

function isInteger(def: ZodDefinition): boolean {
  if (typeof def.format === "string" && INTEGER_FORMATS.has(def.format)) return true;
  const checks = (def.checks as { _zod: { def: { check?: string; format?: string } } }[] | undefined) ?? [];
  return checks.some(
    (check) => check._zod.def.check === "number_format" && INTEGER_FORMATS.has(check._zod.def.format ?? ""),
  );
}

function isMapKey(type: Type): boolean {
  if (type.kind === "primitive") return type.name === "string";
  if (type.kind === "enum") return true;
  if (type.kind === "literal") return typeof type.value === "string";
  if (type.kind === "union") return type.options.every(isMapKey);
  return false;
}

/** The result of converting a root schema: the collected declarations and the root's conversion. */
export interface ConvertedZodSchema {
  collector: TypeCollector;
  root: ZodConversion;
}

/** Converts `schema`; `name` names the root class or enum when the schema declares no `.meta({ id })`. */
export function convertZod(
  schema: unknown,
  name: string,
  collector = new TypeCollector(),
): ConvertedZodSchema {
  const converter = new ZodConverter(collector);
  return { collector, root: converter.convert(schema, "$", name) };
}
