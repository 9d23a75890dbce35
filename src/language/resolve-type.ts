import type { MediaName, PrimitiveName } from "../ir/index.js";
import type { TypeExpression } from "./ast.js";

export const primitiveNames: ReadonlySet<string> = new Set<PrimitiveName>([
  "string",
  "int",
  "float",
  "bool",
  "null",
]);
export const mediaNames: ReadonlySet<string> = new Set<MediaName>(["image", "audio", "pdf", "video"]);
export const builtinTypeNames: ReadonlySet<string> = new Set([...primitiveNames, ...mediaNames]);

export type DeclaredTypeKind = "class" | "enum" | "alias";

/**
 * The type names visible where a type expression is checked or lowered: the project's declarations (and,
 * inside a test's type_builder, the builder's own), or an IR's.
 */
export interface TypeScope {
  kindOf(name: string): DeclaredTypeKind | undefined;
  /** The aliased type expression, when the scope has the syntax (for map-key checks through aliases). */
  aliasTarget?(name: string): TypeExpression | undefined;
  names(): Iterable<string>;
  /** A name that exists but is not a type (a function, a client), for a clearer message. */
  otherKind?(name: string): string | undefined;
}

/** Strip parentheses: `((T))` → `T` (attributes of the groups are not needed by the callers). */
export function ungroup(type: TypeExpression): TypeExpression {
  let current = type;
  while (current.kind === "group") current = current.inner;
  return current;
}
