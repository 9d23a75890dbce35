import type { Ir, Type } from "../ir/index.js";

/**
 * The classes the schema uses in more than one place (`$defs` referenced from several properties). The
 * compact schema text writes a class inline wherever it is used, so a definition used by many others,
 * each used by many more, is written out once per path to it: JSON Schema Store's large schemas grew
 * to hundreds of thousands of tokens. Hoisted (written once, by name), every class appears once.
 */
export function sharedClasses(ir: Ir, root: Type): string[] {
  const uses = new Map<string, number>();
  const count = (type: Type): void => {
    // An explicit stack: type expressions nest as deeply as the schema does.
    const pending: Type[] = [type];
    while (pending.length > 0) {
      const next = pending.pop()!;
      switch (next.kind) {
        case "class":
          uses.set(next.name, (uses.get(next.name) ?? 0) + 1);
          break;
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
  };
  count(root);
  for (const declaration of ir.classes) for (const field of declaration.fields) count(field.type);
  for (const alias of ir.aliases) count(alias.type);
  return ir.classes.filter((declaration) => (uses.get(declaration.name) ?? 0) > 1).map((item) => item.name);
}
