import type { ListType, Type } from "../../../ir/index.js";
import type { CoerceContext, KindCoercer } from "../../coerce/coerce-context.js";
import {
  addFlag,
  type CheckResult,
  type CoerceFailure,
  type CoerceResult,
  childPath,
  describeNode,
  failure,
  foldRepair,
  NONE,
  repaired,
} from "../../coerce/coerce-result.js";
import { FLAG_PENALTIES, type Flag, flagAt } from "../../flags.js";
import {
  type ArrayNode,
  isOpenedEmptyString,
  type JsonishNode,
  type StringNode,
} from "../../lenient/jsonish-node.js";
import { keptState, noteListBuild, stableValue } from "../../stream/slot-store.js";
import type { StreamCoerceContext } from "../../stream/stream-coerce-context.js";
import { pendingOf, type StreamSuccess, shownButWillFail, streamOf } from "../../stream/stream-of.js";
import { DelimitedSplitter } from "./split-delimited.js";

/**
 * `T[]`: lists item by item (items that do not fit are dropped, flagged; if every item of a non-empty
 * list fails, that is an error, not `[]`); a delimited string of scalars is split; any other single value
 * becomes a one-element list; null or missing is `[]` (flagged).
 *
 * One fold over the items for both modes (docs/decisions/0040): each item is coerced and folded into an
 * `ItemsFold` (`foldItem`), the items of a JSON list and the pieces of a split string alike. In a one-shot
 * read (`readList`) the fold is local and takes every item. In a stream (`shownList`) it is kept in the
 * node's slot and takes each finished item once; the item being written is read at every read and added
 * to the view (`listValue`), not to the fold.
 */
export const listCoercer: KindCoercer<ListType> = {
  coerce(type, node, path, context) {
    const stream = streamOf(context);
    return stream === undefined ? readList(type, node, path, context) : shownList(type, node, path, stream);
  },
  missing: () => ({ value: [], reason: "empty" }),
  fits: (_type, node) => node.kind === "array",
  plainText: (type, context) => (context.isScalar(type.item) ? "fallback" : "never"),
};

/** A one-shot read of a list: every rule of the kind, the fold local to the call. */
function readList(type: ListType, node: JsonishNode, path: string, context: CoerceContext): CoerceResult {
  switch (node.kind) {
    case "array":
      return foldItems(type, node, path, context, undefined);
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
        const split = foldPieces(type, node, path, context, undefined);
        if (split !== undefined) return split;
      }
      return single(type, node, path, context);
    }
    case "object": {
      const wrapped = wrappedList(node);
      if (wrapped) {
        const result = foldItems(type, wrapped.list, childPath(path, wrapped.key), context, undefined);
        if (result.ok) return unwrapped(result, wrapped.key, path, node);
      }
      return single(type, node, path, context);
    }
    default:
      return single(type, node, path, context);
  }
}

/** `{"items": [...]}` for a list: the only entry holds the list. */
function wrappedList(node: JsonishNode): { key: string; list: ArrayNode } | undefined {
  if (node.kind !== "object" || node.entries.length !== 1) return undefined;
  const [key, list] = node.entries[0]!;
  return list.kind === "array" ? { key, list } : undefined;
}

function unwrapped(result: CoerceResult, key: string, path: string, node: JsonishNode): CoerceResult {
  if (!result.ok) return result;
  return addFlag(result, "UnwrappedObject", path, `used the list under the only key "${key}"`, node);
}

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

/** The items folded so far (in a stream: all but the one being written). */
interface ItemsFold {
  /** How many items are folded. */
  folded: number;
  values: unknown[];
  /** Gathered children's flags and checks (made when the first comes: most lists have none). */
  flags: Flag[] | undefined;
  checks: CheckResult[] | undefined;
  score: number;
  /** Fields still to come in the items (a stream's count, for choosing readings). */
  pending: number;
  failures: number;
  firstFailure: CoerceFailure | undefined;
  /** A stream's: the item being written and its path (built once per item, not once per chunk). */
  openIndex: number;
  openPath: string;
  /** A stream's: the last list handed out. */
  last: unknown[] | undefined;
}

function newFold(): ItemsFold {
  return {
    folded: 0,
    values: [],
    flags: undefined,
    checks: undefined,
    score: 0,
    pending: 0,
    failures: 0,
    firstFailure: undefined,
    openIndex: -1,
    openPath: "",
    last: undefined,
  };
}

/**
 * Fold one item: kept, or dropped (flagged). An item cut off at the end of the answer (`cutOff`, a
 * one-shot read's last item; a stream never folds the item being written) is dropped without counting as
 * a failure: the items before it stand.
 */
function foldItem(
  fold: ItemsFold,
  type: ListType,
  item: JsonishNode,
  path: string,
  context: CoerceContext,
  stream: StreamCoerceContext | undefined,
  cutOff: boolean,
): void {
  const collect = stream === undefined || stream.collectFlags;
  const result = context.coerce(type.item, item, path);
  if (result.ok) {
    fold.values.push(result.value);
    fold.score += result.score;
    if (stream !== undefined) fold.pending += pendingOf(result);
    if (collect) {
      if (result.flags.length > 0) {
        if (fold.flags === undefined) fold.flags = [];
        for (const flag of result.flags) fold.flags.push(flag);
      }
      if (result.checks.length > 0) {
        if (fold.checks === undefined) fold.checks = [];
        for (const check of result.checks) fold.checks.push(check);
      }
    }
    return;
  }
  const issue = result.issue;
  if (cutOff) {
    const detail = `the last item was cut off before it was complete (${issue.detail ?? `found ${issue.found}`})`;
    foldRepair(fold, collect, "ItemDropped", path, detail, item);
    return;
  }
  fold.failures++;
  fold.firstFailure ??= result;
  const detail = `dropped: at ${issue.path} expected ${issue.expected}, found ${issue.found}`;
  foldRepair(fold, collect, "ItemDropped", path, detail, item);
}

/**
 * As in final mode: a list none of whose items fit is an error, not `[]`. `found` is what the items were
 * read from (the list, or the string split into them), `count` how many there are.
 */
function allItemsFailed(
  fold: ItemsFold,
  type: ListType,
  found: JsonishNode,
  count: number,
  path: string,
  context: CoerceContext,
): CoerceFailure {
  const issue = fold.firstFailure!.issue;
  const what = count === 1 ? "Its only item does not fit" : `None of its ${count} items fit; the first`;
  return failure(
    "all-items-failed",
    path,
    context.describe(type),
    found,
    `${what}: at ${issue.path} expected ${issue.expected}, found ${issue.found}.${issue.detail ? ` ${issue.detail}` : ""}`,
  );
}

/** A one-shot read's fold: every item folded, the last one maybe cut off; the list, or why it fails. */
function foldEvery(type: ListType, items: JsonishNode[], path: string, context: CoerceContext): CoerceResult {
  const fold = newFold();
  for (let index = 0; index < items.length; index++) {
    const item = items[index]!;
    const cutOff = !item.complete && index === items.length - 1;
    foldItem(fold, type, item, childPath(path, index), context, undefined, cutOff);
  }
  if (fold.values.length === 0 && fold.failures > 0) {
    return allItemsFailed(fold, type, { kind: "array", items, complete: true }, items.length, path, context);
  }
  const { values, flags = NONE, score, checks = NONE } = fold;
  // A short list grown by `push` has room for 17 (V8): the value handed out is an exact copy.
  const value = values.length > 0 && values.length < 16 ? values.slice() : values;
  return { ok: true, value, flags, score, checks };
}

/**
 * The items of a JSON list. A one-shot read folds them all. A stream keeps the fold in the list node's
 * slot: every item but the one being written is folded once, so a growing list costs one coercion per
 * item over the whole stream; the open item is shown when it is ready, otherwise left out (a number or
 * enum still being typed, an object held back by `@stream.not_null`).
 */
function foldItems(
  type: ListType,
  node: ArrayNode,
  path: string,
  context: CoerceContext,
  stream: StreamCoerceContext | undefined,
): CoerceResult {
  const items = node.items;
  if (stream === undefined) return foldEvery(type, items, path, context);
  const fold = keptState<ItemsFold>(stream.slot(node, type, path), newFold);
  const collect = stream.collectFlags;
  const frozenBefore = fold.values.length;
  // Every item but the last is complete; the last is folded once it is complete too.
  while (fold.folded < items.length) {
    const index = fold.folded;
    const item = items[index]!;
    if (!item.complete && index === items.length - 1) break;
    foldItem(fold, type, item, childPath(path, index), stream, stream, false);
    fold.folded++;
  }
  let open: OpenItem | undefined;
  // An item cut right after its opening quote is no item yet (the fixing parser drops it at the end).
  if (fold.folded < items.length && !isOpenedEmptyString(items[items.length - 1]!)) {
    const index = items.length - 1;
    if (fold.openIndex !== index) {
      fold.openIndex = index;
      fold.openPath = childPath(path, index);
    }
    open = readOpenItem(type, items[index]!, fold.openPath, stream);
    // The answer is still inside its last item and it is not ready: left out for now.
    if (open.failure !== undefined && collect) {
      open.flags = [
        { kind: "ItemDropped", path: fold.openPath, detail: "the last item is still being written" },
      ];
    }
  }
  const value = listValue(fold, frozenBefore, open, node.complete);
  // A list still open whose items so far all failed stays `[]`, as it was before the first of them
  // ended: more items may fit. Once it is closed, the final parse fails on it.
  const hasOpen = open !== undefined && open.failure === undefined;
  if (node.complete && fold.values.length === 0 && fold.failures > 0 && !hasOpen) {
    const failed = allItemsFailed(fold, type, node, items.length, path, stream);
    return shownButWillFail(failed, value, stream);
  }
  return shownResult(fold, value, open, collect, 0);
}

/**
 * How many finished items a stream's list shows for the array `node` read as `type` at `path` (its
 * folded items that fit), or -2 when its fold is not up to the item being written (the spine trail's
 * check that a patched list only changed in that item).
 */
export function itemsShownBeforeOpen(
  node: JsonishNode,
  type: Type,
  path: string,
  context: StreamCoerceContext,
): number {
  const fold = context.slot(node, type, path).state as ItemsFold | undefined;
  if (fold === undefined || node.kind !== "array" || fold.folded !== node.items.length - 1) return -2;
  return fold.values.length;
}

/** A stream's result: the view, and the fold's score, flags and pending plus the open item's. */
function shownResult(
  fold: ItemsFold,
  value: unknown[],
  open: OpenItem | undefined,
  collect: boolean,
  extraScore: number,
): StreamSuccess {
  const score = fold.score + (open?.score ?? 0) + extraScore;
  const pending = fold.pending + (open?.pending ?? 0);
  const flags = collect ? [...(fold.flags ?? NONE), ...(open?.flags ?? NONE)] : NONE;
  const checks = collect ? [...(fold.checks ?? NONE)] : NONE;
  return { ok: true, value, flags, score, checks, pending };
}

/** The item being written: its value when it is ready, and what it adds to the list's score. */
interface OpenItem {
  value: unknown;
  score: number;
  pending: number;
  flags: readonly Flag[];
  /** Not ready (still being written) or does not fit: the item is left out, as a dropped one. */
  failure?: CoerceFailure;
}

function readOpenItem(type: ListType, node: JsonishNode, path: string, context: CoerceContext): OpenItem {
  const result = context.coerce(type.item, node, path);
  if (result.ok)
    return { value: result.value, score: result.score, pending: pendingOf(result), flags: result.flags };
  return {
    value: undefined,
    score: FLAG_PENALTIES.ItemDropped,
    pending: 0,
    flags: NONE,
    failure: result,
  };
}

/**
 * The list a stream hands out: the last one when nothing in it changed, else a copy with the open item.
 * A closed list (`closed`: its node is complete, every item folded) is its folded values themselves:
 * nothing is added to them again, so no copy is needed (a list read only once it is whole, as by a read
 * that catches up on a long stretch of the answer, is built once, not twice).
 */
function listValue(
  fold: ItemsFold,
  frozenBefore: number,
  open: OpenItem | undefined,
  closed = false,
): unknown[] {
  const hasOpen = open !== undefined && open.failure === undefined;
  const length = fold.values.length + (hasOpen ? 1 : 0);
  let value = fold.last;
  if (
    value === undefined ||
    value.length !== length ||
    !sameTail(value, fold.values, frozenBefore, hasOpen, open?.value)
  ) {
    // One exact-size copy per changed list (a partial handed out never changes afterwards): the open
    // item joins the folded ones for the copy, rather than being pushed onto a copy (which would grow
    // it, copying every item a second time).
    const values = fold.values;
    if (closed && !hasOpen) {
      value = values;
    } else if (hasOpen) {
      values.push(open!.value);
      value = values.slice();
      values.pop();
    } else {
      value = values.slice();
    }
    noteListBuild(value, fold, values.length, length);
    fold.last = value;
  }
  return value;
}

/** Whether `last` already holds the items from `from` on (earlier ones are folded and shared). */
function sameTail(
  last: unknown[],
  values: unknown[],
  from: number,
  hasOpen: boolean,
  open: unknown,
): boolean {
  for (let index = from; index < values.length; index++) {
    if (last[index] !== values[index]) return false;
  }
  return !hasOpen || last[values.length] === open;
}

/** A string split into items, and the fold of its pieces (a stream keeps both in the string's slot). */
interface PiecesState {
  splitter: DelimitedSplitter;
  /** The split's finished pieces the fold was made from (a new array: the text splits another way). */
  done: readonly string[] | undefined;
  items: ItemsFold;
}

const UNDECIDED: CoerceFailure = {
  ok: false,
  issue: {
    code: "type-mismatch",
    path: "$",
    expected: "a list",
    found: "text that may yet read another way",
  },
};

/**
 * A string that lists scalars, split by `DelimitedSplitter` (each character read once) and its pieces
 * folded as items; undefined when the text does not read as a list (the caller wraps it). A one-shot
 * read folds every piece. A stream keeps the splitter and the fold: each finished piece is folded once;
 * the piece being written is read again per chunk (held back while it may still lose a marker), and the
 * whole split waits while the text has not decided (`1,2` may become `1,234`).
 */
function foldPieces(
  type: ListType,
  node: StringNode,
  path: string,
  context: CoerceContext,
  kept: { stream: StreamCoerceContext; pieces: PiecesState } | undefined,
): CoerceResult | undefined {
  const splitter = kept === undefined ? new DelimitedSplitter() : kept.pieces.splitter;
  splitter.update(node.value);
  if (kept !== undefined && !node.complete && splitter.undecided()) return UNDECIDED;
  const split = splitter.split();
  if (split === undefined) return undefined;
  const count = split.done.length + (split.open === undefined ? 0 : 1);
  const splitFlag = (): Flag =>
    flagAt("SplitString", path, `split ${describeNode(node)} into ${count} items`, node);
  // Each piece points at the whole string it was split from.
  const piece = (text: string, complete: boolean): StringNode => ({
    kind: "string",
    value: text,
    complete,
    start: node.start,
    end: node.end,
  });
  if (kept === undefined) {
    const pieces = split.open === undefined ? split.done : [...split.done, split.open];
    const items = pieces.map((text, index) => piece(text, node.complete || index < pieces.length - 1));
    const result = foldEvery(type, items, path, context);
    if (!result.ok) return result;
    return {
      ...result,
      flags: [...result.flags, splitFlag()],
      score: result.score + FLAG_PENALTIES.SplitString,
    };
  }
  const { stream, pieces: state } = kept;
  if (split.done !== state.done) {
    // The text now splits at another delimiter: its pieces are other pieces.
    state.done = split.done;
    state.items = newFold();
  }
  const fold = state.items;
  const collect = stream.collectFlags;
  const frozenBefore = fold.values.length;
  while (fold.folded < split.done.length) {
    const index = fold.folded;
    foldItem(fold, type, piece(split.done[index]!, true), childPath(path, index), stream, stream, false);
    fold.folded++;
  }
  let open: OpenItem | undefined;
  let heldBack = 0;
  if (split.open !== undefined && !node.complete && split.openMarked) {
    heldBack = 1;
  } else if (split.open !== undefined) {
    const index = split.done.length;
    open = readOpenItem(type, piece(split.open, node.complete), childPath(path, index), stream);
    if (open.failure !== undefined && node.complete) {
      fold.failures++;
      fold.firstFailure ??= open.failure;
    }
  }
  if (fold.values.length === 0 && fold.failures > 0 && (open === undefined || open.failure !== undefined)) {
    return allItemsFailed(fold, type, node, count, path, stream);
  }
  const value = listValue(fold, frozenBefore, open);
  const result = shownResult(fold, value, open, collect, FLAG_PENALTIES.SplitString);
  result.pending = (result.pending ?? 0) + heldBack;
  if (collect) result.flags = [...result.flags, splitFlag()];
  return result;
}

/** Not ready: an object just opened for a list may be a single item or a wrapper of the list. */
const NOT_READY: CoerceFailure = {
  ok: false,
  issue: { code: "type-mismatch", path: "$", expected: "a list", found: "an object just opened" },
};

/**
 * A list in a stream: the same rules, with the fold kept between chunks (`foldItems`, `foldPieces`) and
 * what a partial may show of it: an object just opened is not a list yet; a string still being written
 * does not split at a trailing delimiter (`"red, "` is `["red"]`, then `["red", "g"]`), so the items only
 * grow; a list shown for a string or an object that is then read another way starts over (`noteReading`).
 */
function shownList(
  type: ListType,
  node: JsonishNode,
  path: string,
  context: StreamCoerceContext,
): CoerceResult {
  if (node.kind === "array") return foldItems(type, node, path, context, context);
  // An object just opened for a list: a single item or a wrapper of the list? Nothing is known yet, so
  // the list is not ready (a field shows `[]`; a union's map or class option can show `{}`).
  if (node.kind === "object" && node.entries.length === 0 && !node.complete) return NOT_READY;
  const wrapped = wrappedList(node);
  if (wrapped) {
    const result = foldItems(type, wrapped.list, childPath(path, wrapped.key), context, context);
    if (result.ok) {
      noteReading(type, node, path, context, UNWRAPPED, result.value);
      return unwrapped(result, wrapped.key, path, node);
    }
  }
  if (node.kind === "string" && context.isScalar(type.item)) {
    const pieces = keptState<PiecesState>(context.slot(node, type, `${path}#pieces`), () => ({
      splitter: new DelimitedSplitter(),
      done: undefined,
      items: newFold(),
    }));
    const split = foldPieces(type, node, path, context, { stream: context, pieces });
    if (split !== undefined) {
      const way = split.ok ? (pieces.done ?? WHOLE) : LOST;
      noteReading(type, node, path, context, way, split.ok ? split.value : undefined);
      return split;
    }
  }
  // The one-shot rules over the text without its trailing delimiters. (The same node when nothing is
  // stripped: the recursion guard knows nodes by identity.)
  const trimmed =
    node.kind === "string" && !node.complete ? withoutTrailingDelimiters(node.value) : undefined;
  const source =
    node.kind === "string" && trimmed !== undefined && trimmed !== node.value
      ? { ...node, value: trimmed }
      : node;
  const result = readList(type, source, path, context);
  if (!result.ok) {
    // A list shown for the node (split, or unwrapped) is shown no more: it starts over.
    if (node.kind === "string" || node.kind === "object")
      noteReading(type, node, path, context, LOST, undefined);
    return result;
  }
  const slot = context.slot(node, type, path);
  const value = stableValue(slot.last, result.value);
  slot.last = value;
  if (node.kind === "string" || node.kind === "object") noteReading(type, node, path, context, WHOLE, value);
  return value === result.value ? result : { ...result, value };
}

/** A string or an object read by the one-shot rules (one item, or items of another shape). */
const WHOLE: readonly string[] = Object.freeze([]);
/** An object read as a wrapper of the list under its only key. */
const UNWRAPPED: readonly string[] = Object.freeze([]);
/** Not read as a list (not ready, or not a list). */
const LOST: readonly string[] = Object.freeze([]);

/** How a string or object node was last read as a list, and the list shown for it. */
interface ReadingState {
  /** The split's finished pieces (one array per delimiter), `WHOLE`, `UNWRAPPED` or `LOST`. */
  way: readonly string[];
  shown: unknown;
}

/**
 * A string read as a list is split as final mode splits the whole text, and more text can change that:
 * `"a b; c⏎d"` splits at `;` until the line break, `"1) one, two"` at the comma until a second numbered
 * line comes, `"I led the migration, which…"` is two items until its second piece is too long to be one.
 * An object is a wrapper of the list under its only key until a second key comes. When the way changes
 * and the items shown do not simply grow into the new ones, the list starts over (`restarts`: the read
 * carries `ReadingSwitch`). Compared only when the way changes, so rarely.
 */
function noteReading(
  type: ListType,
  node: JsonishNode,
  path: string,
  context: StreamCoerceContext,
  way: readonly string[],
  shown: unknown,
): void {
  const slot = context.slot(node, type, path);
  const state = slot.state as ReadingState | undefined;
  if (!state) {
    slot.state = { way, shown } satisfies ReadingState;
    return;
  }
  if (state.way !== way ? !grewInto(state.shown, shown) : !lastGrew(state.shown, shown)) context.restarts++;
  state.way = way;
  state.shown = shown;
}

/**
 * Split the same way, only the last piece can change: whether it is still there, the same or grown (a
 * piece that turns out to be quoted, `"x` then `"x"`, is read without its quotes: it starts over).
 */
function lastGrew(before: unknown, after: unknown): boolean {
  if (!Array.isArray(before) || before.length === 0) return true;
  if (!Array.isArray(after)) return false;
  const left = before[before.length - 1];
  const right = after[before.length - 1];
  return left === right || (typeof left === "string" && typeof right === "string" && right.startsWith(left));
}

/** Whether every item of `before` is still there in `after`, the same or (a string) grown. */
function grewInto(before: unknown, after: unknown): boolean {
  if (before === undefined || (Array.isArray(before) && before.length === 0)) return true;
  if (!Array.isArray(before) || !Array.isArray(after) || after.length < before.length) return false;
  for (let index = 0; index < before.length; index++) {
    const left = before[index];
    const right = after[index];
    if (left === right) continue;
    if (typeof left !== "string" || typeof right !== "string" || !right.startsWith(left)) return false;
  }
  return true;
}

/** The text without the delimiters and blanks at its end (`"red, "` → `"red"`); looks only at those. */
function withoutTrailingDelimiters(text: string): string {
  let end = text.length;
  for (;;) {
    const char = text[end - 1];
    if (char === undefined || !(char === "," || char === ";" || /\s/.test(char))) break;
    end--;
  }
  return end === text.length ? text : text.slice(0, end);
}
