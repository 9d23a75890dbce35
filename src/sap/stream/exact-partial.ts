import type { IrIndex, Type } from "../../ir/index.js";
import { NOT_EXACT, readExact } from "../coerce/read-exact.js";
import { cachedPerType, holdsThroughout } from "./type-walk.js";

/**
 * The partial value of a finished reading that `JSON.parse` read and that already is exactly a value of
 * the type (final mode's fast path, `readExact`), or `NOT_EXACT`. For types whose partials have the
 * final value's shape (no `@stream.*` attribute anywhere: nothing to wrap, withhold or hold back), the
 * streaming coercers read such a value's nodes into that same value, with no flag: the partial reader
 * takes this path for a fence that arrived whole, instead of coercing its nodes one by one.
 */
export function exactPartial(type: Type, value: unknown, index: IrIndex): unknown {
  if (!plainPartials(type, index)) return NOT_EXACT;
  return readExact(type, value, index);
}

/** No `@stream.*` attribute on the type or anything inside it (classes, aliases followed once). */
export const plainPartials = cachedPerType((type, index) =>
  holdsThroughout(type, index, (inner) => {
    const attrs = inner.attrs;
    if (attrs?.streamDone || attrs?.streamNotNull || attrs?.streamWithState) return false;
    if (inner.kind === "media") return false;
    if (inner.kind === "class" && index.getClass(inner.name).streamDone) return false;
    return undefined;
  }),
);
