import type * as ir from "../ir/index.js";
import type * as ast from "./ast.js";
import type { ExistingTypes } from "./existing-types.js";
import { lowerAlias, lowerClass, lowerEnum } from "./lower-type-declarations.js";
import { resolveDynamicKind } from "./resolve-dynamic-kind.js";
import type { TypeScope } from "./resolve-type.js";

/**
 * A checked type_builder (a test's block or a `TypeBuilder.addBaml` snippet) as IR additions: new
 * classes, enums and aliases, and the members `dynamic` blocks add. `scope` sees the existing types and
 * the builder's new ones.
 */
export function lowerTypeBuilder(
  builder: ast.TypeBuilderBlock,
  existing: ExistingTypes,
  scope: TypeScope,
): ir.TestTypeBuilder {
  const result: ir.TestTypeBuilder = {
    classes: [],
    enums: [],
    aliases: [],
    dynamicClasses: [],
    dynamicEnums: [],
  };
  for (const written of builder.declarations) {
    const declaration = written.kind === "type-alias" ? written : resolveDynamicKind(written, existing);
    if (declaration.kind === "class") {
      (declaration.dynamic ? result.dynamicClasses : result.classes).push(lowerClass(declaration, scope));
    } else if (declaration.kind === "enum") {
      (declaration.dynamic ? result.dynamicEnums : result.enums).push(lowerEnum(declaration));
    } else {
      result.aliases.push(lowerAlias(declaration, scope));
    }
  }
  return result;
}
