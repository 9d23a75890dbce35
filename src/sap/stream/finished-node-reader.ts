import type { IrIndex, Type } from "../../ir/index.js";
import type { CoerceContext, ConstraintEvaluator } from "../coerce/coerce-context.js";
import type { CheckResult, CoerceSuccess } from "../coerce/coerce-result.js";
import { coercers } from "../coerce/coercer-table.js";
import { createCoerceContext, TooDeep } from "../coerce/create-coerce-context.js";
import { findConstraint } from "../coerce/find-constraint.js";
import type { Flag, FlagKind } from "../flags.js";
import { stringLiteralsOf } from "../kinds/union/coerce-union.js";
import type { JsonishNode } from "../lenient/jsonish-node.js";
import { workMeter } from "../work-meter.js";
import { plainPartials } from "./exact-partial.js";
import { cachedPerType, holdsThroughout } from "./type-walk.js";

/**
 * The flags of a final-mode reading after which the streaming coercers would read the same finished node
 * otherwise:
 * - a field with no key (`DefaultFromMissing`, `EmptyFromMissing`): final mode charges its default, a
 *   stream counts it among the fields still to come (`pending`), which weighs readings differently;
 * - an item or entry dropped, a value wrapped after the list under an object's only key failed
 *   (`SingleToList`): final mode moved on past a failure where a stream may show the value, flagged
 *   `WillFail` (a required field missing, a list none of whose items fit);
 * - an object read as a single-field class's field (`ImpliedKey`): final mode takes it whenever the object
 *   read directly fails, a stream only while it costs less than the direct reading flagged `WillFail`.
 */
const PARTING: ReadonlySet<FlagKind> = new Set<FlagKind>([
  "DefaultFromMissing",
  "EmptyFromMissing",
  "ItemDropped",
  "EntryDropped",
  "SingleToList",
  "ImpliedKey",
]);

/** How many parted paths are remembered at most. */
const PARTED_KEPT = 4096;

const NO_FLAGS: readonly Flag[] = Object.freeze([]);
const NO_CHECKS: readonly CheckResult[] = Object.freeze([]);

/**
 * Reads a finished container that a stream meets for the first time (a read catching up over a stretch of
 * the answer: a whole list of objects closed since the last read, or the whole answer read once) with the
 * final-mode coercers (the one coercer of each kind, run through a final-mode context of its own: a
 * one-shot read, docs/decisions/0040 and 0047), so it builds none of the per-node state the streaming coercers keep for nodes that
 * are still growing (a slot per container, an object's field paths and outcomes). The same rules, read
 * whole: for a finished node the streaming coercers and the final-mode ones agree, value and score (with
 * nothing pending), except where a stream's partial semantics differ, and then the node goes back to the
 * streaming coercers (`read` returns undefined):
 * - types whose partials have another shape than their values (`@stream.*`), with `@check`/`@assert`
 *   (a partial keeps a value whose assert is false, flagged), or with a union of other options than string
 *   literals (the options' scores differ between the modes where fields are missing) are never read so;
 * - a reading that fails, nests too deep, meets a node still open inside the finished one, replaces a
 *   key's value by a later key (a stream announces that: `ReadingSwitch`) or carries a `PARTING` flag.
 * A node handed back is read by the streaming coercers, whose children come here again; the paths where
 * the final-mode reading parted are remembered, so no enclosing node on the way down to them is tried
 * twice.
 */
export class FinishedNodeReader {
  private readonly context: CoerceContext;
  /** The paths where a reading parted, and every path above them (cleared with each new reading at `$`). */
  private readonly parted = new Set<string>();
  /** How many nodes were read so (for tests: the path must not silently stop being taken). */
  taken = 0;
  /** Where this reading met an open node or a key written again. */
  private broken: string | undefined;
  /** The deepest level the last reading entered, and how far below its node that went (`Slot.reach`). */
  private deepest = 0;
  reach = 0;

  constructor(
    private readonly index: IrIndex,
    constraintEvaluator: ConstraintEvaluator | undefined,
  ) {
    const context = createCoerceContext(index, coercers, { constraintEvaluator });
    const coerce = context.coerce;
    context.coerce = (type, node, path) => {
      // The steps a stream counts per coercion, counted here too.
      workMeter.steps++;
      if (context.depth > this.deepest) this.deepest = context.depth;
      if (!node.complete) this.broken ??= path;
      return coerce(type, node, path);
    };
    context.onKeyAgain = (path) => {
      this.broken ??= path;
    };
    this.context = context;
  }

  /**
   * The streaming coercers' result for the finished `node` read as `type` at `path`, `depth` levels down
   * (as their context counts them), or undefined when it must be read by them.
   */
  read(type: Type, node: JsonishNode, path: string, depth: number): CoerceSuccess | undefined {
    if (!eligible(type, this.index)) return undefined;
    // (Kept small: forgetting only costs a node tried twice.)
    if (path === "$" || this.parted.size > PARTED_KEPT) this.parted.clear();
    else if (this.parted.has(path)) return undefined;
    const context = this.context;
    context.depth = depth;
    this.deepest = depth;
    this.broken = undefined;
    let result: ReturnType<CoerceContext["coerce"]>;
    try {
      result = context.coerce(type, node, path);
    } catch (error) {
      if (!(error instanceof TooDeep)) throw error;
      this.part(error.failure.issue.path);
      return undefined;
    } finally {
      context.active.clear();
    }
    if (!result.ok) {
      this.part(result.issue.path);
      return undefined;
    }
    let parts = this.broken !== undefined;
    if (this.broken !== undefined) this.part(this.broken);
    for (const flag of result.flags) {
      if (!PARTING.has(flag.kind)) continue;
      this.part(flag.path);
      parts = true;
    }
    if (parts) return undefined;
    this.taken++;
    this.reach = this.deepest + 1 - depth;
    // What the streaming coercers give when they gather no flags (a stream parser's), and nothing pending.
    return { ok: true, value: result.value, flags: NO_FLAGS, score: result.score, checks: NO_CHECKS };
  }

  /** Remember `path` and every path above it (`$.a[2].b`: `$`, `$.a`, `$.a[2]`, `$.a[2].b`). */
  private part(path: string): void {
    if (this.parted.has(path)) return;
    this.parted.add(path);
    for (let end = path.length - 1; end > 0; end--) {
      const char = path[end];
      if (char === "." || char === "[") this.parted.add(path.slice(0, end));
    }
  }
}

/** See the `FinishedNodeReader` comment: no `@stream.*`, no constraints, no union but of string literals. */
const eligible = cachedPerType(
  (type, index) =>
    plainPartials(type, index) &&
    findConstraint(type, index) === undefined &&
    // (A union of string literals is matched as one enum: it chooses no option.)
    holdsThroughout(type, index, (inner) =>
      inner.kind === "union" ? stringLiteralsOf(inner) !== undefined : undefined,
    ),
);
