import { type IrIndex, inherentlyDone, type Type } from "../../ir/index.js";
import { applyConstraints } from "../coerce/apply-constraints.js";
import type {
  CoerceContext,
  ConstraintEvaluator,
  KindCoercer,
  PlainTextUse,
} from "../coerce/coerce-context.js";
import { type CoerceFailure, type CoerceResult, failure } from "../coerce/coerce-result.js";
import { coercers } from "../coerce/coercer-table.js";
import { createCoerceContext, MAX_DEPTH, TooDeep } from "../coerce/create-coerce-context.js";
import { FLAG_PENALTIES } from "../flags.js";
import { isCutHere, type JsonishNode } from "../lenient/jsonish-node.js";
import { workMeter } from "../work-meter.js";
import { FinishedNodeReader } from "./finished-node-reader.js";
import { type Slot, SlotStore, stableObject } from "./slot-store.js";
import { pendingOf, type StreamSuccess } from "./stream-of.js";

/** What the streaming coercers receive: the shared context plus the slots and the flag policy. */
export interface StreamCoerceContext extends CoerceContext {
  readonly slots: SlotStore;
  /**
   * Whether containers gather their children's flags. A stream parser only hands out values, so it skips
   * the gathering (it would copy a growing list of flags on every chunk); the one-shot partial parse keeps
   * them.
   */
  readonly collectFlags: boolean;
  /** The answer so far has a `\u` escape (so a string may end in half of an escaped surrogate pair). */
  escapes: boolean;
  /**
   * How many times a value already shown started over, because the text now reads another way: a key
   * written again replaced what an object or map held for it (the last key wins, as in final mode), a
   * union moved to another option, or a string read as a list now splits another way (or not at all).
   * The reader announces a read that raised it with `ReadingSwitch`: the value starts over, so it may
   * show less than it did.
   */
  restarts: number;
  /**
   * Containers and strings left open in a region that ended (a fence closed around a container that
   * never did): they are as final mode reads them, cut off, not still being written, so a value that
   * shows only once whole (a number, the JSON text of a container) shows now.
   */
  readonly settled: WeakSet<JsonishNode>;
  /**
   * Nodes holding the answer's plain text, which grows with the answer: final mode reads that text whole,
   * never cut off, so it carries no `Incomplete` penalty here either.
   */
  readonly wholeText: WeakSet<JsonishNode>;
  /** The slot of (node, type, path), for coercers that keep state between chunks. */
  slot(node: JsonishNode, type: Type, path: string): Slot;
  /** Reads finished nodes met for the first time with the final-mode coercers (see `finishedWhole`). */
  readonly finished: FinishedNodeReader | undefined;
}

export interface StreamCoerceOptions {
  constraintEvaluator?: ConstraintEvaluator | undefined;
  collectFlags: boolean;
  /**
   * Read a container met for the first time when it is already finished with the final-mode coercers,
   * where they read it as the streaming ones would (`FinishedNodeReader`). Default true; never when flags
   * are collected (the final-mode coercers gather flags of their own, with other spans).
   */
  finishedWhole?: boolean | undefined;
}

/**
 * The coerce context of prefix mode. Dispatch goes through final mode's table (one coercer per kind for
 * both modes, which keeps its state in the slots here: `streamOf`), with the streaming rules applied at
 * the one place every value passes:
 * - a complete node's result is computed once and frozen (complete nodes never change);
 * - a type asked again of the same node while it is being coerced fails at once (recursive types);
 * - ints, floats, bools, enums, literals, `@@stream.done` classes, `@stream.done` types and the JSON text
 *   of a container read as a string are not ready until their node is complete (a failure the
 *   containers turn into null or a dropped item);
 * - `@check`/`@assert` run on complete values only (a growing string is not yet what the model meant);
 * - `@stream.with_state` wraps the value as `{ value, state }`.
 */
export function createStreamCoerceContext(index: IrIndex, options: StreamCoerceOptions): StreamCoerceContext {
  const slots = new SlotStore();
  const isDoneClass = (name: string): boolean => index.getClass(name).streamDone === true;
  const base = createCoerceContext(index, coercers, {
    partial: true,
    constraintEvaluator: options.constraintEvaluator,
  });
  const entry = (type: Type) => coercers[type.kind] as KindCoercer<Type>;
  /** Per type: whether its values appear only whole (asked for every value on every chunk). */
  const doneTypes = new Map<Type, boolean>();
  // The (node, type) pairs being coerced right now, innermost last: a type asked again of a node it is
  // already being coerced on is a recursive type wrapping itself (a value read as a one-element list of
  // itself, and so on). That reading can never end; it is refused at once.
  const busyNodes: JsonishNode[] = [];
  const busyTypes: Type[] = [];
  const finished =
    options.collectFlags || options.finishedWhole === false
      ? undefined
      : new FinishedNodeReader(index, options.constraintEvaluator);
  let current: Slot | undefined;
  /** The deepest `context.depth` reached in the call being made (see `Slot.reach`). */
  let reach = 0;
  let currentNode: JsonishNode | undefined;
  const context = base as StreamCoerceContext;
  Object.assign(context, {
    slots,
    finished,
    collectFlags: options.collectFlags,
    escapes: false,
    restarts: 0,
    settled: new WeakSet<JsonishNode>(),
    wholeText: new WeakSet<JsonishNode>(),
    // The coercer being dispatched asks first for its own slot: hand it over without another lookup.
    slot: (node: JsonishNode, type: Type, path: string) =>
      current !== undefined && currentNode === node && current.type === type && current.path === path
        ? current
        : slots.slot(node, type, path),
    coerce(type: Type, node: JsonishNode, path: string): CoerceResult {
      workMeter.steps++;
      // Scalars keep nothing between chunks: a complete one is read once by the container that freezes
      // it, an open one changes with every chunk. Containers (and `{ value, state }` wrappers, whose
      // identity is kept) have a slot.
      const kept = node.kind === "object" || node.kind === "array" || type.attrs?.streamWithState === true;
      const slot = kept ? slots.slot(node, type, path) : undefined;
      if (slot?.final) {
        // As deep as when it was read: the depth limit holds as in final mode, which reads it again.
        const below = context.depth + (slot.reach ?? 0);
        if (below > MAX_DEPTH) throw TooDeep.at(path, context.describe(type), node);
        if (below > reach) reach = below;
        return slot.final;
      }
      for (let index = busyNodes.length - 1; index >= 0; index--) {
        if (busyNodes[index] === node && busyTypes[index] === type) {
          return failure(
            "circular",
            path,
            context.describe(type),
            node,
            "The value would have to contain itself.",
          );
        }
      }
      // A container met for the first time when it is already finished (a read catching up over a stretch
      // of the answer) is read by the final-mode coercers, when they read it as the streaming ones would:
      // no state is kept for a node that no longer changes. (Not a node handed on to an inner type of its
      // own: the final-mode context would not know the outer one is being read.)
      if (
        finished !== undefined &&
        slot !== undefined &&
        node.complete &&
        slot.state === undefined &&
        busyNodes[busyNodes.length - 1] !== node
      ) {
        const whole = finished.read(type, node, path, context.depth);
        if (whole !== undefined) {
          slot.final = whole;
          slot.reach = finished.reach;
          if (context.depth + finished.reach > reach) reach = context.depth + finished.reach;
          return whole;
        }
      }
      busyNodes.push(node);
      busyTypes.push(type);
      // How deep this reading goes below here (see `Slot.reach`).
      const outer = reach;
      reach = context.depth;
      let result: CoerceResult;
      try {
        result = coerceOnce(type, node, path, slot);
      } finally {
        busyNodes.pop();
        busyTypes.pop();
      }
      if (slot !== undefined && reach - context.depth > (slot.reach ?? 0)) slot.reach = reach - context.depth;
      if (outer > reach) reach = outer;
      if (slot !== undefined && node.complete) {
        // Final: the coercer's state between chunks is no longer needed.
        slot.final = result;
        slot.state = undefined;
        slot.last = undefined;
      }
      return result;
    },
  });

  function coerceOnce(type: Type, node: JsonishNode, path: string, slot: Slot | undefined): CoerceResult {
    const attrs = type.attrs;
    let done = doneTypes.get(type);
    if (done === undefined) {
      done = attrs?.streamDone === true || inherentlyDone(type, isDoneClass);
      doneTypes.set(type, done);
    }
    if (!node.complete && (done || textOfContainer(type, node)) && !context.settled.has(node)) {
      // Not an error, only not yet: no message is built (this runs on every chunk).
      return NOT_READY;
    }
    // As in final mode: the whole reading is abandoned (`TooDeep`, caught where a reading is evaluated).
    if (context.depth >= MAX_DEPTH) throw TooDeep.at(path, context.describe(type), node);
    const coercer = entry(type);
    current = slot;
    currentNode = slot ? node : undefined;
    context.depth++;
    if (context.depth > reach) reach = context.depth;
    let result: CoerceResult;
    try {
      result = coercer.coerce(type, node, path, context);
    } finally {
      context.depth--;
    }
    if (!result.ok) return result;
    if (context.escapes && !node.complete && typeof result.value === "string") {
      // (Only looked at once the answer has a `\u` escape: reading a character flattens a growing string,
      // a copy per chunk.)
      const value = withoutHalfPair(result.value);
      if (value !== result.value) result = { ...result, value };
    }
    if (!coercer.delegates && !node.complete && isCutHere(node) && !context.wholeText.has(node)) {
      const score = result.score + FLAG_PENALTIES.Incomplete;
      const flags = options.collectFlags
        ? [...result.flags, { kind: "Incomplete" as const, path, detail: "the answer was cut off here" }]
        : result.flags;
      result = { ...result, flags, score };
    }
    const constraints = attrs?.constraints;
    if (node.complete && constraints && constraints.length > 0) {
      const checked = applyConstraints(constraints, result, path, context, context.describe(type));
      if (!checked.ok) return checked;
      result = { ...checked, pending: pendingOf(result) } as StreamSuccess;
    }
    if (attrs?.streamWithState) {
      const state = node.complete ? "Complete" : "Incomplete";
      result = { ...result, value: stableObject(slot?.wrapped, { value: result.value, state }) };
      if (slot) slot.wrapped = result.value;
    }
    return result;
  }

  return context;
}

/** A string being written as a stream shows it: never ending in half of an escaped surrogate pair (`\uD83D`). */
export function withoutHalfPair(value: string): string {
  const last = value.charCodeAt(value.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? value.slice(0, -1) : value;
}

const NOT_READY: CoerceFailure = {
  ok: false,
  issue: {
    code: "type-mismatch",
    path: "$",
    expected: "a complete value",
    found: "a value still being written",
  },
};

/**
 * An object or list where text is expected is kept as its JSON text (final mode's rule), which appears
 * only whole: the text of a container still being written would not grow, it would change.
 */
function textOfContainer(type: Type, node: JsonishNode): boolean {
  return (
    type.kind === "primitive" && type.name === "string" && (node.kind === "object" || node.kind === "array")
  );
}

/** Per IR: a context to ask types how they read plain text, and the answers so far. */
const plainTextUses = new WeakMap<IrIndex, { context: CoerceContext; uses: WeakMap<Type, PlainTextUse> }>();

/**
 * How `type` reads an answer's plain text (`CoerceContext.plainText`), worked out once per type and IR: a
 * reader asks it before reading anything, and a reader read once at its end makes no coerce context of its
 * own until then.
 */
export function plainTextUse(type: Type, index: IrIndex): PlainTextUse {
  let known = plainTextUses.get(index);
  if (known === undefined) {
    known = { context: createCoerceContext(index, coercers, { partial: true }), uses: new WeakMap() };
    plainTextUses.set(index, known);
  }
  let use = known.uses.get(type);
  if (use === undefined) {
    use = known.context.plainText(type);
    known.uses.set(type, use);
  }
  return use;
}
