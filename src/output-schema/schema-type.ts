import type { IrIndex, MediaName, PrimitiveName, Type } from "../ir/index.js";

/**
 * The shape of a type as the schema renderers see it (BAML's `TypeIR` after lowering): aliases that are not
 * part of a cycle are replaced by their definition, `T?` and `null` become union arms, nested unions are
 * flattened and `null` always comes last. Recursive aliases stay references, rendered by name.
 */
export type SchemaType =
  /** `null` appears only as a union arm (see `unionArms`); a standalone `null` is a union of no options. */
  | { kind: "primitive"; name: PrimitiveName }
  | { kind: "literal"; value: string | number | boolean }
  | { kind: "enum"; name: string }
  | { kind: "class"; name: string }
  | { kind: "list"; item: SchemaType }
  | { kind: "map"; key: SchemaType; value: SchemaType }
  /** `options` holds the non-null arms; `hasNull` is the trailing `null` arm. */
  | { kind: "union"; options: SchemaType[]; hasNull: boolean }
  | { kind: "recursive-alias"; name: string }
  | { kind: "media"; name: MediaName };

/** Lowers an IR type to a `SchemaType`; `recursiveAliases` are the aliases that stay references. */
export function toSchemaType(type: Type, index: IrIndex, recursiveAliases: ReadonlySet<string>): SchemaType {
  switch (type.kind) {
    case "primitive":
      return type.name === "null"
        ? { kind: "union", options: [], hasNull: true }
        : { kind: "primitive", name: type.name };
    case "literal":
      return { kind: "literal", value: type.value };
    case "enum":
      return { kind: "enum", name: type.name };
    case "class":
      return { kind: "class", name: type.name };
    case "media":
      return { kind: "media", name: type.name };
    case "list":
      return { kind: "list", item: toSchemaType(type.item, index, recursiveAliases) };
    case "map":
      return {
        kind: "map",
        key: toSchemaType(type.key, index, recursiveAliases),
        value: toSchemaType(type.value, index, recursiveAliases),
      };
    case "alias":
      if (recursiveAliases.has(type.name)) return { kind: "recursive-alias", name: type.name };
      return toSchemaType(index.getAlias(type.name).type, index, recursiveAliases);
    case "optional":
      return unionOf([toSchemaType(type.inner, index, recursiveAliases)], true);
    case "union":
      return unionOf(
        type.options.map((option) => toSchemaType(option, index, recursiveAliases)),
        false,
      );
  }
}

/**
 * Flattens nested unions and keeps each arm once, where it first appears, as BAML does: `string | (int |
 * string)` is `string or int`, and an alias's arms repeated beside it are printed once.
 */
function unionOf(arms: SchemaType[], withNull: boolean): SchemaType {
  const options: SchemaType[] = [];
  const seen = new Set<string>();
  let hasNull = withNull;
  const add = (arm: SchemaType): void => {
    const key = schemaTypeKey(arm);
    if (seen.has(key)) return;
    seen.add(key);
    options.push(arm);
  };
  for (const arm of arms) {
    if (arm.kind === "union") {
      for (const option of arm.options) add(option);
      hasNull ||= arm.hasNull;
    } else {
      add(arm);
    }
  }
  return { kind: "union", options, hasNull };
}

/** Every arm of a union in rendering order: the non-null arms, then `null`. */
export function unionArms(type: Extract<SchemaType, { kind: "union" }>): SchemaType[] {
  return type.hasNull ? [...type.options, { kind: "primitive", name: "null" }] : type.options;
}

/** A string naming the type, used to visit each distinct type once (BAML keys by the type's text). */
export function schemaTypeKey(type: SchemaType): string {
  switch (type.kind) {
    case "primitive":
    case "media":
      return type.name;
    case "literal":
      return JSON.stringify(type.value);
    case "enum":
      return `enum ${type.name}`;
    case "class":
      return `class ${type.name}`;
    case "recursive-alias":
      return `alias ${type.name}`;
    case "list":
      return `${schemaTypeKey(type.item)}[]`;
    case "map":
      return `map<${schemaTypeKey(type.key)}, ${schemaTypeKey(type.value)}>`;
    case "union":
      return `(${[...type.options.map(schemaTypeKey), ...(type.hasNull ? ["null"] : [])].join(" | ")})`;
  }
}
