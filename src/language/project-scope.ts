import type { TypeDeclaration } from "./ast.js";
import type { ProjectSymbols } from "./check-context.js";
import type { DeclaredTypeKind, TypeScope } from "./resolve-type.js";

const kinds: Record<TypeDeclaration["kind"], DeclaredTypeKind> = {
  class: "class",
  enum: "enum",
  "type-alias": "alias",
};

/**
 * The type scope of a project: its classes, enums and aliases, plus `extra` declarations (a test's
 * type_builder) that shadow nothing (duplicates are reported separately).
 */
export function projectScope(
  symbols: ProjectSymbols,
  extra: ReadonlyMap<string, TypeDeclaration> = new Map(),
): TypeScope {
  const find = (name: string): TypeDeclaration | undefined =>
    symbols.types.get(name)?.node ?? extra.get(name);
  return {
    kindOf: (name) => {
      const found = find(name);
      return found ? kinds[found.kind] : undefined;
    },
    aliasTarget: (name) => {
      const found = find(name);
      return found?.kind === "type-alias" ? found.type : undefined;
    },
    names: () => [...symbols.types.keys(), ...extra.keys()],
    otherKind: (name) => {
      if (symbols.functions.has(name)) return "function";
      if (symbols.clients.has(name)) return "client";
      if (symbols.retryPolicies.has(name)) return "retry policy";
      if (symbols.templateStrings.has(name)) return "template string";
      return undefined;
    },
  };
}
