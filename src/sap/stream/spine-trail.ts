import type { Type } from "../../ir/index.js";
import { childPath } from "../coerce/coerce-result.js";
import { setOwn } from "../coerce/set-own.js";
import { fieldOfLastEntry } from "../kinds/class/coerce-class.js";
import { itemsShownBeforeOpen } from "../kinds/list/coerce-list.js";
import type { JsonishNode } from "../lenient/jsonish-node.js";
import { isRecord } from "./check-partial-value.js";
import type { StreamCoerceContext } from "./stream-coerce-context.js";

/**
 * One step down the open right-hand spine of a partial value: the container in the partial, the key of
 * the child being written in it, and that child's node, type and path (as the coercers name it).
 */
export interface TrailStep {
  container: Record<string, unknown> | unknown[];
  key: string | number;
  node: JsonishNode;
  type: Type;
  path: string;
}

/**
 * Where the value still being written sits in the last partial, as far down the spine as nothing but plain
 * classes, lists and optionals lie between (no streaming attributes, no constraints, no unions). The
 * fixing parser only ever changes the nodes on the right-hand spine of its last root, so a chunk changes
 * one spine node and the ones under it: the next partial is the last one with the value at that node
 * coerced again and the containers above it copied with that one child replaced, which is exactly what
 * coercing the whole spine again gives (each container above shows its open child last, and nothing else
 * of it can have changed), at the cost of a few shallow copies.
 */
export type SpineTrail = TrailStep[];

/**
 * The trail from `value` (the partial of `node` as `type`, at `path`) down the open spine, as deep as it is
 * plain. Empty when the top itself is not a plain open container.
 */
export function traceSpine(
  type: Type,
  node: JsonishNode,
  path: string,
  value: unknown,
  context: StreamCoerceContext,
  trail: SpineTrail = [],
): SpineTrail {
  for (;;) {
    type = unwrapPlain(type);
    if (type.attrs !== undefined || node.complete) return trail;
    if (type.kind === "class") {
      const declaration = context.index.getClass(type.name);
      if (declaration.streamDone || declaration.constraints.length > 0) return trail;
      if (node.kind !== "object" || !isRecord(value)) return trail;
      const entry = node.entries[node.entries.length - 1];
      if (entry === undefined) return trail;
      const field = fieldOfLastEntry(declaration, type, node, path, context);
      if (field === undefined || !Object.hasOwn(value, field.name)) return trail;
      // A field with streaming attributes is shown by rules of its own (held back, wrapped): not plain.
      const fieldType = unwrapPlain(field.type);
      if (fieldType.attrs !== undefined) return trail;
      const fieldPath = childPath(path, field.name);
      trail.push({ container: value, key: field.name, node: entry[1], type: fieldType, path: fieldPath });
      value = value[field.name];
      node = entry[1];
      type = fieldType;
      path = fieldPath;
      continue;
    }
    if (type.kind === "list") {
      if (node.kind !== "array" || !Array.isArray(value)) return trail;
      const index = node.items.length - 1;
      const item = node.items[index];
      // The open item must be the one shown last (an item that is not ready is left out).
      if (
        item === undefined ||
        item.complete ||
        value.length !== itemsShownBeforeOpen(node, type, path, context) + 1
      ) {
        return trail;
      }
      const itemType = unwrapPlain(type.item);
      if (itemType.attrs !== undefined) return trail;
      const itemPath = childPath(path, index);
      trail.push({ container: value, key: value.length - 1, node: item, type: itemType, path: itemPath });
      value = value[value.length - 1];
      node = item;
      type = itemType;
      path = itemPath;
      continue;
    }
    return trail;
  }
}

/**
 * The partial after the node at `trail[depth - 1]` was coerced again to `value`: the containers above it
 * copied with the new child put in place. The trail keeps its steps down to that node (their containers
 * now the copies); the caller traces on below it.
 */
export function patchSpine(trail: SpineTrail, depth: number, value: unknown): unknown {
  if (trail.length !== depth) trail.length = depth;
  let child = value;
  for (let index = depth - 1; index >= 0; index--) {
    const step = trail[index]!;
    const container = step.container;
    let copy: Record<string, unknown> | unknown[];
    if (Array.isArray(container)) {
      copy = container.slice();
      copy[step.key as number] = child;
    } else {
      copy = setOwn({ ...container }, step.key as string, child);
    }
    step.container = copy;
    child = copy;
  }
  return child;
}

/** A plain optional (no attributes) reads as its inner type for any node that is not null. */
function unwrapPlain(type: Type): Type {
  while (type.kind === "optional" && type.attrs === undefined) type = type.inner;
  return type;
}
