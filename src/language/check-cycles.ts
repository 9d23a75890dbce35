import type { ClassDecl, TypeExpression } from "./ast.js";
import type { ProjectSymbols } from "./check-context.js";
import { findCycles } from "./find-cycles.js";
import type { Reporter } from "./reporter.js";

/**
 * Alias cycles not broken by a list or map (`type A = B; type B = A | int`), and classes that contain
 * each other through required fields (`class A { b B }  class B { a A }`): both describe values that can
 * never be written down. Each cycle is reported once, at its first declaration in source order.
 */
export function checkCycles(symbols: ProjectSymbols, reportIn: (file: string) => Reporter): void {
  const aliases = [...symbols.types.keys()].filter(
    (name) => symbols.types.get(name)?.node.kind === "type-alias",
  );
  const classes = [...symbols.types.keys()].filter((name) => symbols.types.get(name)?.node.kind === "class");
  for (const cycle of findCycles(aliases, (name) => aliasEdges(name, symbols))) report(cycle, "alias-cycle");
  for (const cycle of findCycles(classes, (name) => classEdges(name, symbols))) report(cycle, "class-cycle");

  function report(cycle: string[], code: "alias-cycle" | "class-cycle"): void {
    const symbol = symbols.types.get(cycle[0] as string);
    if (symbol) reportIn(symbol.file)(code, { cycle: cycle.join(" -> ") }, symbol.node.name.span);
  }
}

/** Aliases an alias refers to outside lists and maps. */
function aliasEdges(name: string, symbols: ProjectSymbols): string[] {
  const node = symbols.types.get(name)?.node;
  if (node?.kind !== "type-alias") return [];
  const names: string[] = [];
  directReferences(node.type, names);
  return names.filter((target) => symbols.types.get(target)?.node.kind === "type-alias");
}

/** Classes a class needs through required, non-list fields (following aliases). */
function classEdges(name: string, symbols: ProjectSymbols): string[] {
  const node = symbols.types.get(name)?.node;
  if (node?.kind !== "class") return [];
  const targets: string[] = [];
  for (const field of (node as ClassDecl).fields) {
    const target = requiredClass(field.type, symbols);
    if (target) targets.push(target);
  }
  return targets;
}

/** The class a required field needs, following parentheses and aliases (in a loop: chains may be long). */
function requiredClass(type: TypeExpression, symbols: ProjectSymbols): string | undefined {
  const visited = new Set<string>();
  let current = type;
  for (;;) {
    while (current.kind === "group") current = current.inner;
    if (current.kind !== "named" || visited.has(current.name)) return undefined;
    const node = symbols.types.get(current.name)?.node;
    if (node?.kind === "class") return current.name;
    if (node?.kind !== "type-alias") return undefined;
    visited.add(current.name);
    current = node.type;
  }
}

function directReferences(type: TypeExpression, into: string[]): void {
  switch (type.kind) {
    case "named":
      into.push(type.name);
      return;
    case "optional":
    case "group":
      directReferences(type.inner, into);
      return;
    case "union":
      for (const option of type.options) directReferences(option, into);
      return;
    default:
      return; // lists and maps break cycles; literals and errors refer to nothing
  }
}
