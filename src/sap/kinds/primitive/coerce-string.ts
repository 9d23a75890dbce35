import type { PrimitiveType } from "../../../ir/index.js";
import { addFlag, type CoerceResult, exact, failure, repaired } from "../../coerce/coerce-result.js";
import {
  type ArrayNode,
  isCutHere,
  type JsonishNode,
  nodeToJsonText,
  type ObjectNode,
  writtenText,
} from "../../lenient/jsonish-node.js";
import { parseStrictJson } from "../../lenient/parse-strict-json.js";

/**
 * `string`: strings as is; numbers and bools as written; objects and lists as text (flagged): as written
 * when the model wrote them in a form JSON does not read (`{title: string}`), else as compact JSON.
 */
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
      const written = asWritten(node);
      const text = repaired(
        written ?? nodeToJsonText(node),
        "JsonToString",
        path,
        `${node.kind === "array" ? "a list" : "an object"} kept as ${written === undefined ? "JSON text" : "written"}`,
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

/**
 * A complete container's own text, trimmed, when it is not strict JSON (unquoted keys and words, single
 * quotes, comments: re-printing would change what the model wrote). Strict JSON keeps its compact form,
 * which is also all the `JSON.parse` fast path (no text positions) can give: one rule for both paths.
 */
function asWritten(node: ObjectNode | ArrayNode): string | undefined {
  const text = writtenText(node)?.trim();
  return text === undefined || parseStrictJson(text) !== undefined ? undefined : text;
}
