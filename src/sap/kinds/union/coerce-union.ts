import type { UnionType } from "../../../ir/index.js";
import {
  type CoerceContext,
  type KindCoercer,
  type PlainTextUse,
  widerPlainTextUse,
} from "../../coerce/coerce-context.js";
import {
  type CoerceFailure,
  type CoerceResult,
  type CoerceSuccess,
  failure,
  pathDepth,
} from "../../coerce/coerce-result.js";
import type { JsonishNode } from "../../lenient/jsonish-node.js";
import { samePartial } from "../../stream/same-partial.js";
import { keptState } from "../../stream/slot-store.js";
import type { StreamCoerceContext } from "../../stream/stream-coerce-context.js";
import { pendingOf, streamOf } from "../../stream/stream-of.js";
import { coerceByMatching } from "../enum/coerce-by-matching.js";

/** The values of a union of plain string literals (an inline enum), else undefined. */
export function stringLiteralsOf(type: UnionType): string[] | undefined {
  const literals = type.options.flatMap((option) =>
    option.kind === "literal" && typeof option.value === "string" && !option.attrs ? [option.value] : [],
  );
  return literals.length === type.options.length ? literals : undefined;
}

/**
 * Unions: the best option's reading (`chooseOption`, the fold over the options). A perfect fit (score 0)
 * stops the search. When nothing fits, the failure that got furthest into the value is reported (it
 * names the real problem), else a plain mismatch. In a one-shot read that choice is the value; a stream
 * shows a view of it (`shownChoice`).
 */
export const unionCoercer: KindCoercer<UnionType> = {
  coerce(type, node, path, context): CoerceResult {
    const { result, option } = chooseOption(type, node, path, context);
    const stream = streamOf(context);
    if (stream === undefined || !result.ok || option < 0) return result;
    return shownChoice(type, node, path, stream, result, option);
  },
  delegates: true,
  fits: (type, node, context) => type.options.some((option) => context.fits(option, node)),
  missing: (type, context) => {
    for (const option of type.options) {
      const fallback = context.missing(option);
      if (fallback?.reason === "optional") return fallback;
    }
    return undefined;
  },
  isScalar: (type, context) => type.options.every((option) => context.isScalar(option)),
  plainText: (type, context) =>
    type.options.reduce<PlainTextUse>(
      (use, option) => widerPlainTextUse(use, context.plainText(option)),
      "never",
    ),
  describe: (type, context) => type.options.map((option) => context.describe(option)).join(" | "),
};

/** The union's reading of a node, and the option it came from (-1: no option fits, or an inline enum). */
export interface UnionChoice {
  result: CoerceResult;
  option: number;
}

/**
 * Every option is tried; the lowest score wins, ties going to an option of the node's own JSON shape,
 * then to the earlier option. A union of string literals is an inline enum: matched together, so naming
 * two of them is ambiguous rather than a win for whichever comes first. Streams use the option to tell
 * when a value they showed moved to another option (it starts over: `shownChoice`).
 */
export function chooseOption(
  type: UnionType,
  node: JsonishNode,
  path: string,
  context: CoerceContext,
): UnionChoice {
  const literals = stringLiteralsOf(type);
  if (literals) {
    const options = literals.map((value) => ({ value, names: [value], descriptions: [] }));
    return { result: coerceByMatching(type, node, path, context, options), option: -1 };
  }
  // Options whose natural shape matches the node go first, so a perfect fit ends the search early;
  // the result is the same as trying every option: lowest score, ties to the earlier option.
  // On equal scores an option of the node's own shape wins (`{}` still open for `V[] | map<string, V>`
  // is the map), then the earlier option. Trying fitting options first makes that "first seen wins".
  let best: CoerceSuccess | undefined;
  let bestOption = -1;
  let deepest: CoerceResult | undefined;
  const order = type.options.map((option, index) => ({ option, index, fits: context.fits(option, node) }));
  order.sort((left, right) => Number(right.fits) - Number(left.fits) || left.index - right.index);
  for (const { option, index } of order) {
    const result = context.coerce(option, node, path);
    if (result.ok) {
      if (!best || result.score < best.score) {
        best = result;
        bestOption = index;
      }
      if (best.score === 0 && order[0]!.fits) break;
    } else if (!deepest || (!deepest.ok && pathDepth(result.issue.path) > pathDepth(deepest.issue.path))) {
      deepest = result;
    }
  }
  if (best) return { result: best, option: bestOption };
  if (deepest && !deepest.ok && pathDepth(deepest.issue.path) > pathDepth(path))
    return { result: deepest, option: -1 };
  return { result: failure("type-mismatch", path, context.describe(type), node), option: -1 };
}

const UNDECIDED: CoerceFailure = {
  ok: false,
  issue: {
    code: "type-mismatch",
    path: "$",
    expected: "one option of the union",
    found: "a value two options read equally well so far",
  },
};

/** What a stream keeps of a union's node between reads. */
interface ShownOption {
  /** The text decided between the options that read it equally well (see `shownChoice`). */
  decided: boolean;
  /** The option whose reading was last shown (-1: none yet). */
  shown: number;
}

/**
 * What a partial shows of the choice: the choice itself, held back while it is not yet a choice. An
 * object still missing fields that another option reads as well (the same score: `{"kind": "d` for
 * `Cat | Dog`, `{` for `Circle | Rectangle`) would show the first option and then switch to the other
 * once a key rules it out, so it is not ready until the text decides. When more text still moves the
 * reading to another option (a key that only the other option has, a repair that costs one option more
 * than the other), the value shown starts over: counted in `restarts`, so the read carries
 * `ReadingSwitch`.
 */
function shownChoice(
  type: UnionType,
  node: JsonishNode,
  path: string,
  context: StreamCoerceContext,
  result: CoerceSuccess,
  option: number,
): CoerceResult {
  const state = keptState<ShownOption>(context.slot(node, type, path), () => ({ decided: false, shown: -1 }));
  if (
    !state.decided &&
    !node.complete &&
    pendingOf(result) > 0 &&
    (node.kind === "object" || node.kind === "array")
  ) {
    for (const other of type.options) {
      if (!context.fits(other, node)) continue;
      const reading = context.coerce(other, node, path);
      if (
        reading.ok &&
        reading.score === result.score &&
        pendingOf(reading) > 0 &&
        !samePartial(reading.value, result.value)
      )
        return UNDECIDED;
    }
    state.decided = true;
  }
  if (state.shown !== option) {
    if (state.shown >= 0) context.restarts++;
    state.shown = option;
  }
  return result;
}
