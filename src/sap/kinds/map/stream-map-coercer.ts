import type { MapType } from "../../../ir/index.js";
import type { KindCoercer } from "../../coerce/coerce-context.js";
import { type CheckResult, type CoerceResult, childPath, failure } from "../../coerce/coerce-result.js";
import { setOwn } from "../../coerce/set-own.js";
import { FLAG_PENALTIES, type Flag } from "../../flags.js";
import { type ObjectNode, stringNode } from "../../lenient/jsonish-node.js";
import { noteBuild, sameValue } from "../../stream/slot-store.js";
import {
  pendingOf,
  type StreamCoerceContext,
  type StreamSuccess,
  shownButWillFail,
} from "../../stream/stream-coerce-context.js";
import { mapCoercer } from "./coerce-map.js";
import { keyCollision } from "./key-collision.js";

/** The entries of a growing object already coerced (all but the one being written). */
interface EntriesState {
  frozen: number;
  value: Record<string, unknown>;
  flags: Flag[];
  checks: CheckResult[];
  score: number;
  pending: number;
  kept: number;
  firstProblem: string | undefined;
  /** The last entry whose key replaced an earlier one (announced once). */
  announced: number;
  /** Each key of `value` as the answer wrote it (`keyCollision`). */
  written: Map<string, string>;
  /** The keys of `value`, in the order they were first set (its order; `copyEntries`). */
  order: string[];
  /** The map handed out at the last read, and how many keys it has. */
  shown: Record<string, unknown> | undefined;
  shownKeys: number;
  /** How many maps were built and handed out (`noteBuild`). */
  builds: number;
  /** The key of the entry being written when `shown` was built (it is in `shown`, maybe not in `value`). */
  shownOpen: string | undefined;
  /** The keys set in `value` since `shown` was handed out (see `sameAsShown`). */
  touched: string[];
}

/**
 * `map<K, V>` in prefix mode, incrementally: each finished entry is coerced once (its key to K, its value
 * to V; entries that do not fit are dropped, as in final mode); the entry being written is shown once its
 * value is ready. Null and other shapes go to the final-mode rules.
 */
export const streamMapCoercer: KindCoercer<MapType> = {
  ...mapCoercer,
  coerce(type, node, path, baseContext) {
    const context = baseContext as StreamCoerceContext;
    if (node.kind !== "object") return mapCoercer.coerce(type, node, path, context);
    return coerceEntries(type, node, path, context);
  },
};

/** Maps with fewer keys are copied by a spread (see `copyEntries`). */
const SPREAD_BELOW = 32;

function coerceEntries(
  type: MapType,
  node: ObjectNode,
  path: string,
  context: StreamCoerceContext,
): CoerceResult {
  const slot = context.slot(node, type, path);
  let state = slot.state as EntriesState | undefined;
  if (!state) {
    state = {
      frozen: 0,
      value: {},
      flags: [],
      checks: [],
      score: 0,
      pending: 0,
      kept: 0,
      firstProblem: undefined,
      announced: -1,
      written: new Map(),
      order: [],
      shown: undefined,
      shownKeys: 0,
      builds: 0,
      shownOpen: undefined,
      touched: [],
    };
    slot.state = state;
  }
  const entries = node.entries;
  while (state.frozen < entries.length) {
    const index = state.frozen;
    const [key, entryNode] = entries[index]!;
    if (!entryNode.complete && index === entries.length - 1) break;
    const entry = coerceEntry(type, key, entryNode, path, context);
    if (entry.ok) {
      const entryKey = String(entry.key);
      announceReplacement(state, index, entryKey, context);
      if (!Object.hasOwn(state.value, entryKey)) state.order.push(entryKey);
      setOwn(state.value, entryKey, entry.value);
      state.touched.push(entryKey);
      state.kept++;
      state.score += entry.score;
      state.pending += entry.pending;
      const collision = keyCollision(state.written, String(entry.key), key, path);
      if (collision) state.score += FLAG_PENALTIES.KeyCollision;
      if (context.collectFlags) {
        if (collision) state.flags.push(collision);
        state.flags.push(...entry.flags);
        state.checks.push(...entry.checks);
      }
    } else {
      state.firstProblem ??= entry.problem;
      state.score += FLAG_PENALTIES.EntryDropped;
      if (context.collectFlags) {
        state.flags.push({
          kind: "EntryDropped",
          path: childPath(path, key),
          detail: `dropped: ${entry.problem}`,
        });
      }
    }
    state.frozen++;
  }
  let score = state.score;
  let pending = state.pending;
  const flags: Flag[] = context.collectFlags ? [...state.flags] : [];
  const checks: CheckResult[] = context.collectFlags ? [...state.checks] : [];
  let openKey: string | undefined;
  let openValue: unknown;
  if (state.frozen < entries.length) {
    const [key, entryNode] = entries[entries.length - 1]!;
    const entry = coerceEntry(type, key, entryNode, path, context);
    if (entry.ok) {
      openKey = String(entry.key);
      openValue = entry.value;
      announceReplacement(state, entries.length - 1, openKey, context);
      score += entry.score;
      pending += entry.pending;
      const collision = keyCollision(state.written, openKey, key, path, false);
      if (collision) score += FLAG_PENALTIES.KeyCollision;
      if (context.collectFlags) {
        if (collision) flags.push(collision);
        flags.push(...entry.flags);
        checks.push(...entry.checks);
      }
    } else {
      score += FLAG_PENALTIES.EntryDropped;
    }
  }
  if (state.kept === 0 && openKey === undefined && state.firstProblem !== undefined) {
    const failed = failure(
      "all-items-failed",
      path,
      context.describe(type),
      node,
      `No entry fits; the first: ${state.firstProblem}.`,
    );
    if (!node.complete) return failed;
    return shownButWillFail(failed, shownMap(state, node.complete, undefined, undefined), context);
  }
  const value = shownMap(state, node.complete, openKey, openValue);
  const success: StreamSuccess = { ok: true, value, flags, score, checks, pending };
  return success;
}

/**
 * The map to hand out: the one handed out last when nothing in it changed, else a new one (a partial
 * handed out never changes afterwards). Whether anything changed is told from the entries set since then
 * and the entry being written, never by walking the whole map: a read costs what changed plus one copy.
 * A closed map with no entry open is the coerced entries themselves (nothing is added to them again).
 */
function shownMap(
  state: EntriesState,
  closed: boolean,
  openKey: string | undefined,
  openValue: unknown,
): Record<string, unknown> {
  const added = openKey !== undefined && !Object.hasOwn(state.value, openKey) ? 1 : 0;
  const keys = state.order.length + added;
  const shown = state.shown;
  if (shown !== undefined && sameAsShown(state, shown, keys, openKey, openValue)) {
    state.touched.length = 0;
    state.shownOpen = openKey;
    return shown;
  }
  let value: Record<string, unknown>;
  if (openKey !== undefined) value = setOwn(copyEntries(state), openKey, openValue);
  else value = closed ? state.value : copyEntries(state);
  noteBuild(value, state, ++state.builds, keys);
  state.shown = value;
  state.shownKeys = keys;
  state.shownOpen = openKey;
  state.touched.length = 0;
  return value;
}

/**
 * A copy of the coerced entries. A map of more than a few dozen keys is a dictionary in V8, which a
 * spread (`{ ...value }`) copies at two to five times the cost of setting its keys one by one from the
 * list of keys (it enumerates and sorts them first), and this copy is most of what a read of a long map
 * costs; a small map is copied faster by a spread.
 */
function copyEntries(state: EntriesState): Record<string, unknown> {
  const value = state.value;
  const order = state.order;
  if (order.length < SPREAD_BELOW) return { ...value };
  const copy: Record<string, unknown> = {};
  for (let index = 0; index < order.length; index++) {
    const key = order[index]!;
    setOwn(copy, key, value[key]);
  }
  return copy;
}

/**
 * Whether the map now (the coerced entries, plus the one being written) equals `shown`: as many keys, and
 * the same value under every key that may have changed since (the keys set since, the entry being written
 * then and now); every other key holds what it held when `shown` was copied from the entries.
 */
function sameAsShown(
  state: EntriesState,
  shown: Record<string, unknown>,
  keys: number,
  openKey: string | undefined,
  openValue: unknown,
): boolean {
  if (state.shownKeys !== keys) return false;
  const value = state.value;
  const same = (key: string): boolean => {
    if (!Object.hasOwn(shown, key)) return false;
    if (key === openKey) return sameValue(shown[key], openValue);
    return Object.hasOwn(value, key) && sameValue(shown[key], value[key]);
  };
  if (openKey !== undefined && !same(openKey)) return false;
  if (state.shownOpen !== undefined && !same(state.shownOpen)) return false;
  for (const key of state.touched) if (!same(key)) return false;
  return true;
}

type EntryOutcome =
  | {
      ok: true;
      key: unknown;
      value: unknown;
      score: number;
      pending: number;
      flags: readonly Flag[];
      checks: readonly CheckResult[];
    }
  | { ok: false; problem: string };

function coerceEntry(
  type: MapType,
  key: string,
  entryNode: ObjectNode["entries"][number][1],
  path: string,
  context: StreamCoerceContext,
): EntryOutcome {
  const entryPath = childPath(path, key);
  const keyResult = context.coerce(type.key, stringNode(key), entryPath);
  if (!keyResult.ok) return { ok: false, problem: `the key "${key}" is not a ${keyResult.issue.expected}` };
  const valueResult = context.coerce(type.value, entryNode, entryPath);
  if (!valueResult.ok) {
    const issue = valueResult.issue;
    return { ok: false, problem: `at ${issue.path} expected ${issue.expected}, found ${issue.found}` };
  }
  return {
    ok: true,
    key: keyResult.value,
    value: valueResult.value,
    score: keyResult.score + valueResult.score,
    pending: pendingOf(valueResult),
    flags: [...keyResult.flags, ...valueResult.flags],
    checks: [...keyResult.checks, ...valueResult.checks],
  };
}

/** A key written again replaces the entry shown for it: counted once per entry, for `ReadingSwitch`. */
function announceReplacement(
  state: EntriesState,
  index: number,
  key: string,
  context: StreamCoerceContext,
): void {
  if (state.announced >= index || !Object.hasOwn(state.value, key)) return;
  state.announced = index;
  context.restarts++;
}
