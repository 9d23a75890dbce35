import type { Ir, Type } from "../ir/index.js";

/**
 * The classes the answer's shape uses in more than one place (`$defs` referenced from several
 * properties). The compact schema text writes a class inline wherever it is used, so a definition used
 * by many others, each used by many more, is written out once per path to it: JSON Schema Store's large
 * schemas grew to hundreds of thousands of tokens. Hoisted (written once, by name), every class appears
 * once. Only classes reachable from `root` count (the conversion may declare others the shape never uses).
 */
export function sharedClasses(ir: Ir, root: Type): string[] {
  const classes = new Map(ir.classes.map((declaration) => [declaration.name, declaration]));
  const aliases = new Map(ir.aliases.map((alias) => [alias.name, alias]));
  const uses = new Map<string, number>();
  const seenAliases = new Set<string>();
  // An explicit stack: type expressions nest as deeply as the schema does.
  const pending: Type[] = [root];
  while (pending.length > 0) {
    const next = pending.pop()!;
    switch (next.kind) {
      case "class": {
        const count = (uses.get(next.name) ?? 0) + 1;
        uses.set(next.name, count);
        if (count === 1) for (const field of classes.get(next.name)?.fields ?? []) pending.push(field.type);
        break;
      }
      case "alias": {
        const alias = aliases.get(next.name);
        if (alias && !seenAliases.has(next.name)) {
          seenAliases.add(next.name);
          pending.push(alias.type);
        }
        break;
      }
      case "list":
        pending.push(next.item);
        break;
      case "map":
        pending.push(next.key, next.value);
        break;
      case "union":
        pending.push(...next.options);
        break;
      case "optional":
        pending.push(next.inner);
        break;
      default:
        break;
    }
  }
  return [...uses].filter(([, count]) => count > 1).map(([name]) => name);
}
