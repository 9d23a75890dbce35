import type { IrIndex, LlmFunction, Type } from "../ir/index.js";

/**
 * A small value of `type` for documentation (the curl examples of `/docs`): the first enum value, the first
 * union arm, one list item, every required class field. Recursion is cut at `maxDepth` with `null`/`[]`.
 */
export function exampleValue(type: Type, index: IrIndex, depth = 0, maxDepth = 4): unknown {
  if (depth > maxDepth) return type.kind === "list" ? [] : null;
  switch (type.kind) {
    case "primitive":
      return { string: "text", int: 1, float: 1.5, bool: true, null: null }[type.name];
    case "literal":
      return type.value;
    case "media":
      return { url: `https://example.com/${type.name === "image" ? "photo.png" : `file.${type.name}`}` };
    case "optional":
      return exampleValue(type.inner, index, depth + 1, maxDepth);
    case "list":
      return [exampleValue(type.item, index, depth + 1, maxDepth)];
    case "map":
      return { key: exampleValue(type.value, index, depth + 1, maxDepth) };
    case "union":
      return type.options[0] ? exampleValue(type.options[0], index, depth + 1, maxDepth) : null;
    case "enum":
      return index.enums.get(type.name)?.values.find((value) => !value.skip)?.name ?? null;
    case "alias": {
      const alias = index.aliases.get(type.name);
      return alias ? exampleValue(alias.type, index, depth + 1, maxDepth) : null;
    }
    case "class": {
      const declared = index.classes.get(type.name);
      if (!declared) return {};
      const result: Record<string, unknown> = {};
      for (const field of declared.fields) {
        if (field.skip || field.type.kind === "optional") continue;
        result[field.name] = exampleValue(field.type, index, depth + 1, maxDepth);
      }
      return result;
    }
  }
}

/** Example arguments for a function: one example value per parameter. */
export function exampleArguments(fn: LlmFunction, index: IrIndex): Record<string, unknown> {
  return Object.fromEntries(fn.params.map((param) => [param.name, exampleValue(param.type, index)]));
}
