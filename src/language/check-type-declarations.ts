import type { ClassDecl, EnumDecl, TypeAliasDecl, TypeDeclaration, TypeExpression } from "./ast.js";
import { checkAttributes, findAttribute } from "./check-attributes.js";
import { checkTypeExpression } from "./check-type-expression.js";
import type { Reporter } from "./reporter.js";
import { type TypeScope, ungroup } from "./resolve-type.js";

/**
 * Check a class, enum or alias: member names are unique, attributes fit their place, `@skip` fields are
 * optional, types resolve. `insideTypeBuilder` allows `dynamic class` / `dynamic enum`.
 */
export function checkTypeDeclaration(
  declaration: TypeDeclaration,
  scope: TypeScope,
  report: Reporter,
  insideTypeBuilder = false,
): void {
  if (declaration.kind !== "type-alias" && declaration.dynamic && !insideTypeBuilder) {
    report("dynamic-outside-type-builder", {}, declaration.name.span);
  }
  switch (declaration.kind) {
    case "class":
      checkClass(declaration, scope, report);
      return;
    case "enum":
      checkEnum(declaration, report);
      return;
    case "type-alias":
      checkAlias(declaration, scope, report);
      return;
  }
}

function checkClass(declaration: ClassDecl, scope: TypeScope, report: Reporter): void {
  checkAttributes(declaration.attributes, "class", report);
  const seen = new Map<string, ClassDecl["fields"][number]>();
  for (const field of declaration.fields) {
    const first = seen.get(field.name.name);
    if (first) {
      report("duplicate-field", { name: field.name.name, owner: declaration.name.name }, field.name.span, [
        { message: "first declared here", span: first.name.span },
      ]);
    } else {
      seen.set(field.name.name, field);
    }
    checkTypeExpression(field.type, scope, report);
    const attributes = checkAttributes(field.attributes, "field", report);
    if (findAttribute(attributes, "skip") && !isOptional(field.type, scope)) {
      report("skip-on-required-field", { name: field.name.name }, field.name.span);
    }
  }
}

function checkEnum(declaration: EnumDecl, report: Reporter): void {
  checkAttributes(declaration.attributes, "enum", report);
  const seen = new Map<string, EnumDecl["values"][number]>();
  for (const value of declaration.values) {
    const first = seen.get(value.name.name);
    if (first) {
      report(
        "duplicate-enum-value",
        { name: value.name.name, owner: declaration.name.name },
        value.name.span,
        [{ message: "first declared here", span: first.name.span }],
      );
    } else {
      seen.set(value.name.name, value);
    }
    checkAttributes(value.attributes, "enum-value", report);
  }
}

function checkAlias(declaration: TypeAliasDecl, scope: TypeScope, report: Reporter): void {
  checkTypeExpression(declaration.type, scope, report);
}

/** Whether a value of this type may be null: `T?`, a union with `null`, `null`, or an alias of those. */
export function isOptional(
  type: TypeExpression,
  scope: TypeScope,
  visited: Set<string> = new Set(),
): boolean {
  const inner = ungroup(type);
  switch (inner.kind) {
    case "optional":
      return true;
    case "union":
      return inner.options.some((option) => isOptional(option, scope, visited));
    case "named": {
      if (inner.name === "null") return true;
      if (scope.kindOf(inner.name) !== "alias" || visited.has(inner.name)) return false;
      visited.add(inner.name);
      const target = scope.aliasTarget?.(inner.name);
      return target !== undefined && isOptional(target, scope, visited);
    }
    default:
      return false;
  }
}
