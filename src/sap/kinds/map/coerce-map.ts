import type { MapType } from "../../../ir/index.js";
import type { KindCoercer } from "../../coerce/coerce-context.js";
import {
  type CoerceResult,
  childPath,
  failure,
  ResultBuilder,
  repaired,
} from "../../coerce/coerce-result.js";
import { setOwn } from "../../coerce/set-own.js";
import { stringNode } from "../../lenient/jsonish-node.js";
import { keyCollision } from "./key-collision.js";

/**
 * `map<K, V>`: objects entry by entry; keys are coerced to K (enum keys match like enum values), values
 * to V; entries that do not fit are dropped (flagged), but a non-empty object where every entry fails is
 * an error. Null is an empty map (flagged). `__proto__` keys stay plain data.
 */
export const mapCoercer: KindCoercer<MapType> = {
  coerce(type, node, path, context): CoerceResult {
    if (node.kind === "null")
      return repaired(
        {},
        "EmptyFromMissing",
        path,
        "null where a map was expected, read as an empty map",
        node,
      );
    if (node.kind !== "object") return failure("type-mismatch", path, context.describe(type), node);
    const builder = new ResultBuilder();
    const value: Record<string, unknown> = {};
    let firstProblem: string | undefined;
    let kept = 0;
    const written = new Map<string, string>();
    for (let index = 0; index < node.entries.length; index++) {
      const [key, entryNode] = node.entries[index]!;
      const entryPath = childPath(path, key);
      // The key has no span of its own: its flags point at the entry's value.
      const keyNode = { ...stringNode(key), start: entryNode.start, end: entryNode.end };
      const keyResult = context.coerce(type.key, keyNode, entryPath);
      if (!keyResult.ok) {
        firstProblem ??= `the key "${key}" is not a ${keyResult.issue.expected}`;
        builder.flag(
          "EntryDropped",
          entryPath,
          `dropped: the key "${key}" is not a ${keyResult.issue.expected}`,
          entryNode,
        );
        continue;
      }
      const valueResult = context.coerce(type.value, entryNode, entryPath);
      if (!valueResult.ok) {
        const issue = valueResult.issue;
        const cutOff = !entryNode.complete && index === node.entries.length - 1;
        firstProblem ??= `at ${issue.path} expected ${issue.expected}, found ${issue.found}`;
        builder.flag(
          "EntryDropped",
          entryPath,
          cutOff
            ? "the last entry was cut off before it was complete"
            : `dropped: at ${issue.path} expected ${issue.expected}, found ${issue.found}`,
          entryNode,
        );
        continue;
      }
      builder.add(keyResult);
      builder.add(valueResult);
      const entryKey = String(keyResult.value);
      if (Object.hasOwn(value, entryKey)) context.onKeyAgain?.(path);
      const collision = keyCollision(written, entryKey, key, path);
      if (collision) builder.flag(collision.kind, collision.path, collision.detail, entryNode);
      setOwn(value, entryKey, valueResult.value);
      kept++;
    }
    if (kept === 0 && firstProblem !== undefined && !(node.entries.length === 1 && !node.complete)) {
      return failure(
        "all-items-failed",
        path,
        context.describe(type),
        node,
        `No entry fits; the first: ${firstProblem}.`,
      );
    }
    return builder.build(value);
  },
  missing: () => ({ value: {}, reason: "empty" }),
  fits: (_type, node) => node.kind === "object",
  plainText: () => "never",
};
