import type { ListType } from "../../../ir/index.js";
import type { CoerceContext, KindCoercer } from "../../coerce/coerce-context.js";
import {
  addFlag,
  type CoerceResult,
  childPath,
  describeNode,
  exact,
  failure,
  ResultBuilder,
  repaired,
} from "../../coerce/coerce-result.js";
import { type JsonishNode, stringNode } from "../../lenient/jsonish-node.js";
import { splitDelimited } from "./split-delimited.js";

/**
 * `T[]`: lists item by item (items that do not fit are dropped, flagged; if every item of a non-empty
 * list fails, that is an error, not `[]`); a delimited string of scalars is split; any other single value
 * becomes a one-element list; null or missing is `[]` (flagged).
 */
export const listCoercer: KindCoercer<ListType> = {
  coerce(type, node, path, context) {
    switch (node.kind) {
      case "array":
        return coerceItems(type, node.items, path, context);
      case "null":
        return repaired(
          [],
          "EmptyFromMissing",
          path,
          "null where a list was expected, read as an empty list",
          node,
        );
      case "string": {
        if (context.isScalar(type.item)) {
          const pieces = splitDelimited(node.value);
          if (pieces) {
            // Each piece points at the whole string it was split from.
            const items = pieces.map((piece, index) => ({
              ...stringNode(piece, node.complete || index < pieces.length - 1),
              start: node.start,
              end: node.end,
            }));
            const result = coerceItems(type, items, path, context);
            return result.ok
              ? addFlag(
                  result,
                  "SplitString",
                  path,
                  `split ${preview(node.value)} into ${pieces.length} items`,
                  node,
                )
              : result;
          }
        }
        return single(type, node, path, context);
      }
      case "object": {
        // `{"items": [...]}` for a list: the only entry holds the list.
        const only = node.entries.length === 1 ? node.entries[0]! : undefined;
        if (only && only[1].kind === "array") {
          const result = coerceItems(type, only[1].items, childPath(path, only[0]), context);
          if (result.ok)
            return addFlag(
              result,
              "UnwrappedObject",
              path,
              `used the list under the only key "${only[0]}"`,
              node,
            );
        }
        return single(type, node, path, context);
      }
      default:
        return single(type, node, path, context);
    }
  },
  missing: () => ({ value: [], reason: "empty" }),
  fits: (_type, node) => node.kind === "array",
  plainText: (type, context) => (context.isScalar(type.item) ? "fallback" : "never"),
};

function single(type: ListType, node: JsonishNode, path: string, context: CoerceContext): CoerceResult {
  const result = context.coerce(type.item, node, childPath(path, 0));
  if (!result.ok) return result;
  return addFlag(
    { ...result, value: [result.value] },
    "SingleToList",
    path,
    "a single value wrapped in a list",
    node,
  );
}

function coerceItems(
  type: ListType,
  items: JsonishNode[],
  path: string,
  context: CoerceContext,
): CoerceResult {
  if (items.length === 0) return exact([]);
  const builder = new ResultBuilder();
  const values: unknown[] = [];
  let firstFailure: CoerceResult | undefined;
  let failures = 0;
  for (let index = 0; index < items.length; index++) {
    const item = items[index]!;
    const itemPath = childPath(path, index);
    const result = context.coerce(type.item, item, itemPath);
    if (result.ok) {
      values.push(result.value);
      builder.add(result);
      continue;
    }
    const cutOff = !item.complete && index === items.length - 1;
    if (cutOff) {
      // The answer was cut inside its last item: drop the unfinished item, keep the rest.
      builder.flag(
        "ItemDropped",
        itemPath,
        `the last item was cut off before it was complete (${result.issue.detail ?? `found ${result.issue.found}`})`,
        item,
      );
      continue;
    }
    failures++;
    firstFailure ??= result;
    const issue = result.issue;
    builder.flag(
      "ItemDropped",
      itemPath,
      `dropped: at ${issue.path} expected ${issue.expected}, found ${issue.found}`,
      item,
    );
  }
  if (values.length === 0 && failures > 0 && firstFailure && !firstFailure.ok) {
    const issue = firstFailure.issue;
    return failure(
      "all-items-failed",
      path,
      context.describe(type),
      { kind: "array", items, complete: true },
      `${items.length === 1 ? "Its only item does not fit" : `None of its ${items.length} items fit; the first`}: at ${issue.path} expected ${issue.expected}, found ${issue.found}.${issue.detail ? ` ${issue.detail}` : ""}`,
    );
  }
  return builder.build(values);
}

function preview(text: string): string {
  return describeNode(stringNode(text));
}
