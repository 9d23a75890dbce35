import type * as ir from "../ir/index.js";
import type * as ast from "./ast.js";
import { findAttribute } from "./check-attributes.js";
import { dedentAndTrim } from "./config-values.js";
import { lowerConstraints, lowerType, typeAttributes, withAttributes } from "./lower-type.js";
import type { TypeScope } from "./resolve-type.js";

/** Maps an offset of the file being lowered to a source location. */
export type Locate = (offset: number) => ir.SourceLocation;

/** The string argument of `@name("…")`; raw strings are dedented and trimmed. */
function stringAttribute(attributes: readonly ast.Attribute[], name: string): string | undefined {
  const argument = findAttribute(attributes, name)?.args[0];
  if (argument?.kind !== "string") return undefined;
  // Raw-string descriptions follow the surrounding indentation; strip it as BAML does.
  return argument.raw ? dedentAndTrim(argument.value) : argument.value;
}

/**
 * A field's or an enum value's `@description`. A raw string over several lines is dedented and loses its
 * blank first and last lines, but keeps the first line's indent beyond the others (BAML shows it so in
 * `ctx.output_format`); on one line it is trimmed. Class and enum descriptions are trimmed whole, as BAML
 * shows them.
 */
function memberDescription(attributes: readonly ast.Attribute[]): string | undefined {
  const argument = findAttribute(attributes, "description")?.args[0];
  if (argument?.kind !== "string" || !argument.raw || !/[\r\n]/.test(argument.value)) {
    return stringAttribute(attributes, "description");
  }
  const lines = dedentLines(argument.value.split(/\r\n|\n|\r/));
  while (lines.length > 0 && (lines[0] ?? "").trim() === "") lines.shift();
  return lines.join("\n").trimEnd();
}

/** Lines less their common indentation (whitespace-only lines ignored, and emptied). */
function dedentLines(lines: readonly string[]): string[] {
  const indents = lines
    .filter((line) => line.trim() !== "")
    .map((line) => line.length - line.trimStart().length);
  const indent = indents.length === 0 ? 0 : Math.min(...indents);
  return lines.map((line) => (line.trim() === "" ? "" : line.slice(indent)));
}

/** Copy `///` docs from an AST node onto an IR node. */
export function docs<T extends object>(target: T, node: { docs?: string }): T {
  if (node.docs !== undefined) (target as { docs?: string }).docs = node.docs;
  return target;
}

/** A class (also a type_builder class, which has no source location). */
export function lowerClass(declaration: ast.ClassDecl, scope: TypeScope, locate?: Locate): ir.Class {
  const fields = declaration.fields.map((field) => {
    const result: ir.Field = {
      name: field.name.name,
      type: withAttributes(lowerType(field.type, scope), typeAttributes(field.attributes)),
    };
    const alias = stringAttribute(field.attributes, "alias");
    const description = memberDescription(field.attributes);
    if (alias !== undefined) result.alias = alias;
    if (description !== undefined) result.description = description;
    if (findAttribute(field.attributes, "skip")) result.skip = true;
    return docs(result, field);
  });
  const result: ir.Class = {
    name: declaration.name.name,
    fields,
    dynamic: findAttribute(declaration.attributes, "dynamic") !== undefined,
    constraints: lowerConstraints(declaration.attributes),
  };
  const alias = stringAttribute(declaration.attributes, "alias");
  const description = stringAttribute(declaration.attributes, "description");
  if (alias !== undefined) result.alias = alias;
  if (description !== undefined) result.description = description;
  if (findAttribute(declaration.attributes, "stream.done")) result.streamDone = true;
  docs(result, declaration);
  if (locate) result.source = locate(declaration.span.start);
  return result;
}

/** An enum with its values. */
export function lowerEnum(declaration: ast.EnumDecl, locate?: Locate): ir.Enum {
  const values = declaration.values.map((value) => {
    const result: ir.EnumValue = { name: value.name.name };
    const alias = stringAttribute(value.attributes, "alias");
    const description = memberDescription(value.attributes);
    if (alias !== undefined) result.alias = alias;
    if (description !== undefined) result.description = description;
    if (findAttribute(value.attributes, "skip")) result.skip = true;
    return docs(result, value);
  });
  const result: ir.Enum = {
    name: declaration.name.name,
    values,
    dynamic: findAttribute(declaration.attributes, "dynamic") !== undefined,
    constraints: lowerConstraints(declaration.attributes),
  };
  const alias = stringAttribute(declaration.attributes, "alias");
  const description = stringAttribute(declaration.attributes, "description");
  if (alias !== undefined) result.alias = alias;
  if (description !== undefined) result.description = description;
  docs(result, declaration);
  if (locate) result.source = locate(declaration.span.start);
  return result;
}

/** A type alias. */
export function lowerAlias(declaration: ast.TypeAliasDecl, scope: TypeScope, locate?: Locate): ir.TypeAlias {
  const result: ir.TypeAlias = { name: declaration.name.name, type: lowerType(declaration.type, scope) };
  docs(result, declaration);
  if (locate) result.source = locate(declaration.span.start);
  return result;
}
