import type { IrIndex, Type } from "../../ir/index.js";

/**
 * The path-like name of the first place in a type (through classes, enums and aliases) that carries a
 * `@check`/`@assert`, or undefined. Lets `parseValue` reject a call without a constraint evaluator up
 * front, whatever the answer turns out to be.
 */
export function findConstraint(type: Type, index: IrIndex): string | undefined {
  const seen = new Set<string>();
  const pending: [Type, string][] = [[type, "the target type"]];
  while (pending.length > 0) {
    const [current, where] = pending.pop()!;
    if ((current.attrs?.constraints?.length ?? 0) > 0) return where;
    switch (current.kind) {
      case "class": {
        if (seen.has(`class ${current.name}`)) break;
        seen.add(`class ${current.name}`);
        const declaration = index.classes.get(current.name);
        if (!declaration) break;
        if (declaration.constraints.length > 0) return `class ${current.name}`;
        for (const field of declaration.fields) {
          if (!field.skip) pending.push([field.type, `${current.name}.${field.name}`]);
        }
        break;
      }
      case "enum": {
        const declaration = index.enums.get(current.name);
        if (declaration && declaration.constraints.length > 0) return `enum ${current.name}`;
        break;
      }
      case "alias": {
        if (seen.has(`alias ${current.name}`)) break;
        seen.add(`alias ${current.name}`);
        const declaration = index.aliases.get(current.name);
        if (declaration) pending.push([declaration.type, current.name]);
        break;
      }
      case "list":
        pending.push([current.item, where]);
        break;
      case "map":
        pending.push([current.key, where], [current.value, where]);
        break;
      case "optional":
        pending.push([current.inner, where]);
        break;
      case "union":
        for (const option of current.options) pending.push([option, where]);
        break;
      default:
        break;
    }
  }
  return undefined;
}
