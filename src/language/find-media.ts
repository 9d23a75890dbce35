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
    const push = (next: TypeExpression, nextPath = path) => work.push({ type: next, path: nextPath });
    switch (current.kind) {
      case "named": {
        if (mediaNames.has(current.name)) return { media: current.name, path };
        if (visited.has(current.name)) break;
        visited.add(current.name);
        const declaration = symbols.types.get(current.name)?.node;
        if (declaration?.kind === "type-alias") push(declaration.type);
        if (declaration?.kind === "class") {
          // Reversed so the first field is examined first.
          for (const field of [...declaration.fields].reverse())
            push(field.type, `${current.name}.${field.name.name}`);
        }
        break;
      }
      case "list":
        push(current.item);
        break;
      case "optional":
      case "group":
        push(current.inner);
        break;
      case "union":
        for (const option of [...current.options].reverse()) push(option);
        break;
      case "tuple":
        for (const element of [...current.items].reverse()) push(element);
        break;
      case "map":
        for (const argument of [...current.typeArguments].reverse()) push(argument);
        break;
      case "literal":
      case "error":
        break;
    }
  }
  return undefined;
}
