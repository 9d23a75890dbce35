import type { Ir, IrIndex } from "../../ir/index.js";
import { isRecord } from "../../util/index.js";
import { checkPartialValue } from "./check-partial-value.js";
import { indexOf } from "./index-of.js";
import { type PartialType, partialClassFields, partialTypeOfAlias } from "./partial-type.js";

/**
 * A final value (what `parseValue` returns) in the shape of its partial type: what the last partial of a
 * whole answer shows. `@stream.with_state` values are wrapped as `{ value, state: "Complete" }`, fields
 * missing from an object are null; a union takes the first option the mapped value fits. A value of
 * another shape (another arm of a union) is left as it is. For the tests that hold a stream to final mode.
 */
export function finalAsPartial(value: unknown, partial: PartialType, ir: Ir | IrIndex): unknown {
  return mapped(value, partial, indexOf(ir));
}

function mapped(value: unknown, partial: PartialType, index: IrIndex): unknown {
  if (partial.withState) {
    const { withState: _, ...plain } = partial;
    return { value: mapped(value, { ...plain, nullable: true } as PartialType, index), state: "Complete" };
  }
  if (value === null) return null;
  switch (partial.kind) {
    case "list":
      return Array.isArray(value) ? value.map((item) => mapped(item, partial.item, index)) : value;
    case "map":
      if (!isRecord(value)) return value;
      return Object.fromEntries(
        Object.entries(value).map(([key, entry]) => [key, mapped(entry, partial.value, index)]),
      );
    case "class": {
      const fields = partialClassFields(partial.name, index);
      // Not this class (another arm of a union): left as it is, so the arm does not fit.
      if (!isRecord(value) || Object.keys(value).some((key) => !fields.some((field) => field.name === key)))
        return value;
      const out: Record<string, unknown> = {};
      for (const field of fields) out[field.name] = mapped(value[field.name] ?? null, field.type, index);
      return out;
    }
    case "alias":
      return mapped(value, partialTypeOfAlias(partial, index), index);
    case "union":
      for (const option of partial.options) {
        const candidate = mapped(value, option, index);
        if (checkPartialValue(candidate, option, index) === undefined) return candidate;
      }
      return value;
    default:
      return value;
  }
}
