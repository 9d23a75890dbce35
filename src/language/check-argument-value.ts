import { suggestName } from "../diagnostics/index.js";
import type { ConfigValue, Span, TypeExpression } from "./ast.js";
import { type ProjectSymbols, suggestion } from "./check-context.js";
import { isOptional } from "./check-type-declarations.js";
import { describeValue, textOf } from "./config-values.js";
import { projectScope } from "./project-scope.js";
import type { Reporter } from "./reporter.js";

/** A value of the wrong kind, or a key its class does not have. */
type Mismatch =
  | { kind: "type"; path: string; expected: string; value: ConfigValue }
  | { kind: "field"; path: string; field: string; className: string; fields: string[]; span: Span };

/**
 * Warn when a test argument does not fit its parameter's type (a string for an int, an unknown enum
 * value, a class field that does not exist or is missing). Only the first mismatch of each argument is
 * reported. Values from `env.NAME` are unknown until run time and always fit; `@@dynamic` classes and
 * enums are open (a type_builder may extend them); media arguments are checked on their own.
 */
export function checkArgumentValue(
  name: string,
  type: TypeExpression,
  value: ConfigValue,
  symbols: ProjectSymbols,
  report: Reporter,
): void {
  const mismatch = findMismatch(value, type, name, symbols);
  if (mismatch?.kind === "type") {
    report(
      "test-argument-type",
      { path: mismatch.path, expected: mismatch.expected, found: describeValue(mismatch.value) },
      mismatch.value.span,
    );
  } else if (mismatch?.kind === "field") {
    report(
      "test-argument-field",
      {
        path: mismatch.path,
        field: mismatch.field,
        className: mismatch.className,
        ...suggestion(suggestName(mismatch.field, mismatch.fields)),
      },
      mismatch.span,
    );
  }
}

function findMismatch(
  value: ConfigValue,
  type: TypeExpression,
  path: string,
  symbols: ProjectSymbols,
  visitedAliases: Set<string> = new Set(),
): Mismatch | undefined {
  if (value.kind === "env" || value.kind === "error") return undefined;
  const miss = (expected: string): Mismatch => ({ kind: "type", path, expected, value });
  switch (type.kind) {
    case "group":
      return findMismatch(value, type.inner, path, symbols, visitedAliases);
    case "optional":
      return value.kind === "null"
        ? undefined
        : findMismatch(value, type.inner, path, symbols, visitedAliases);
    case "union": {
      if (
        type.options.some((option) => !findMismatch(value, option, path, symbols, new Set(visitedAliases)))
      ) {
        return undefined;
      }
      return miss(type.options.map(describeType).join(" or "));
    }
    case "literal": {
      const written = value.kind === "number" || value.kind === "bool" ? value.value : textOf(value);
      return written === type.value ? undefined : miss(type.text);
    }
    case "list": {
      if (value.kind !== "array") return miss("a list");
      for (const [index, item] of value.items.entries()) {
        const found = findMismatch(item, type.item, `${path}[${index}]`, symbols);
        if (found) return found;
      }
      return undefined;
    }
    case "map": {
      if (value.kind !== "map") return miss("a map");
      const valueType = type.typeArguments[1];
      if (!valueType) return undefined;
      for (const entry of value.block.entries) {
        const found = findMismatch(entry.value, valueType, `${path}.${entry.key.name}`, symbols);
        if (found) return found;
      }
      return undefined;
    }
    case "named":
      return namedMismatch(value, type.name, path, symbols, visitedAliases);
    case "tuple":
    case "error":
      return undefined;
  }
}

function namedMismatch(
  value: ConfigValue,
  name: string,
  path: string,
  symbols: ProjectSymbols,
  visitedAliases: Set<string>,
): Mismatch | undefined {
  const miss = (expected: string): Mismatch => ({ kind: "type", path, expected, value });
  switch (name) {
    case "string":
      return textOf(value) === undefined ? miss("a string") : undefined;
    case "int":
      return value.kind === "number" && Number.isInteger(value.value) ? undefined : miss("an int");
    case "float":
      return value.kind === "number" ? undefined : miss("a float");
    case "bool":
      return value.kind === "bool" ? undefined : miss("true or false");
    case "null":
      return value.kind === "null" ? undefined : miss("null");
    case "image":
    case "audio":
    case "pdf":
    case "video":
      return undefined;
  }
  const declaration = symbols.types.get(name)?.node;
  if (!declaration) return undefined;
  const open =
    declaration.kind !== "type-alias" &&
    declaration.attributes.some((attribute) => attribute.name === "dynamic");
  if (declaration.kind === "type-alias") {
    if (visitedAliases.has(name)) return undefined;
    visitedAliases.add(name);
    return findMismatch(value, declaration.type, path, symbols, visitedAliases);
  }
  if (declaration.kind === "enum") {
    const text = textOf(value);
    if (text === undefined) return miss(`a value of ${name}`);
    if (open || declaration.values.some((item) => item.name.name === text)) return undefined;
    return miss(`one of ${declaration.values.map((item) => item.name.name).join(", ")}`);
  }
  if (value.kind !== "map") return miss(`a ${name} { … }`);
  const fields = new Map(declaration.fields.map((field) => [field.name.name, field]));
  for (const entry of value.block.entries) {
    const field = fields.get(entry.key.name);
    if (!field) {
      if (open) continue;
      const names = declaration.fields.map((item) => item.name.name);
      return {
        kind: "field",
        path,
        field: entry.key.name,
        className: name,
        fields: names,
        span: entry.key.span,
      };
    }
    const found = findMismatch(entry.value, field.type, `${path}.${entry.key.name}`, symbols);
    if (found) return found;
  }
  if (!open) {
    const given = new Set(value.block.entries.map((entry) => entry.key.name));
    const scope = projectScope(symbols);
    const missing = declaration.fields.find(
      (field) => !given.has(field.name.name) && !isOptional(field.type, scope),
    );
    if (missing) return miss(`a ${name} with a value for "${missing.name.name}"`);
  }
  return undefined;
}

/** A short description of a type for a message (`an int`, `Person`, `a list`). */
function describeType(type: TypeExpression): string {
  switch (type.kind) {
    case "named":
      return type.name;
    case "literal":
      return type.text;
    case "list":
      return "a list";
    case "map":
      return "a map";
    case "optional":
      return `${describeType(type.inner)} or null`;
    case "group":
      return describeType(type.inner);
    case "union":
      return type.options.map(describeType).join(" or ");
    default:
      return "a value";
  }
}
