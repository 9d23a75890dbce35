import type { UnionType } from "../../../ir/index.js";
import type { KindCoercer } from "../../coerce/coerce-context.js";
import type { CoerceFailure } from "../../coerce/coerce-result.js";
import { samePartial } from "../../stream/same-partial.js";
import { pendingOf, type StreamCoerceContext } from "../../stream/stream-coerce-context.js";
import { unionCoercer } from "./coerce-union.js";

const UNDECIDED: CoerceFailure = {
  ok: false,
  issue: {
    code: "type-mismatch",
    path: "$",
    expected: "one option of the union",
    found: "a value two options read equally well so far",
  },
};

/**
 * Unions in prefix mode: final mode's choice (`unionCoercer`), held back while it is not yet a choice. An
 * object still missing fields that another option reads as well (the same score: `{"kind": "d` for
 * `Cat | Dog`, `{` for `Circle | Rectangle`) would show the first option and then switch to the other
 * once a key rules it out, so it is not ready until the text decides. Once an option was shown for the
 * node, it stays shown.
 */
export const streamUnionCoercer: KindCoercer<UnionType> = {
  ...unionCoercer,
  coerce(type, node, path, baseContext) {
    const context = baseContext as StreamCoerceContext;
    const result = unionCoercer.coerce(type, node, path, context);
    if (!result.ok || node.complete || pendingOf(result) === 0) return result;
    if (node.kind !== "object" && node.kind !== "array") return result;
    const slot = context.slot(node, type, path);
    if (slot.state === "decided") return result;
    for (const option of type.options) {
      if (!context.fits(option, node)) continue;
      const other = context.coerce(option, node, path);
      if (
        other.ok &&
        other.score === result.score &&
        pendingOf(other) > 0 &&
        !samePartial(other.value, result.value)
      )
        return UNDECIDED;
    }
    slot.state = "decided";
    return result;
  },
};
