import type { Class, Enum, Type, TypeAlias } from "../ir/index.js";
import type { TypeCollector } from "./type-collector.js";
import { UnsupportedSchemaError } from "./unsupported-schema-error.js";

/**
 * What a schema converter hands a TypeBuilder (`addZod`, `addJsonSchema`): the runtime's
 * `SchemaTypeAdditions`, written out here so that the schema rooms need not import the runtime.
 */
export interface TypeBuilderAdditions {
  type: Type;
  classes: Class[];
  enums: Enum[];
  aliases: TypeAlias[];
}

/**
 * The collected declarations, with the root reachable under `name`: the root class or enum already has it
 * (the converter proposed `name` for it), any other root type gets an alias of that name.
 */
export function namedRoot(collector: TypeCollector, root: Type, name: string): TypeBuilderAdditions {
  const declarations = { classes: collector.classes, enums: collector.enums, aliases: collector.aliases };
  if ((root.kind === "class" || root.kind === "enum") && root.name === name)
    return { type: root, ...declarations };
  if (!collector.reserveExactly(name)) {
    throw new UnsupportedSchemaError(
      `a nested type named ${name}`,
      "$",
      `the schema declares another type named ${name} (a .meta({ id }) or $defs name); rename one of them.`,
    );
  }
  collector.aliases.push({ name, type: root });
  return { type: { kind: "alias", name }, ...declarations };
}

/** A converter for `TypeBuilder.addZod` / `addJsonSchema` (the runtime's `SchemaTypeConverter`). */
export type TypeBuilderConverter = (
  schema: unknown,
  name: string,
  isTaken: (name: string) => boolean,
) => TypeBuilderAdditions;
