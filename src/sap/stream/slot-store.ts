import type { Type } from "../../ir/index.js";
import type { CoerceResult } from "../coerce/coerce-result.js";
import { isForOneRead, type JsonishNode } from "../lenient/jsonish-node.js";

/**
 * What the streaming coercer remembers about one (node, type, path) between chunks: the frozen result of
 * a complete node (computed once, never again), the last value handed out (so an unchanged subtree keeps
 * its identity and "nothing changed" is a pointer comparison), and a coercer's own incremental state (how
 * many list items are already coerced, which keys were already matched).
 */
/** The coercer's state kept in `slot` between chunks, made by `make` on the slot's first read. */
export function keptState<T>(slot: Slot, make: () => T): T {
  if (slot.state === undefined) slot.state = make();
  return slot.state as T;
}

export interface Slot {
  readonly type: Type;
  readonly path: string;
  final?: CoerceResult;
  last?: unknown;
  /** The last `{ value, state }` wrapper handed out, for `@stream.with_state` types. */
  wrapped?: unknown;
  /** A coercer's incremental state; dropped once `final` is set (a complete node is never read again). */
  state?: unknown;
  /**
   * How many coercion levels its reading went below it, at most (kept for the depth limit: a finished
   * value handed back from `final` still counts as deep as it is, as in final mode, which reads it again).
   */
  reach?: number;
  /** Another slot of the same node (a different type or path); nodes rarely have more than one. */
  next?: Slot;
}

/**
 * Slots keyed by node identity, then by type and path. The fixing parser's nodes grow in place, so the
 * same node object is met again on every chunk. One lookup per call, then a short list (nodes rarely have
 * more than one slot): this runs on every chunk. A plain `Map`, not a `WeakMap`: the parsers keep every
 * container node of the answer alive for the stream's life anyway (the few nodes a reader drops, one
 * combined list per object root, are as many as the roots), and a `WeakMap` with one entry per node costs
 * the garbage collector extra work on every cycle (a one-shot read of a long answer makes thousands).
 * Nodes made for one read (`isForOneRead`: the sections reading makes a new object and open value at
 * each read) are the exception: their slots sit in a `WeakMap`, dropped with the node, or a stream would
 * keep one per read, each with its value (a long line's text once per chunk).
 */
export class SlotStore {
  private readonly byNode = new Map<JsonishNode, Slot>();
  private readonly byReadNode = new WeakMap<JsonishNode, Slot>();

  slot(node: JsonishNode, type: Type, path: string): Slot {
    let first = this.byNode.get(node);
    const oneRead = first === undefined && isForOneRead(node);
    if (oneRead) first = this.byReadNode.get(node);
    for (let slot = first; slot !== undefined; slot = slot.next) {
      if (slot.type === type && slot.path === path) return slot;
    }
    // Every property set up front: one hidden class for all slots, whichever a coercer fills in.
    const slot: Slot = {
      type,
      path,
      final: undefined,
      last: undefined,
      wrapped: undefined,
      state: undefined,
      next: first,
    };
    if (oneRead) this.byReadNode.set(node, slot);
    else this.byNode.set(node, slot);
    return slot;
  }
}

/**
 * The previous value when the next one has the same own entries, else the next one: rebuilding an object
 * whose fields did not change hands out the same object again.
 */
export function stableObject(previous: unknown, next: Record<string, unknown>): Record<string, unknown> {
  if (typeof previous !== "object" || previous === null || Array.isArray(previous)) return next;
  const before = previous as Record<string, unknown>;
  const keys = Object.keys(next);
  if (Object.keys(before).length !== keys.length) return next;
  for (const key of keys) {
    if (!Object.hasOwn(before, key) || !sameValue(before[key], next[key])) return next;
  }
  return before;
}

/**
 * `stableObject` for any value: a rebuilt list or object equal, entry by entry, to the previous one is
 * replaced by the previous one. For values built outside the incremental coercers (a delimited string
 * split into a list, a value wrapped into a one-element list or a sole field), whose size is small.
 */
export function stableValue(previous: unknown, next: unknown): unknown {
  if (previous === next || typeof next !== "object" || next === null) return next;
  if (!Array.isArray(next)) return stableObject(previous, next as Record<string, unknown>);
  if (!Array.isArray(previous) || previous.length !== next.length) return next;
  for (let index = 0; index < next.length; index++) {
    if (!sameValue(previous[index], next[index])) return next;
  }
  return previous;
}

/**
 * Containers at least this large that a coercer built are remembered with who built them and when
 * (`noteBuild`): a coercer builds a new container only when it differs from the one it built before, so
 * two consecutive builds of one owner are known to differ, and comparing the two partials stops there
 * rather than walking every entry (`knownDifferent`): a read costs what changed, not the size of the map.
 * Smaller ones are compared entry by entry, which costs less than remembering them. (The record names
 * its owner, never the container built before: a partial kept alive must not keep its predecessors.)
 */
const REMEMBERED_SIZE = 32;

interface Build {
  readonly owner: object;
  readonly version: number;
}

const builds = new WeakMap<object, Build>();

/**
 * `container` (of `size` entries) is `owner`'s build number `version`, which differs from its build
 * number `version - 1`.
 */
export function noteBuild(container: object, owner: object, version: number, size: number): void {
  if (size >= REMEMBERED_SIZE) builds.set(container, { owner, version });
}

/** Whether the two containers are consecutive builds of one owner, and so differ. */
export function knownDifferent(left: object, right: object): boolean {
  const a = builds.get(left);
  if (a === undefined) return false;
  const b = builds.get(right);
  return (
    b !== undefined && a.owner === b.owner && (a.version - b.version === 1 || b.version - a.version === 1)
  );
}

/**
 * Identity, plus the small values rebuilt on every chunk that carry no identity of their own: empty
 * lists and maps (defaults of fields not written yet) and `{ value, state }` wrappers of such values.
 */
export function sameValue(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) return false;
  if (Array.isArray(left) || Array.isArray(right)) {
    return Array.isArray(left) && Array.isArray(right) && left.length === 0 && right.length === 0;
  }
  const leftKeys = Object.keys(left);
  const rightKeys = Object.keys(right);
  if (leftKeys.length !== rightKeys.length) return false;
  if (leftKeys.length === 0) return true;
  if (leftKeys.length !== 2 || !("state" in left) || !("state" in right)) return false;
  const a = left as { value?: unknown; state?: unknown };
  const b = right as { value?: unknown; state?: unknown };
  return a.state === b.state && sameValue(a.value, b.value);
}

/** Lists handed out by one list's coercer state, and how many of their first items are its frozen ones. */
const listBuilds = new WeakMap<object, { readonly owner: object; readonly frozen: number }>();

/**
 * `list` (of `size` items) was built by `owner` (a list coercer's state), its first `frozen` items being
 * that state's frozen values: coerced once and never changed, so shared by every list it builds.
 */
export function noteListBuild(list: object, owner: object, frozen: number, size: number): void {
  if (size >= REMEMBERED_SIZE) listBuilds.set(list, { owner, frozen });
}

/** How many first items the two lists are known to share without comparing them (builds of one owner). */
export function sharedItems(left: object, right: object): number {
  const a = listBuilds.get(left);
  if (a === undefined) return 0;
  const b = listBuilds.get(right);
  return b !== undefined && a.owner === b.owner ? Math.min(a.frozen, b.frozen) : 0;
}
