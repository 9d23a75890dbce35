import { type Ir, IrIndex, type Type } from "../ir/index.js";
import {
  namedRoot,
  type SchemaIssue,
  type TypeBuilderConverter,
  TypeCollector,
  type TypedSchema,
} from "../typed-schema/index.js";
import { convertJsonSchema } from "./convert-json-schema.js";

const compiled = new WeakMap<object, TypedSchema>();

/**
 * The `TypedSchema` of a JSON Schema, converted once per schema object (do not mutate a schema after its
 * first use). Validation checks the bounds the schema states; the type itself is the parser's guarantee.
 */
export function jsonSchemaTypedSchema(schema: object): TypedSchema {
  const cached = compiled.get(schema);
  if (cached) return cached;
  const { collector, root } = convertJsonSchema(schema, "Output");
  const ir = collector.toIr();
  const validate = root.validate;
  const typed: TypedSchema = {
    ir,
    index: new IrIndex(ir),
    type: root.type,
    adaptFinal: root.final,
    validate: (value) => {
      if (!validate) return { value };
      const issues: SchemaIssue[] = [];
      validate(value, [], issues);
      return issues.length === 0 ? { value } : { issues };
    },
  };
  compiled.set(schema, typed);
  return typed;
}

/** Sapling's type for a JSON Schema, with an IR holding the classes, enums and aliases it refers to. */
export function fromJsonSchema(schema: object, options: { name?: string } = {}): { ir: Ir; type: Type } {
  const { collector, root } = convertJsonSchema(schema, options.name ?? "Output");
  return { ir: collector.toIr(), type: root.type };
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
