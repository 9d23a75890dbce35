import type * as ir from "../ir/index.js";
import type * as ast from "./ast.js";
import { findAttribute } from "./check-attributes.js";
import { withAttributes } from "./lower-type.js";

/**
 * The stream attributes a class or enum gives its direct uses: `@@stream.not_null` and
 * `@@stream.with_state` (and an enum's `@@stream.done`; a class's is `ir.Class.streamDone`, which
 * holds wherever the class appears). `undefined` when it has none.
 */
export function blockStreamAttributes(
  declaration: ast.ClassDecl | ast.EnumDecl,
): ir.TypeAttributes | undefined {
  const result: ir.TypeAttributes = {};
  if (findAttribute(declaration.attributes, "stream.not_null")) result.streamNotNull = true;
  if (findAttribute(declaration.attributes, "stream.with_state")) result.streamWithState = true;
  if (declaration.kind === "enum" && findAttribute(declaration.attributes, "stream.done"))
    result.streamDone = true;
  return Object.keys(result).length === 0 ? undefined : result;
}

/**
 * Apply block stream attributes as BAML 0.226.2 does (measured with `parseLlmResponse` on partials): as
 * if written on each field whose type is exactly that class or enum, and on a function's return type of
 * it. Through `?`, a union, a list or a map they change nothing: `item Item` holds its object back until
 * the item has a value, `maybe Item?` does not.
 */
export function applyBlockStreamAttributes(
  result: ir.Ir,
  byName: ReadonlyMap<string, ir.TypeAttributes>,
): void {
  if (byName.size === 0) return;
  const direct = (type: ir.Type): ir.Type =>
    (type.kind === "class" || type.kind === "enum") && byName.has(type.name)
      ? withAttributes(type, byName.get(type.name))
      : type;
  for (const declaration of result.classes) {
    for (const field of declaration.fields) field.type = direct(field.type);
  }
  for (const declaration of result.functions) declaration.returnType = direct(declaration.returnType);
}
