import type { UnionType } from "../../../ir/index.js";
import type { KindCoercer } from "../../coerce/coerce-context.js";
import type { CoerceFailure } from "../../coerce/coerce-result.js";
import { samePartial } from "../../stream/same-partial.js";
import { pendingOf, type StreamCoerceContext } from "../../stream/stream-coerce-context.js";
import { chooseOption, unionCoercer } from "./coerce-union.js";

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
interface UnionState {
  /** The text decided between the options that read it equally well (see below). */
  decided: boolean;
  /** The option whose reading was last shown (-1: none yet). */
  shown: number;
}

/**
 * Unions in prefix mode: final mode's choice (`chooseOption`), held back while it is not yet a choice. An
 * object still missing fields that another option reads as well (the same score: `{"kind": "d` for
 * `Cat | Dog`, `{` for `Circle | Rectangle`) would show the first option and then switch to the other
 * once a key rules it out, so it is not ready until the text decides. When more text still moves the
 * reading to another option (a key that only the other option has, a repair that costs one option more
 * than the other), the value shown starts over: counted in `restarts`, so the read carries
 * `ReadingSwitch`.
 */
export const streamUnionCoercer: KindCoercer<UnionType> = {
  ...unionCoercer,
  coerce(type, node, path, baseContext) {
    const context = baseContext as StreamCoerceContext;
    const { result, option } = chooseOption(type, node, path, context);
    if (!result.ok || option < 0) return result;
    const slot = context.slot(node, type, path);
    let state = slot.state as UnionState | undefined;
    if (!state) {
      state = { decided: false, shown: -1 };
      slot.state = state;
    }
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
  },
};
