import { type Ir, IrIndex, type Type } from "../ir/index.js";
import { OutputFormatError } from "./output-format-error.js";
import { recursionInfo } from "./recursion-info.js";
import { type SchemaType, toSchemaType } from "./schema-type.js";

/** A JSON Schema document (draft 2020-12 vocabulary). */
export type JsonSchema = { [key: string]: unknown };

/**
 * JSON Schema for the same type `ctx.output_format` describes: classes and enums become `$defs` entries
 * referenced with `$ref` (the target class itself is inlined at the root unless it is recursive), field
 * aliases are the property names, `@skip` fields and values are left out, descriptions are kept, optional
 * fields are nullable and not required, and no extra properties are allowed. Media types throw.
 */
export function toJsonSchema(ir: Ir, type: Type): JsonSchema {
  const index = new IrIndex(ir);
  const recursion = recursionInfo(ir);
  const recursiveClasses = new Set(recursion.classCycles.flat());
  const definitions = new Map<string, JsonSchema>();
  const lower = (input: Type): SchemaType => toSchemaType(input, index, recursion.recursiveAliases);

  const define = (name: string, build: () => JsonSchema): JsonSchema => {
    if (!definitions.has(name)) {
      definitions.set(name, {});
      definitions.set(name, build());
    }
    return { $ref: `#/$defs/${name}` };
  };

  const classSchema = (name: string): JsonSchema => {
    const declared = index.getClass(name);
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const field of declared.fields) {
      if (field.skip) continue;
      const key = field.alias ?? field.name;
      const fieldType = lower(field.type);
      properties[key] = {
        ...convert(fieldType),
        ...(field.description !== undefined ? { description: field.description } : {}),
      };
      if (!(fieldType.kind === "union" && fieldType.hasNull)) required.push(key);
    }
    return {
      type: "object",
      ...(declared.description !== undefined ? { description: declared.description } : {}),
      properties,
      required,
      additionalProperties: false,
    };
  };

  const convert = (schemaType: SchemaType): JsonSchema => {
    switch (schemaType.kind) {
      case "primitive":
        return { type: PRIMITIVE_TYPES[schemaType.name] };
      case "literal":
        return { const: schemaType.value };
      case "media":
        throw new OutputFormatError(
          "unsupported_output_type",
          `type '${schemaType.name}' is not supported in outputs: media types can be arguments of a function, not part of its return type.`,
        );
      case "enum":
        return define(schemaType.name, () => enumSchema(index, schemaType.name));
      case "class":
        return define(schemaType.name, () => classSchema(schemaType.name));
      case "recursive-alias":
        return define(schemaType.name, () => convert(lower(index.getAlias(schemaType.name).type)));
      case "list":
        return { type: "array", items: convert(schemaType.item) };
      case "map":
        return {
          type: "object",
          ...mapKeys(schemaType.key, convert),
          additionalProperties: convert(schemaType.value),
        };
      case "union": {
        const arms = schemaType.options.map(convert);
        if (schemaType.hasNull) arms.push({ type: "null" });
        return arms.length === 1 ? (arms[0] ?? {}) : { anyOf: arms };
      }
    }
  };

  const target = lower(type);
  const root =
    target.kind === "class" && !recursiveClasses.has(target.name)
      ? classSchema(target.name)
      : convert(target);
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    ...root,
    ...(definitions.size > 0 ? { $defs: Object.fromEntries(definitions) } : {}),
  };
}

const PRIMITIVE_TYPES = {
  string: "string",
  int: "integer",
  float: "number",
  bool: "boolean",
  null: "null",
} as const;

function enumSchema(index: IrIndex, name: string): JsonSchema {
  const declared = index.getEnum(name);
  const values = declared.values.filter((value) => !value.skip);
  const described = values.some((value) => value.description !== undefined);
  return {
    type: "string",
    ...(declared.description !== undefined ? { description: declared.description } : {}),
    ...(described
      ? {
          oneOf: values.map((value) => ({
            const: value.alias ?? value.name,
            ...(value.description !== undefined ? { description: value.description } : {}),
          })),
        }
      : { enum: values.map((value) => value.alias ?? value.name) }),
  };
}

/** Map keys that are not plain strings (enums, literal unions) constrain `propertyNames`. */
function mapKeys(key: SchemaType, convert: (type: SchemaType) => JsonSchema): JsonSchema {
  if (key.kind === "primitive" && key.name === "string") return {};
  return { propertyNames: convert(key) };
}
