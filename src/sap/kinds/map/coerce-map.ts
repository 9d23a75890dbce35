import type { MapType } from "../../../ir/index.js";
import type { CoerceContext, KindCoercer } from "../../coerce/coerce-context.js";
import {
  type CheckResult,
  type CoerceFailure,
  type CoerceResult,
  type CoerceSuccess,
  childPath,
  failure,
  foldRepair,
  NONE,
  repaired,
} from "../../coerce/coerce-result.js";
import { setOwn } from "../../coerce/set-own.js";
import { FLAG_PENALTIES, type Flag, flagAt } from "../../flags.js";
import type { JsonishNode, ObjectNode, StringNode } from "../../lenient/jsonish-node.js";
import { keptState, noteBuild, sameValue } from "../../stream/slot-store.js";
import type { StreamCoerceContext } from "../../stream/stream-coerce-context.js";
import { pendingOf, type StreamSuccess, shownButWillFail, streamOf } from "../../stream/stream-of.js";
import { keyCollision } from "./key-collision.js";

/**
 * `map<K, V>`: objects entry by entry; keys are coerced to K (enum keys match like enum values), values
 * to V; entries that do not fit are dropped (flagged), but a non-empty object where every entry fails is
 * an error. Null is an empty map (flagged). `__proto__` keys stay plain data.
 *
 * One fold over the entries for both modes (docs/decisions/0040): each entry is read (`readEntry`) and
 * folded into an `EntriesFold` (`foldEntry`). In a one-shot read the fold is local and takes every entry.
 * In a stream it is kept in the node's slot and takes each finished entry once; the entry being written
 * is read again at every read but not folded, and the map handed out is a view of the fold plus that
 * entry (`shownMap`).
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
    return coerceEntries(type, node, path, context);
  },
  missing: () => ({ value: {}, reason: "empty" }),
  fits: (_type, node) => node.kind === "object",
  plainText: () => "never",
};

/** The entries of an object folded so far (in a stream: all but the one being written). */
interface EntriesFold {
  /** How many entries are folded. */
  folded: number;
  value: Record<string, unknown>;
  flags: Flag[];
  checks: CheckResult[];
  score: number;
  /** Fields still to come in the values (a stream's count, for choosing readings). */
  pending: number;
  kept: number;
  firstProblem: string | undefined;
  /** The last entry whose key replaced an earlier one (announced once). */
  announced: number;
  /** Each key of `value` as the answer wrote it (`keyCollision`). */
  written: Map<string, string>;
  /** What a stream handed out of it (undefined in a one-shot read). */
  shown: ShownMap | undefined;
}

/** What a stream keeps to hand out a map of many entries at the cost of what changed (docs/decisions/0037). */
interface ShownMap {
  /** The keys of the fold's `value`, in the order they were first set (its order; `copyEntries`). */
  order: string[];
  /** The keys set in the fold's `value` since `map` was handed out (see `sameAsShown`). */
  touched: string[];
  /** The map handed out at the last read, and how many keys it has. */
  map: Record<string, unknown> | undefined;
  keys: number;
  /** How many maps were built and handed out (`noteBuild`). */
  builds: number;
  /** The key of the entry being written when `map` was built (it is in `map`, maybe not in `value`). */
  open: string | undefined;
}

function coerceEntries(type: MapType, node: ObjectNode, path: string, context: CoerceContext): CoerceResult {
  const stream = streamOf(context);
  let fold: EntriesFold;
  if (stream === undefined) {
    fold = newFold(undefined);
  } else {
    fold = keptState(stream.slot(node, type, path), () =>
      newFold({ order: [], touched: [], map: undefined, keys: 0, builds: 0, open: undefined }),
    );
  }
  const collect = stream === undefined || stream.collectFlags;
  const entries = node.entries;
  const last = entries.length - 1;
  // In a stream the last entry, while it is being written, is read at every read and never folded.
  const open = stream !== undefined && last >= 0 && !entries[last]![1].complete ? last : -1;
  while (fold.folded < entries.length && fold.folded !== open) {
    foldEntry(fold, type, entries[fold.folded]!, path, context, stream, collect, last);
    fold.folded++;
  }
  if (stream === undefined) {
    const failed = allEntriesFailed(fold, type, node, path, context);
    if (failed) return failed;
    return { ok: true, value: fold.value, flags: fold.flags, score: fold.score, checks: fold.checks };
  }
  let score = fold.score;
  let pending = fold.pending;
  let openFlags: readonly Flag[] = NONE;
  let openChecks: readonly CheckResult[] = NONE;
  let openKey: string | undefined;
  let openValue: unknown;
  if (open >= 0) {
    const [key, entryNode] = entries[open]!;
    const entry = readEntry(type, key, entryNode, path, context);
    if (entry.ok) {
      openKey = entry.key;
      openValue = entry.valueResult.value;
      announceKeyAgain(fold, open, openKey, path, context, stream);
      score += entry.keyResult.score + entry.valueResult.score;
      pending += pendingOf(entry.valueResult);
      const collision = keyCollision(fold.written, openKey, key, path, false);
      if (collision) score += FLAG_PENALTIES.KeyCollision;
      if (collect) {
        openFlags = [...entry.keyResult.flags, ...entry.valueResult.flags];
        if (collision)
          openFlags = [...openFlags, flagAt(collision.kind, collision.path, collision.detail, entryNode)];
        openChecks = [...entry.keyResult.checks, ...entry.valueResult.checks];
      }
    } else {
      // Not ready yet, or it does not fit: left out for now.
      score += FLAG_PENALTIES.EntryDropped;
    }
  }
  const flags = collect ? [...fold.flags, ...openFlags] : NONE;
  const checks = collect ? [...fold.checks, ...openChecks] : NONE;
  if (openKey === undefined) {
    const failed = allEntriesFailed(fold, type, node, path, context);
    if (failed) {
      // A partial keeps the map it shows; only the final parse fails on a closed one.
      if (!node.complete) return failed;
      return shownButWillFail(failed, shownMap(fold, fold.shown!, true, undefined, undefined), stream);
    }
  }
  const value = shownMap(fold, fold.shown!, node.complete, openKey, openValue);
  const success: StreamSuccess = { ok: true, value, flags, score, checks, pending };
  return success;
}

function newFold(shown: ShownMap | undefined): EntriesFold {
  return {
    folded: 0,
    value: {},
    flags: [],
    checks: [],
    score: 0,
    pending: 0,
    kept: 0,
    firstProblem: undefined,
    announced: -1,
    written: new Map(),
    shown,
  };
}

/** As in final mode: a non-empty object none of whose entries fit is an error, not `{}`. */
function allEntriesFailed(
  fold: EntriesFold,
  type: MapType,
  node: ObjectNode,
  path: string,
  context: CoerceContext,
): CoerceFailure | undefined {
  // (One entry cut off is no map yet: it was dropped, flagged, and the map is empty.)
  if (fold.kept > 0 || fold.firstProblem === undefined || (node.entries.length === 1 && !node.complete))
    return undefined;
  return failure(
    "all-items-failed",
    path,
    context.describe(type),
    node,
    `No entry fits; the first: ${fold.firstProblem}.`,
  );
}

/** One entry read: its key coerced to K and its value to V, or why it is dropped. */
type EntryReading =
  | { ok: true; key: string; keyResult: CoerceSuccess; valueResult: CoerceSuccess }
  | { ok: false; problem: string; valueFailed: boolean };

function readEntry(
  type: MapType,
  key: string,
  entryNode: JsonishNode,
  path: string,
  context: CoerceContext,
): EntryReading {
  const entryPath = childPath(path, key);
  // The key has no span of its own: its flags point at the entry's value.
  const keyNode: StringNode = {
    kind: "string",
    value: key,
    complete: true,
    start: entryNode.start,
    end: entryNode.end,
  };
  const keyResult = context.coerce(type.key, keyNode, entryPath);
  if (!keyResult.ok) {
    return {
      ok: false,
      problem: `the key "${key}" is not a ${keyResult.issue.expected}`,
      valueFailed: false,
    };
  }
  const valueResult = context.coerce(type.value, entryNode, entryPath);
  if (!valueResult.ok) {
    const issue = valueResult.issue;
    return {
      ok: false,
      problem: `at ${issue.path} expected ${issue.expected}, found ${issue.found}`,
      valueFailed: true,
    };
  }
  return { ok: true, key: String(keyResult.value), keyResult, valueResult };
}

/** Fold one entry (the `index`-th; `last` is the object's last index) into `fold`. */
function foldEntry(
  fold: EntriesFold,
  type: MapType,
  [key, entryNode]: [string, JsonishNode],
  path: string,
  context: CoerceContext,
  stream: StreamCoerceContext | undefined,
  collect: boolean,
  last: number,
): void {
  const index = fold.folded;
  const entry = readEntry(type, key, entryNode, path, context);
  if (!entry.ok) {
    fold.firstProblem ??= entry.problem;
    const cutOff = entry.valueFailed && !entryNode.complete && index === last;
    foldRepair(
      fold,
      collect,
      "EntryDropped",
      childPath(path, key),
      cutOff ? "the last entry was cut off before it was complete" : `dropped: ${entry.problem}`,
      entryNode,
    );
    return;
  }
  const entryKey = entry.key;
  announceKeyAgain(fold, index, entryKey, path, context, stream);
  fold.score += entry.keyResult.score + entry.valueResult.score;
  if (collect) {
    for (const flag of entry.keyResult.flags) fold.flags.push(flag);
    for (const flag of entry.valueResult.flags) fold.flags.push(flag);
    for (const check of entry.keyResult.checks) fold.checks.push(check);
    for (const check of entry.valueResult.checks) fold.checks.push(check);
  }
  const collision = keyCollision(fold.written, entryKey, key, path);
  if (collision) foldRepair(fold, collect, collision.kind, collision.path, collision.detail, entryNode);
  const shown = fold.shown;
  if (shown !== undefined) {
    fold.pending += pendingOf(entry.valueResult);
    if (!Object.hasOwn(fold.value, entryKey)) shown.order.push(entryKey);
    shown.touched.push(entryKey);
  }
  setOwn(fold.value, entryKey, entry.valueResult.value);
  fold.kept++;
}

/**
 * A key written again replaces the entry an earlier one gave (the last key wins). Final mode tells
 * `onKeyAgain`; a stream announces it once per entry (`restarts`: the read carries `ReadingSwitch`),
 * already while the entry is being written.
 */
function announceKeyAgain(
  fold: EntriesFold,
  index: number,
  key: string,
  path: string,
  context: CoerceContext,
  stream: StreamCoerceContext | undefined,
): void {
  if (fold.announced >= index || !Object.hasOwn(fold.value, key)) return;
  fold.announced = index;
  if (stream === undefined) context.onKeyAgain?.(path);
  else stream.restarts++;
}

/** Maps with fewer keys are copied by a spread (see `copyEntries`). */
const SPREAD_BELOW = 32;

/**
 * The map a stream hands out: the one handed out last when nothing in it changed, else a new one (a
 * partial handed out never changes afterwards). Whether anything changed is told from the entries set
 * since then and the entry being written, never by walking the whole map: a read costs what changed plus
 * one copy. A closed map with no entry open is the folded entries themselves (nothing is added to them
 * again).
 */
function shownMap(
  fold: EntriesFold,
  shown: ShownMap,
  closed: boolean,
  openKey: string | undefined,
  openValue: unknown,
): Record<string, unknown> {
  const added = openKey !== undefined && !Object.hasOwn(fold.value, openKey) ? 1 : 0;
  const keys = shown.order.length + added;
  const before = shown.map;
  if (before !== undefined && sameAsShown(fold, shown, before, keys, openKey, openValue)) {
    shown.touched.length = 0;
    shown.open = openKey;
    return before;
  }
  let value: Record<string, unknown>;
  if (openKey !== undefined) value = setOwn(copyEntries(fold.value, shown.order), openKey, openValue);
  else value = closed ? fold.value : copyEntries(fold.value, shown.order);
  noteBuild(value, shown, ++shown.builds, keys);
  shown.map = value;
  shown.keys = keys;
  shown.open = openKey;
  shown.touched.length = 0;
  return value;
}

/**
 * A copy of the folded entries. A map of more than a few dozen keys is a dictionary in V8, which a
 * spread (`{ ...value }`) copies at two to five times the cost of setting its keys one by one from the
 * list of keys (it enumerates and sorts them first), and this copy is most of what a read of a long map
 * costs; a small map is copied faster by a spread.
 */
function copyEntries(value: Record<string, unknown>, order: string[]): Record<string, unknown> {
  if (order.length < SPREAD_BELOW) return { ...value };
  const copy: Record<string, unknown> = {};
  for (let index = 0; index < order.length; index++) {
    const key = order[index]!;
    setOwn(copy, key, value[key]);
  }
  return copy;
}

/**
 * Whether the map now (the folded entries, plus the one being written) equals `before`: as many keys,
 * and the same value under every key that may have changed since (the keys set since, the entry being
 * written then and now); every other key holds what it held when `before` was copied from the entries.
 */
function sameAsShown(
  fold: EntriesFold,
  shown: ShownMap,
  before: Record<string, unknown>,
  keys: number,
  openKey: string | undefined,
  openValue: unknown,
): boolean {
  if (shown.keys !== keys) return false;
  const value = fold.value;
  const same = (key: string): boolean => {
    if (!Object.hasOwn(before, key)) return false;
    if (key === openKey) return sameValue(before[key], openValue);
    return Object.hasOwn(value, key) && sameValue(before[key], value[key]);
  };
  if (openKey !== undefined && !same(openKey)) return false;
  if (shown.open !== undefined && !same(shown.open)) return false;
  for (const key of shown.touched) if (!same(key)) return false;
  return true;
}
