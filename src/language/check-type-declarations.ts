import type {
  ClassDecl,
  EnumDecl,
  EnumValueDecl,
  FieldDecl,
  TypeAliasDecl,
  TypeDeclaration,
  TypeExpression,
} from "./ast.js";
import { checkAttributes, findAttribute } from "./check-attributes.js";
import { checkTypeExpression } from "./check-type-expression.js";
import type { Reporter } from "./reporter.js";
import { reservedFieldNames, startsUppercase } from "./reserved-names.js";
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
    if (reservedFieldNames.has(field.name.name)) {
      report("keyword-field-name", { name: field.name.name, owner: declaration.name.name }, field.name.span);
    }
    checkTypeExpression(field.type, scope, report);
    const attributes = checkAttributes(field.attributes, "field", report);
    if (findAttribute(attributes, "skip") && !isOptional(field.type, scope)) {
      report("skip-on-required-field", { name: field.name.name }, field.name.span);
    }
  }
  checkShownNames(declaration.name.name, declaration.fields, report);
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
    if (!startsUppercase(value.name.name)) {
      report("lowercase-name", { name: value.name.name, kind: "enum value" }, value.name.span);
    }
    checkAttributes(value.attributes, "enum-value", report);
  }
  // Identical shown names are an error; names that differ only in case are accepted, as BAML does (an
  // exact-case answer tells them apart), with a warning that other cases are ambiguous.
  checkShownNames(declaration.name.name, declaration.values, report);
  checkCaseCollisions(declaration.name.name, declaration.values, report);
}

/** Enum values whose shown names differ only in case (`YES @alias("yes")` beside `Yes`): a warning. */
function checkCaseCollisions(owner: string, values: readonly EnumValueDecl[], report: Reporter): void {
  const shown = new Map<string, { value: EnumValueDecl; name: string }>();
  for (const value of values) {
    if (findAttribute(value.attributes, "skip")) continue;
    const name = shownName(value);
    const first = shown.get(name.toLowerCase());
    if (first === undefined) shown.set(name.toLowerCase(), { value, name });
    else if (first.name !== name) {
      report(
        "alias-case-collision",
        {
          owner,
          first: first.value.name.name,
          second: value.name.name,
          firstShown: first.name,
          secondShown: name,
        },
        value.name.span,
        [{ message: `"${first.value.name.name}" is declared here`, span: first.value.name.span }],
      );
    }
  }
}

/** The name the model sees: the `@alias`, else the declared name. */
function shownName(member: FieldDecl | EnumValueDecl): string {
  const alias = findAttribute(member.attributes, "alias")?.args[0];
  return alias?.kind === "string" ? alias.value : member.name.name;
}

/**
 * The names the model sees (the `@alias`, else the declared name) must differ within a class or enum;
 * otherwise two members render alike and the parser cannot tell their values apart. Skipped members are
 * never shown. Exact duplicates of declared names are reported as duplicates instead.
 */
function checkShownNames(
  owner: string,
  members: readonly (FieldDecl | EnumValueDecl)[],
  report: Reporter,
): void {
  const shown = new Map<string, FieldDecl | EnumValueDecl>();
  for (const member of members) {
    if (findAttribute(member.attributes, "skip")) continue;
    const name = shownName(member);
    const first = shown.get(name);
    if (first === undefined) {
      shown.set(name, member);
    } else if (first.name.name !== member.name.name) {
      report(
        "alias-collision",
        { owner, first: first.name.name, second: member.name.name, firstShown: name },
        member.name.span,
        [{ message: `"${first.name.name}" is declared here`, span: first.name.span }],
      );
    }
  }
}

function checkAlias(declaration: TypeAliasDecl, scope: TypeScope, report: Reporter): void {
  checkTypeExpression(declaration.type, scope, report);
}

/**
 * Whether a value of this type may be null: `T?`, a union with `null`, `null`, or an alias of those.
 * Walks with a work list so long alias chains cannot overflow the stack.
 */
export function isOptional(type: TypeExpression, scope: TypeScope): boolean {
  const visited = new Set<string>();
  const work: TypeExpression[] = [type];
  for (let current = work.pop(); current !== undefined; current = work.pop()) {
    const inner = ungroup(current);
    if (inner.kind === "optional") return true;
    if (inner.kind === "union") for (const option of inner.options) work.push(option);
    else if (inner.kind === "named") {
      if (inner.name === "null") return true;
      if (scope.kindOf(inner.name) !== "alias" || visited.has(inner.name)) continue;
      visited.add(inner.name);
      const target = scope.aliasTarget?.(inner.name);
      if (target !== undefined) work.push(target);
    }
  }
  return false;
}
