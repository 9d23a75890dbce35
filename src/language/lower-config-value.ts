import type * as ir from "../ir/index.js";
import type { ConfigBlock, ConfigValue } from "./ast.js";
import { dedentAndTrim } from "./config-values.js";

/**
 * A configuration value as IR data. Unquoted text becomes a string, raw strings are dedented and trimmed,
 * `env.NAME` stays a reference (resolved at call time), and a repeated map key keeps its first value
 * (the checker reports the repetition).
 */
export function lowerConfigValue(value: ConfigValue): ir.ConfigValue {
  switch (value.kind) {
    case "string":
    case "unquoted":
      return { kind: "string", value: value.value };
    case "raw-string":
      return { kind: "string", value: dedentAndTrim(value.value) };
    case "number":
      return { kind: "number", value: value.value };
    case "bool":
      return { kind: "bool", value: value.value };
    case "null":
    case "error":
      return { kind: "null" };
    case "env":
      return { kind: "env", name: value.name };
    case "array":
      return { kind: "array", items: value.items.map(lowerConfigValue) };
    case "map":
      return { kind: "map", entries: lowerConfigBlock(value.block) };
  }
}

/**
 * The entries of a block as a record, in written order. A repeated key keeps its first value, or its last
 * with `"last-wins"` (a test's arguments, as BAML does; the checker warned).
 */
export function lowerConfigBlock(
  block: ConfigBlock,
  repeated: "first-wins" | "last-wins" = "first-wins",
): Record<string, ir.ConfigValue> {
  const entries: Record<string, ir.ConfigValue> = {};
  for (const entry of block.entries) {
    if (!Object.hasOwn(entries, entry.key.name)) entries[entry.key.name] = lowerConfigValue(entry.value);
    else if (repeated === "last-wins") entries[entry.key.name] = lowerConfigValue(entry.value);
  }
  return entries;
}
