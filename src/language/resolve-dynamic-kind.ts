import type { ClassDecl, EnumDecl } from "./ast.js";
import type { ExistingTypes } from "./existing-types.js";

/**
 * A keywordless `dynamic X { … }` takes its kind from its members; one without members (only `@@`
 * attributes) takes the kind of the declaration it extends.
 */
export function resolveDynamicKind(
  declaration: ClassDecl | EnumDecl,
  existing: ExistingTypes,
): ClassDecl | EnumDecl {
  if (!declaration.keywordless || declaration.kind !== "class" || declaration.fields.length > 0)
    return declaration;
  if (existing.find(declaration.name.name)?.kind !== "enum") return declaration;
  const { fields: _fields, kind: _kind, ...rest } = declaration;
  return { ...rest, kind: "enum", values: [] };
}
