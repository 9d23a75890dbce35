import type { Type } from "./types.js";

/**
 * Print a type in BAML syntax (`string[]`, `map<string, int>`, `(A | B)?`), for messages and diagnostics.
 * Attributes are not printed.
 */
export function typeToString(type: Type): string {
  switch (type.kind) {
    case "primitive":
    case "media":
      return type.name;
    case "literal":
      return typeof type.value === "string" ? JSON.stringify(type.value) : String(type.value);
    case "enum":
    case "class":
    case "alias":
      return type.name;
    case "list":
      return `${wrap(type.item)}[]`;
    case "map":
      return `map<${typeToString(type.key)}, ${typeToString(type.value)}>`;
    case "union":
      return type.options.map(typeToString).join(" | ");
    case "optional":
      return `${wrap(type.inner)}?`;
  }
}

function wrap(type: Type): string {
  return type.kind === "union" ? `(${typeToString(type)})` : typeToString(type);
}
