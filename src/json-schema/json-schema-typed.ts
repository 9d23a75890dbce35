import { type Ir, IrIndex, type Type } from "../ir/index.js";
import {
  namedRoot,
  type TypeBuilderConverter,
  TypeCollector,
  type TypedSchema,
} from "../typed-schema/index.js";
import { convertJsonSchema } from "./convert-json-schema.js";
import { indexFlags } from "./final-adapter.js";
import { createSchemaValidator } from "./schema-validator.js";

/** A converted schema and the keywords it ignored. */
interface CompiledJsonSchema {
  typed: TypedSchema;
  warnings: readonly string[];
}

const compiled = new WeakMap<object, CompiledJsonSchema>();

function compile(schema: object): CompiledJsonSchema {
  const cached = compiled.get(schema);
  if (cached) return cached;
  const { collector, root, warnings } = convertJsonSchema(schema, "Output");
  const ir = collector.toIr();
  const validate = createSchemaValidator(schema as Record<string, unknown>);
  const final = root.final;
  const typed: TypedSchema = {
    ir,
    index: new IrIndex(ir),
    type: root.type,
    acceptsWritten: true,
    adaptFinal: (value, flags, text) => {
      // The whole answer read as a string although it is an object or a list in JSON (an object that
      // failed its arm of `anyOf [string, object]`): the validator judges what the model wrote.
      if (typeof value === "string" && value.trim() === text.trim() && flags.length === 0) {
        const written = structuredJson(text);
        if (written !== undefined) return written;
      }
      return final ? final(value, "$", indexFlags(flags)) : value;
    },
    validate: (value) => {
      const issues = validate(value);
      return issues.length === 0 ? { value } : { issues };
    },
  };
  const result = { typed, warnings };
  compiled.set(schema, result);
  return result;
}

/** An object or a list written as strict JSON, else `undefined`. */
function structuredJson(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    return undefined;
  }
}

/**
 * The `TypedSchema` of a JSON Schema, converted once per schema object (do not mutate a schema after its
 * first use). The parsed value is validated against the whole schema (formats, bounds, every keyword).
 */
export function jsonSchemaTypedSchema(schema: object): TypedSchema {
  return compile(schema).typed;
}

/**
 * What the conversion of a schema ignored: one line per keyword outside the JSON Schema vocabulary
 * (`x-kubernetes-group-version-kind`, `javaType`, a misspelt `requried`), with where it is.
 */
export function jsonSchemaWarnings(schema: object): readonly string[] {
  return compile(schema).warnings;
}

/** Sapling's type for a JSON Schema, with an IR holding the classes, enums and aliases it refers to. */
export function fromJsonSchema(
  schema: object,
  options: { name?: string } = {},
): { ir: Ir; type: Type; warnings: string[] } {
  const { collector, root, warnings } = convertJsonSchema(schema, options.name ?? "Output");
  return { ir: collector.toIr(), type: root.type, warnings };
}

/**
 * The converter `TypeBuilder.addJsonSchema` needs: `new TypeBuilder({ convertJsonSchema:
 * jsonSchemaTypeConverter })`. The root object or enum takes the given name.
 */
export const jsonSchemaTypeConverter: TypeBuilderConverter = (schema, name, isTaken) => {
  const collector = new TypeCollector(isTaken);
  const { root } = convertJsonSchema(schema, name, collector);
  return namedRoot(collector, root.type, name);
};
