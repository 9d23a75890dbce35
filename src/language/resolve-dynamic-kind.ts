import type { ClassDecl, EnumDecl } from "./ast.js";
import type { ProjectSymbols } from "./check-context.js";

/**
 * A keywordless `dynamic X { … }` takes its kind from its members; one without members (only `@@`
 * attributes) takes the kind of the declaration it extends.
 */
export function resolveDynamicKind(
  declaration: ClassDecl | EnumDecl,
  symbols: ProjectSymbols,
): ClassDecl | EnumDecl {
  if (!declaration.keywordless || declaration.kind !== "class" || declaration.fields.length > 0)
    return declaration;
  if (symbols.types.get(declaration.name.name)?.node.kind !== "enum") return declaration;
  const { fields: _fields, kind: _kind, ...rest } = declaration;
  return { ...rest, kind: "enum", values: [] };
}
