import type { PrimitiveType } from "../../../ir/index.js";
import { addFlag, type CoerceResult, exact, failure, repaired } from "../../coerce/coerce-result.js";
import { isCutHere, type JsonishNode, nodeToJsonText } from "../../lenient/jsonish-node.js";

/** `string`: strings as is; numbers and bools as written; objects and lists as JSON text (flagged). */
export function coerceString(_type: PrimitiveType, node: JsonishNode, path: string): CoerceResult {
  switch (node.kind) {
    case "string":
      return exact(node.value);
    case "number":
      return repaired(node.text, "ScalarToString", path, `the number ${node.text} kept as text`, node);
    case "bool":
      return repaired(
        String(node.value),
        "ScalarToString",
        path,
        `the bool ${node.value} kept as text`,
        node,
      );
    case "null":
      return failure("type-mismatch", path, "string", node);
    default: {
      const text = repaired(
        nodeToJsonText(node),
        "JsonToString",
        path,
        `${node.kind === "array" ? "a list" : "an object"} kept as JSON text`,
        node,
      );
      // Cut off inside it: nothing under it is read on its own, so the text it becomes carries the flag
      // (where the cut was between its items, the coerce context flags it).
      return node.complete || isCutHere(node)
        ? text
        : addFlag(text, "Incomplete", path, "the answer was cut off inside it", node);
    }
  }
}
