import type { Ir } from "../ir/index.js";
import type { TypeDeclaration } from "./ast.js";
import type { DeclaredTypeKind, TypeScope } from "./resolve-type.js";

const kinds: Record<TypeDeclaration["kind"], DeclaredTypeKind> = {
  class: "class",
  enum: "enum",
  "type-alias": "alias",
};

/**
 * The type scope of an IR (a standalone type expression, a `TypeBuilder.addBaml` snippet), plus `extra`
 * declarations written next to it that shadow nothing (redeclarations are reported separately).
 */
export function irTypeScope(ir: Ir, extra: ReadonlyMap<string, TypeDeclaration> = new Map()): TypeScope {
  const declared = new Map<string, DeclaredTypeKind>();
  for (const item of ir.aliases) declared.set(item.name, "alias");
  for (const item of ir.enums) declared.set(item.name, "enum");
  for (const item of ir.classes) declared.set(item.name, "class");
  const others = new Map<string, string>();
  for (const item of ir.templateStrings) others.set(item.name, "template string");
  for (const item of ir.retryPolicies) others.set(item.name, "retry policy");
  for (const item of ir.clients) others.set(item.name, "client");
  for (const item of ir.functions) others.set(item.name, "function");
  return {
    kindOf: (name) => {
      const written = extra.get(name);
      return declared.get(name) ?? (written ? kinds[written.kind] : undefined);
    },
    // Only the declarations written here have syntax; the IR's aliases are resolved types.
    aliasTarget: (name) => {
      const written = extra.get(name);
      return !declared.has(name) && written?.kind === "type-alias" ? written.type : undefined;
    },
    names: () => [...declared.keys(), ...extra.keys()],
    otherKind: (name) => others.get(name),
  };
}
