import type { Type } from "../../ir/index.js";
import { childPath } from "../coerce/coerce-result.js";
import { setOwn } from "../coerce/set-own.js";
import type { JsonishNode, StringNode } from "../lenient/jsonish-node.js";
import { fieldNamed } from "./stream-class-coercer.js";
import type { StreamCoerceContext } from "./stream-coerce-context.js";

/** One step from a partial value down to the string being written: the container and the key in it. */
interface TrailStep {
  container: Record<string, unknown> | unknown[];
  key: string | number;
}

/**
 * Where the string still being written sits in the partial value, when nothing but plain classes, lists
 * and optionals lie between them (no streaming attributes, no constraints, no unions). Most chunks of a
 * long answer only make that string longer; then the next partial is the last one with the string
 * replaced along this path, which is exactly what re-coercing the spine would give, at the cost of a
 * few shallow copies.
 */
export interface LeafTrail {
  leaf: StringNode;
  steps: TrailStep[];
}

/**
 * The trail from `value` (the partial of `node` as `type`) to the open string at the end of the node's
 * right-hand spine, or undefined when the way down is anything but plain (then chunks take the full path).
 */
export function traceLeaf(
  type: Type,
  node: JsonishNode,
  value: unknown,
  context: StreamCoerceContext,
): LeafTrail | undefined {
  const steps: TrailStep[] = [];
  let path = "$";
  for (;;) {
    while (type.kind === "optional" && type.attrs === undefined) type = type.inner;
    if (type.attrs !== undefined || node.complete) return undefined;
    if (type.kind === "primitive") {
      if (type.name !== "string" || node.kind !== "string") return undefined;
      return value === leafValue(node, context) ? { leaf: node, steps } : undefined;
    }
    if (type.kind === "class") {
      const declaration = context.index.getClass(type.name);
      if (declaration.streamDone || declaration.constraints.length > 0) return undefined;
      if (node.kind !== "object" || !isRecord(value)) return undefined;
      const entry = node.entries[node.entries.length - 1];
      if (entry === undefined) return undefined;
      const field = fieldNamed(declaration, entry[0]);
      if (field === undefined || !Object.hasOwn(value, field.name)) return undefined;
      steps.push({ container: value, key: field.name });
      path = childPath(path, field.name);
      value = value[field.name];
      node = entry[1];
      type = field.type;
      continue;
    }
    if (type.kind === "list") {
      if (node.kind !== "array" || !Array.isArray(value)) return undefined;
      const index = node.items.length - 1;
      const item = node.items[index];
      // The open item must be the one shown last (an item that is not ready is left out).
      if (
        item === undefined ||
        item.complete ||
        value.length !== shownBefore(node, type, path, context) + 1
      ) {
        return undefined;
      }
      steps.push({ container: value, key: value.length - 1 });
      path = childPath(path, index);
      value = value[value.length - 1];
      node = item;
      type = type.item;
      continue;
    }
    return undefined;
  }
}

/** The partial after the leaf grew: the trail's containers copied with the new string put in place. */
export function growLeaf(
  trail: LeafTrail,
  context: StreamCoerceContext,
): { value: unknown; trail: LeafTrail } {
  let child: unknown = leafValue(trail.leaf, context);
  const steps: TrailStep[] = new Array(trail.steps.length);
  for (let index = trail.steps.length - 1; index >= 0; index--) {
    const { container, key } = trail.steps[index]!;
    let copy: Record<string, unknown> | unknown[];
    if (Array.isArray(container)) {
      copy = container.slice();
      copy[key as number] = child;
    } else {
      copy = setOwn({ ...container }, key as string, child);
    }
    steps[index] = { container: copy, key };
    child = copy;
  }
  return { value: child, trail: { leaf: trail.leaf, steps } };
}

/** As the streaming context shows a string being written (never half of an escaped surrogate pair). */
function leafValue(node: StringNode, context: StreamCoerceContext): string {
  const value = node.value;
  if (!context.escapes) return value;
  const last = value.charCodeAt(value.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? value.slice(0, -1) : value;
}

/** How many finished items the list coercer shows for this array (its frozen, fitting items). */
function shownBefore(node: JsonishNode, type: Type, path: string, context: StreamCoerceContext): number {
  const state = context.slot(node, type, path).state as { frozen: number; values: unknown[] } | undefined;
  if (state === undefined || node.kind !== "array" || state.frozen !== node.items.length - 1) return -2;
  return state.values.length;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
