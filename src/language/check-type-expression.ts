import { suggestName } from "../diagnostics/index.js";
import type { TypeExpression } from "./ast.js";
import { checkAttributes } from "./check-attributes.js";
import { suggestion } from "./check-context.js";
import type { Reporter } from "./reporter.js";
import { builtinTypeNames, type TypeScope, ungroup } from "./resolve-type.js";

/**
 * Check one type expression: every name resolves, `map` has two arguments and a valid key type, tuples are
 * rejected, and attributes inside the type are ones a type may carry. Walks iteratively-deep structures
 * recursively; the parser bounds nesting depth.
 */
export function checkTypeExpression(
  type: TypeExpression,
  scope: TypeScope,
  report: Reporter,
  place: "type" | "return-type" = "type",
): void {
  checkAttributes(type.attributes, place, report);
  switch (type.kind) {
    case "named": {
      if (builtinTypeNames.has(type.name) || scope.kindOf(type.name) !== undefined) return;
      const other = scope.otherKind?.(type.name);
      if (other !== undefined) {
        report("not-a-type", { name: type.name, kind: other }, type.span);
        return;
      }
      const candidates = [...builtinTypeNames, ...scope.names()];
      report(
        "unknown-type",
        { name: type.name, ...suggestion(suggestName(type.name, candidates)) },
        type.span,
      );
      return;
    }
    case "literal":
    case "error":
      return;
    case "list":
      checkTypeExpression(type.item, scope, report);
      return;
    case "optional":
    case "group":
      checkTypeExpression(type.inner, scope, report);
      return;
    case "union":
      // Attributes written after a union belong to its last member; a return type's stay return-type ones.
      type.options.forEach((option, index) => {
        const last = index === type.options.length - 1;
        checkTypeExpression(option, scope, report, last ? place : "type");
      });
      return;
    case "tuple":
      report("unsupported-type", { what: "Tuple types" }, type.span);
      for (const item of type.items) checkTypeExpression(item, scope, report);
      return;
    case "map": {
      for (const argument of type.typeArguments) checkTypeExpression(argument, scope, report);
      if (type.typeArguments.length !== 2) {
        report("map-arity", { count: type.typeArguments.length }, type.span);
        return;
      }
      const key = type.typeArguments[0] as TypeExpression;
      if (!isValidMapKey(key, scope)) {
        report("invalid-map-key", { type: describeKey(key, scope) }, key.span);
      }
      return;
    }
  }
}

/**
 * Map keys: `string`, enums, string literals, unions of those, and aliases of those. Walks with a work
 * list so long alias chains cannot overflow the stack.
 */
function isValidMapKey(type: TypeExpression, scope: TypeScope): boolean {
  const visitedAliases = new Set<string>();
  const work: TypeExpression[] = [type];
  for (let current = work.pop(); current !== undefined; current = work.pop()) {
    const key = ungroup(current);
    switch (key.kind) {
      case "named": {
        if (key.name === "string") break;
        if (builtinTypeNames.has(key.name)) return false;
        const kind = scope.kindOf(key.name);
        if (kind === "enum" || kind === undefined) break; // unknown names are reported on their own
        if (kind === "class") return false;
        if (visitedAliases.has(key.name)) break; // a cycle is reported by the cycle check
        visitedAliases.add(key.name);
        const target = scope.aliasTarget?.(key.name);
        if (target !== undefined) work.push(target);
        break;
      }
      case "literal":
        if (typeof key.value !== "string") return false;
        break;
      case "union":
        for (const option of key.options) work.push(option);
        break;
      case "error":
        break;
      default:
        return false;
    }
  }
  return true;
}

function describeKey(type: TypeExpression, scope: TypeScope): string {
  const key = ungroup(type);
  switch (key.kind) {
    case "named":
      return scope.kindOf(key.name) === "class" ? `${key.name} (a class)` : key.name;
    case "literal":
      return key.text;
    case "list":
      return "a list";
    case "map":
      return "a map";
    case "optional":
      return "an optional type";
    case "union":
      return "a union with non-string members";
    default:
      return "this type";
  }
}
