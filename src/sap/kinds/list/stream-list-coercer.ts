import type { ListType } from "../../../ir/index.js";
import type { KindCoercer } from "../../coerce/coerce-context.js";
import {
  addFlag,
  type CheckResult,
  type CoerceFailure,
  type CoerceResult,
  childPath,
  describeNode,
  failure,
} from "../../coerce/coerce-result.js";
import { FLAG_PENALTIES, type Flag } from "../../flags.js";
import {
  type ArrayNode,
  isOpenedEmptyString,
  type JsonishNode,
  type StringNode,
  stringNode,
} from "../../lenient/jsonish-node.js";
import { noteListBuild, stableValue } from "../../stream/slot-store.js";
import {
  pendingOf,
  type StreamCoerceContext,
  type StreamSuccess,
  shownButWillFail,
} from "../../stream/stream-coerce-context.js";
import { listCoercer } from "./coerce-list.js";
import { DelimitedSplitter } from "./split-delimited.js";

const NO_FLAGS: readonly Flag[] = Object.freeze([]);
const NO_CHECKS: readonly CheckResult[] = Object.freeze([]);

const NOT_READY: CoerceFailure = {
  ok: false,
  issue: { code: "type-mismatch", path: "$", expected: "a list", found: "an object just opened" },
};

const UNDECIDED: CoerceFailure = {
  ok: false,
  issue: {
    code: "type-mismatch",
    path: "$",
    expected: "a list",
    found: "text that may yet read another way",
  },
};

/** The items of a growing array already coerced: they never change, so each is coerced once. */
interface ItemsState {
  frozen: number;
  values: unknown[];
  flags: Flag[];
  checks: CheckResult[];
  score: number;
  pending: number;
  failures: number;
  firstFailure: CoerceFailure | undefined;
  /** The item being written and its path (built once per item, not once per chunk). */
  openIndex: number;
  openPath: string;
  /** The last list handed out and whether it ended with the open item's value. */
  last: unknown[] | undefined;
}

/**
 * `T[]` in prefix mode. Arrays (and `{"items": [...]}` wrappers) are coerced incrementally: every item
 * but the one being written is frozen, coerced once and kept, so a growing list costs one coercion per
 * item over the whole stream. The open item is shown when it is ready, otherwise left out (a number or
 * enum still being typed, an object held back by `@stream.not_null`). Other shapes (a delimited string, a
 * single value, null) go to the final-mode rules, whose items come back through the streaming context.
 */
export const streamListCoercer: KindCoercer<ListType> = {
  ...listCoercer,
  coerce(type, node, path, baseContext) {
    const context = baseContext as StreamCoerceContext;
    if (node.kind === "array") return coerceItems(type, node, path, context);
    // An object just opened for a list: a single item or a wrapper of the list? Nothing is known yet, so
    // the list is not ready (a field shows `[]`; a union's map or class option can show `{}`).
    if (node.kind === "object" && node.entries.length === 0 && !node.complete) return NOT_READY;
    if (node.kind === "object" && node.entries.length === 1) {
      const [key, inner] = node.entries[0]!;
      if (inner.kind === "array") {
        const result = coerceItems(type, inner, childPath(path, key), context);
        if (result.ok) {
          noteReading(type, node, path, context, UNWRAPPED, result.value);
          return addFlag(result, "UnwrappedObject", path, `used the list under the only key "${key}"`);
        }
      }
    }
    if (node.kind === "string" && context.isScalar(type.item)) {
      const pieces = pieceState(type, node, path, context);
      const split = coercePieces(type, node, path, context, pieces);
      if (split !== undefined) {
        const way = split.ok ? (pieces.done ?? WHOLE) : LOST;
        noteReading(type, node, path, context, way, split.ok ? split.value : undefined);
        return split;
      }
    }
    // A string still being written: a trailing delimiter does not split yet (`"red, "` is `["red"]`,
    // then `["red", "g"]`), so the items only grow.
    // The same node when nothing is stripped: the recursion guard knows nodes by identity.
    const trimmed =
      node.kind === "string" && !node.complete ? withoutTrailingDelimiters(node.value) : undefined;
    const source =
      node.kind === "string" && trimmed !== undefined && trimmed !== node.value
        ? { ...node, value: trimmed }
        : node;
    const result = listCoercer.coerce(type, source, path, context);
    if (!result.ok) {
      // A list shown for the node (split, or unwrapped) is shown no more: it starts over.
      if (node.kind === "string" || node.kind === "object")
        noteReading(type, node, path, context, LOST, undefined);
      return result;
    }
    const slot = context.slot(node, type, path);
    const value = stableValue(slot.last, result.value);
    slot.last = value;
    if (node.kind === "string" || node.kind === "object")
      noteReading(type, node, path, context, WHOLE, value);
    return value === result.value ? result : { ...result, value };
  },
};

/** A string or an object read by final mode's rules (one item, or items of another shape). */
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

function coerceItems(
  type: ListType,
  node: ArrayNode,
  path: string,
  context: StreamCoerceContext,
): CoerceResult {
  const slot = context.slot(node, type, path);
  let state = slot.state as ItemsState | undefined;
  if (!state) {
    state = itemsState();
    slot.state = state;
  }
  const items = node.items;
  const frozenBefore = state.values.length;
  // Every item but the last is complete; the last is frozen once it is complete too.
  while (state.frozen < items.length) {
    const index = state.frozen;
    const item = items[index]!;
    if (!item.complete && index === items.length - 1) break;
    freeze(state, type, item, childPath(path, index), context);
    state.frozen++;
  }
  let open: unknown;
  let hasOpen = false;
  let score = state.score;
  let pending = state.pending;
  let openFlags: readonly Flag[] = NO_FLAGS;
  // An item cut right after its opening quote is no item yet (the fixing parser drops it at the end).
  if (state.frozen < items.length && !isOpenedEmptyString(items[items.length - 1]!)) {
    const index = items.length - 1;
    if (state.openIndex !== index) {
      state.openIndex = index;
      state.openPath = childPath(path, index);
    }
    const item = readOpenItem(type, items[index]!, state.openPath, context);
    score += item.score;
    pending += item.pending;
    if (item.failure === undefined) {
      open = item.value;
      hasOpen = true;
      openFlags = item.flags;
    } else {
      // The answer is still inside its last item and it is not ready: leave it out for now.
      if (context.collectFlags) {
        openFlags = [
          {
            kind: "ItemDropped",
            path: childPath(path, index),
            detail: "the last item is still being written",
          },
        ];
      }
    }
  }
  const value = listValue(state, frozenBefore, hasOpen, open, node.complete);
  // A list still open whose items so far all failed stays `[]`, as it was before the first of them
  // ended: more items may fit. Once it is closed, the final parse fails on it.
  if (node.complete && state.values.length === 0 && state.failures > 0 && !hasOpen) {
    const failed = allItemsFailed(state, type, path, node, context, `None of its ${items.length} items fit`);
    return shownButWillFail(failed, value, context);
  }
  const flags = context.collectFlags ? [...state.flags, ...openFlags] : NO_FLAGS;
  const checks = context.collectFlags ? [...state.checks] : NO_CHECKS;
  const success: StreamSuccess = { ok: true, value, flags, score, checks, pending };
  return success;
}

/** As in final mode: a list none of whose items fit is an error, not `[]`. */
function allItemsFailed(
  state: ItemsState,
  type: ListType,
  path: string,
  node: JsonishNode,
  context: StreamCoerceContext,
  what: string,
): CoerceFailure {
  const issue = state.firstFailure!.issue;
  return failure(
    "all-items-failed",
    path,
    context.describe(type),
    node,
    `${what}; the first: at ${issue.path} expected ${issue.expected}, found ${issue.found}.`,
  );
}

function itemsState(): ItemsState {
  return {
    frozen: 0,
    values: [],
    flags: [],
    checks: [],
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
 * The list to hand out: the last one when nothing in it changed, else a copy with the open item. A closed
 * list (`closed`: its node is complete, every item frozen) is its frozen values themselves: nothing is
 * added to them again, so no copy is needed (a list read only once it is whole, as by a read that
 * catches up on a long stretch of the answer, is built once, not twice).
 */
function listValue(
  state: ItemsState,
  frozenBefore: number,
  hasOpen: boolean,
  open: unknown,
  closed = false,
): unknown[] {
  const length = state.values.length + (hasOpen ? 1 : 0);
  let value = state.last;
  if (
    value === undefined ||
    value.length !== length ||
    !sameTail(value, state.values, frozenBefore, hasOpen, open)
  ) {
    // One exact-size copy per changed list (a partial handed out never changes afterwards): the open
    // item joins the frozen ones for the copy, rather than being pushed onto a copy (which would grow it,
    // copying every item a second time).
    const values = state.values;
    if (closed && !hasOpen) {
      value = values;
    } else if (hasOpen) {
      values.push(open);
      value = values.slice();
      values.pop();
    } else {
      value = values.slice();
    }
    noteListBuild(value, state, values.length, length);
    state.last = value;
  }
  return value;
}

function freeze(
  state: ItemsState,
  type: ListType,
  item: JsonishNode,
  path: string,
  context: StreamCoerceContext,
): void {
  const result = context.coerce(type.item, item, path);
  if (result.ok) {
    state.values.push(result.value);
    state.score += result.score;
    state.pending += pendingOf(result);
    if (context.collectFlags) {
      state.flags.push(...result.flags);
      state.checks.push(...result.checks);
    }
    return;
  }
  state.failures++;
  state.firstFailure ??= result;
  state.score += FLAG_PENALTIES.ItemDropped;
  if (context.collectFlags) {
    const issue = result.issue;
    state.flags.push({
      kind: "ItemDropped",
      path,
      detail: `dropped: at ${issue.path} expected ${issue.expected}, found ${issue.found}`,
    });
  }
}

/** Whether `last` already holds the items from `from` on (earlier ones are frozen and shared). */
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

/** The item being written: its value when it is ready, and what it adds to the list's score. */
interface OpenItem {
  value: unknown;
  score: number;
  pending: number;
  flags: readonly Flag[];
  /** Not ready (still being written) or does not fit: the item is left out, as a dropped one. */
  failure?: CoerceFailure;
}

function readOpenItem(
  type: ListType,
  node: JsonishNode,
  path: string,
  context: StreamCoerceContext,
): OpenItem {
  const result = context.coerce(type.item, node, path);
  if (result.ok)
    return { value: result.value, score: result.score, pending: pendingOf(result), flags: result.flags };
  return {
    value: undefined,
    score: FLAG_PENALTIES.ItemDropped,
    pending: 0,
    flags: NO_FLAGS,
    failure: result,
  };
}

/** A growing string split into items (final mode's `splitDelimited` rule, read incrementally). */
interface PiecesState {
  splitter: DelimitedSplitter;
  /** The split's finished pieces the items were made from (a new array: the text splits another way). */
  done: readonly string[] | undefined;
  items: ItemsState;
}

function pieceState(
  type: ListType,
  node: StringNode,
  path: string,
  context: StreamCoerceContext,
): PiecesState {
  const slot = context.slot(node, type, `${path}#pieces`);
  let state = slot.state as PiecesState | undefined;
  if (!state) {
    state = { splitter: new DelimitedSplitter(), done: undefined, items: itemsState() };
    slot.state = state;
  }
  return state;
}

/**
 * A string that lists scalars, split as final mode splits it, incrementally: the splitter reads each
 * character once, and each finished piece is coerced once (`freeze`); only the piece being written is
 * coerced again per chunk. Undefined when the text does not read as a list (yet): the caller wraps it.
 */
function coercePieces(
  type: ListType,
  node: StringNode,
  path: string,
  context: StreamCoerceContext,
  state: PiecesState,
): CoerceResult | undefined {
  state.splitter.update(node.value);
  // `1,2` may become `1,234`, `- first` a list without its bullet: wait for the text to decide.
  if (!node.complete && state.splitter.undecided()) return UNDECIDED;
  const split = state.splitter.split();
  if (split === undefined) return undefined;
  if (split.done !== state.done) {
    // The text now splits at another delimiter: its pieces are other pieces.
    state.done = split.done;
    state.items = itemsState();
  }
  const items = state.items;
  const frozenBefore = items.values.length;
  while (items.frozen < split.done.length) {
    const index = items.frozen;
    freeze(items, type, stringNode(split.done[index]!, true), childPath(path, index), context);
    items.frozen++;
  }
  let open: unknown;
  let hasOpen = false;
  let score = items.score + FLAG_PENALTIES.SplitString;
  let pending = items.pending;
  let openFlags: readonly Flag[] = NO_FLAGS;
  if (split.open !== undefined && !node.complete && split.openMarked) {
    pending++;
  } else if (split.open !== undefined) {
    const index = split.done.length;
    const piece = stringNode(split.open, node.complete);
    const item = readOpenItem(type, piece, childPath(path, index), context);
    score += item.score;
    pending += item.pending;
    if (item.failure === undefined) {
      open = item.value;
      hasOpen = true;
      openFlags = item.flags;
    } else if (node.complete) {
      items.failures++;
      items.firstFailure ??= item.failure;
    }
  }
  if (items.values.length === 0 && items.failures > 0 && !hasOpen) {
    return allItemsFailed(items, type, path, node, context, "None of its items fit");
  }
  const value = listValue(items, frozenBefore, hasOpen, open);
  const flags = context.collectFlags
    ? [
        ...items.flags,
        ...openFlags,
        {
          kind: "SplitString" as const,
          path,
          detail: `split ${describeNode(node)} into ${split.done.length + (split.open === undefined ? 0 : 1)} items`,
        },
      ]
    : NO_FLAGS;
  const checks = context.collectFlags ? [...items.checks] : NO_CHECKS;
  const success: StreamSuccess = { ok: true, value, flags, score, checks, pending };
  return success;
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
