import type { TypeExpression } from "./ast.js";
import type { ProjectSymbols } from "./check-context.js";
import { mediaNames } from "./resolve-type.js";

/**
 * The first media type reachable from an output type — directly, through aliases, or through class
 * fields — with a readable path (`Profile.photo`), or `undefined`. Each declaration is visited once.
 */
export function findMediaInType(
  type: TypeExpression,
  symbols: ProjectSymbols,
  visited: Set<string> = new Set(),
  path = "",
): { media: string; path: string } | undefined {
  switch (type.kind) {
    case "named": {
      if (mediaNames.has(type.name)) return { media: type.name, path };
      if (visited.has(type.name)) return undefined;
      visited.add(type.name);
      const declaration = symbols.types.get(type.name)?.node;
      if (declaration?.kind === "type-alias")
        return findMediaInType(declaration.type, symbols, visited, path);
      if (declaration?.kind === "class") {
        for (const field of declaration.fields) {
          const found = findMediaInType(field.type, symbols, visited, `${type.name}.${field.name.name}`);
          if (found) return found;
        }
      }
      return undefined;
    }
    case "list":
      return findMediaInType(type.item, symbols, visited, path);
    case "optional":
    case "group":
      return findMediaInType(type.inner, symbols, visited, path);
    case "union":
      for (const option of type.options) {
        const found = findMediaInType(option, symbols, visited, path);
        if (found) return found;
      }
      return undefined;
    case "tuple":
      for (const item of type.items) {
        const found = findMediaInType(item, symbols, visited, path);
        if (found) return found;
      }
      return undefined;
    case "map":
      for (const argument of type.typeArguments) {
        const found = findMediaInType(argument, symbols, visited, path);
        if (found) return found;
      }
      return undefined;
    case "literal":
    case "error":
      return undefined;
  }
}
