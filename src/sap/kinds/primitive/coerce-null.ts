import type { PrimitiveType } from "../../../ir/index.js";
import { type CoerceResult, exact, failure, repaired } from "../../coerce/coerce-result.js";
import type { JsonishNode } from "../../lenient/jsonish-node.js";

const NULL_WORDS = new Set(["null", "none", "nil", "n/a", "na", "undefined", ""]);

/** `null`: null, or text that spells it (`"None"`, `"null"`, `"N/A"`, an empty string). */
export function coerceNull(_type: PrimitiveType, node: JsonishNode, path: string): CoerceResult {
  if (node.kind === "null") return exact(null);
  if (node.kind === "string" && NULL_WORDS.has(node.value.trim().toLowerCase())) {
    return repaired(null, "StringToNull", path, `${JSON.stringify(node.value)} read as null`, node);
  }
  return failure("type-mismatch", path, "null", node);
}

/** Whether a string spells null, for optional types. */
export function spellsNull(node: JsonishNode): boolean {
  return node.kind === "string" && NULL_WORDS.has(node.value.trim().toLowerCase());
}
