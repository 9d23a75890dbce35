import type { Type } from "../../ir/index.js";
import type { JsonishNode } from "../lenient/jsonish-node.js";
import type { CoerceContext } from "./coerce-context.js";
import { addFlag, type CoerceResult, childPath } from "./coerce-result.js";

/**
 * For scalar targets: an object with a single entry (`{"answer": 42}`) or a one-element list (`[42]`)
 * holds the value the model meant. Returns undefined when the node is neither, so the caller reports its
 * own mismatch. Larger containers are never guessed from, and neither are nested ones: in
 * `{"status": {"code": 1}}` or `{"values": [1]}` the scalar is a detail of a structure, not the answer.
 */
export function unwrapSingle(
  type: Type,
  node: JsonishNode,
  path: string,
  context: CoerceContext,
): CoerceResult | undefined {
  if (node.kind === "object" && node.entries.length === 1) {
    const [key, value] = node.entries[0]!;
    if (isContainer(value)) return undefined;
    const result = context.coerce(type, value, childPath(path, key));
    return result.ok
      ? addFlag(result, "UnwrappedObject", path, `used the value of the only key "${key}"`, node)
      : result;
  }
  if (node.kind === "array" && node.items.length === 1) {
    if (isContainer(node.items[0]!)) return undefined;
    const result = context.coerce(type, node.items[0]!, childPath(path, 0));
    return result.ok
      ? addFlag(result, "ListToSingle", path, "used the only item of a one-element list", node)
      : result;
  }
  return undefined;
}

function isContainer(node: JsonishNode): boolean {
  return node.kind === "object" || node.kind === "array";
}
