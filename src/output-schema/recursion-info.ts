import type { Ir, Type } from "../ir/index.js";
import { findCycles } from "./find-cycles.js";

/** Which classes and aliases of an IR are recursive, as cycles in BAML's deterministic order. */
export interface RecursionInfo {
  /** Cycles of class names (a class that references itself is a cycle of one). */
  classCycles: string[][];
  /** Cycles of alias names; these aliases recurse through lists or maps and are rendered by name. */
  aliasCycles: string[][];
  recursiveAliases: ReadonlySet<string>;
}

const cache = new WeakMap<Ir, RecursionInfo>();

/** Computes (once per IR object) the recursive classes and aliases. */
export function recursionInfo(ir: Ir): RecursionInfo {
  const cached = cache.get(ir);
  if (cached) return cached;

  const aliasIndex = new Map(ir.aliases.map((alias, position) => [alias.name, position]));
  const aliasGraph = ir.aliases.map((alias) => {
    const edges = new Set<number>();
    visitNames(alias.type, (kind, name) => {
      const target = kind === "alias" ? aliasIndex.get(name) : undefined;
      if (target !== undefined) edges.add(target);
    });
    return edges;
  });
  const aliasCycles = findCycles(aliasGraph).map((cycle) =>
    cycle.map((node) => ir.aliases[node]?.name ?? ""),
  );
  const recursiveAliases = new Set(aliasCycles.flat());

  // Class edges follow aliases that are not recursive (a recursive alias is its own hoisted definition).
  const classIndex = new Map(ir.classes.map((item, position) => [item.name, position]));
  const aliasTypes = new Map(ir.aliases.map((alias) => [alias.name, alias.type]));
  const classGraph = ir.classes.map((item) => {
    const edges = new Set<number>();
    const seenAliases = new Set<string>();
    const collect = (type: Type): void =>
      visitNames(type, (kind, name) => {
        if (kind === "class") {
          const target = classIndex.get(name);
          if (target !== undefined) edges.add(target);
        } else if (kind === "alias" && !recursiveAliases.has(name) && !seenAliases.has(name)) {
          seenAliases.add(name);
          const aliased = aliasTypes.get(name);
          if (aliased) collect(aliased);
        }
      });
    for (const field of item.fields) collect(field.type);
    return edges;
  });
  const classCycles = findCycles(classGraph).map((cycle) =>
    cycle.map((node) => ir.classes[node]?.name ?? ""),
  );

  const info = { classCycles, aliasCycles, recursiveAliases };
  cache.set(ir, info);
  return info;
}

function visitNames(type: Type, visit: (kind: "class" | "alias", name: string) => void): void {
  switch (type.kind) {
    case "class":
    case "alias":
      visit(type.kind, type.name);
      return;
    case "list":
      visitNames(type.item, visit);
      return;
    case "map":
      visitNames(type.key, visit);
      visitNames(type.value, visit);
      return;
    case "optional":
      visitNames(type.inner, visit);
      return;
    case "union":
      for (const option of type.options) visitNames(option, visit);
      return;
    default:
      return;
  }
}
