import type { TypeExpression } from "./ast.js";
import type { ProjectSymbols } from "./check-context.js";
import { mediaNames } from "./resolve-type.js";

/**
 * The first media type reachable from an output type — directly, through aliases, or through class
 * fields — with a readable path (`Profile.photo`), or `undefined`. Each declaration is visited once, and
 * the walk uses an explicit work list, so long chains of declarations cannot overflow the stack.
 */
export function findMediaInType(
  type: TypeExpression,
  symbols: ProjectSymbols,
): { media: string; path: string } | undefined {
  const visited = new Set<string>();
  const work: { type: TypeExpression; path: string }[] = [{ type, path: "" }];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    const { type: current, path } = item;
    switch (current.kind) {
      case "named": {
        if (mediaNames.has(current.name)) return { media: current.name, path };
        if (visited.has(current.name)) break;
        visited.add(current.name);
        const declaration = symbols.types.get(current.name)?.node;
        if (declaration?.kind === "type-alias") work.push({ type: declaration.type, path });
        if (declaration?.kind === "class") {
          // Reversed so the first field is examined first.
          for (let index = declaration.fields.length - 1; index >= 0; index--) {
            const field = declaration.fields[index] as (typeof declaration.fields)[number];
            work.push({ type: field.type, path: `${current.name}.${field.name.name}` });
          }
        }
        break;
      }
      case "list":
        work.push({ type: current.item, path });
        break;
      case "optional":
      case "group":
        work.push({ type: current.inner, path });
        break;
      case "union":
      case "tuple":
      case "map": {
        const parts =
          current.kind === "union"
            ? current.options
            : current.kind === "tuple"
              ? current.items
              : current.typeArguments;
        for (let index = parts.length - 1; index >= 0; index--)
          work.push({ type: parts[index] as TypeExpression, path });
        break;
      }
      case "literal":
      case "error":
        break;
    }
  }
  return undefined;
}
