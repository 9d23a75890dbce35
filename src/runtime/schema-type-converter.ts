import type { Class, Enum, Type, TypeAlias } from "../ir/index.js";

/** What converting a Zod or JSON Schema for a TypeBuilder yields: the type and the declarations it needs. */
export interface SchemaTypeAdditions {
  /** A reference to the added type: the class or enum named as asked, or an alias of that name. */
  type: Type;
  classes: Class[];
  enums: Enum[];
  aliases: TypeAlias[];
}

/**
 * Converts a schema for `TypeBuilder.addZod` / `addJsonSchema`. The runtime loads neither Zod nor the
 * converters (generated code must stay small and Zod-free), so they are passed in: `zodTypeConverter` from
 * "sapling-llm/zod", `jsonSchemaTypeConverter` from "sapling-llm/json-schema". `isTaken` says which names
 * the project and the builder already use; nested declarations get other names.
 */
export type SchemaTypeConverter = (
  schema: unknown,
  name: string,
  isTaken: (name: string) => boolean,
) => SchemaTypeAdditions;
