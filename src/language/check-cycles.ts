import type { ClassDecl, TypeExpression } from "./ast.js";
import type { ProjectSymbols } from "./check-context.js";
import type { Reporter } from "./reporter.js";

/**
 * Alias cycles not broken by a list or map (`type A = B; type B = A | int`), and classes that contain
 * each other through required fields (`class A { b B }  class B { a A }`): both describe values that can
 * never be written down. Each cycle is reported once, at its first declaration in source order.
 */
export function checkCycles(symbols: ProjectSymbols, reportIn: (file: string) => Reporter): void {
  const reported = new Set<string>();
  for (const [name, symbol] of symbols.types) {
    const node = symbol.node;
    let cycle: string[] | undefined;
    if (node.kind === "type-alias") cycle = findCycle(name, symbols, aliasEdges);
    else if (node.kind === "class") cycle = findCycle(name, symbols, classEdges);
    if (!cycle) continue;
    const key = `${node.kind}:${[...new Set(cycle)].sort().join(",")}`;
    if (reported.has(key)) continue;
    reported.add(key);
    const code = node.kind === "type-alias" ? "alias-cycle" : "class-cycle";
    reportIn(symbol.file)(code, { cycle: cycle.join(" -> ") }, node.name.span);
  }
}

type Edges = (name: string, symbols: ProjectSymbols) => string[];

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
    const target = requiredClass(field.type, symbols, new Set());
    if (target) targets.push(target);
  }
  return targets;
}

function requiredClass(
  type: TypeExpression,
  symbols: ProjectSymbols,
  visited: Set<string>,
): string | undefined {
  if (type.kind === "group") return requiredClass(type.inner, symbols, visited);
  if (type.kind !== "named" || visited.has(type.name)) return undefined;
  const node = symbols.types.get(type.name)?.node;
  if (node?.kind === "class") return type.name;
  if (node?.kind === "type-alias") {
    visited.add(type.name);
    return requiredClass(node.type, symbols, visited);
  }
  return undefined;
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

function findCycle(start: string, symbols: ProjectSymbols, edges: Edges): string[] | undefined {
  const visited = new Set<string>([start]);
  const stack: { name: string; path: string[] }[] = [{ name: start, path: [start] }];
  while (stack.length > 0) {
    const { name, path } = stack.pop() as { name: string; path: string[] };
    for (const next of edges(name, symbols)) {
      if (next === start) return [...path, next];
      if (visited.has(next)) continue;
      visited.add(next);
      stack.push({ name: next, path: [...path, next] });
    }
  }
  return undefined;
}
