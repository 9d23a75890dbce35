import type { OptionalType } from "../../../ir/index.js";
import type { KindCoercer } from "../../coerce/coerce-context.js";
import { exact, repaired } from "../../coerce/coerce-result.js";
import { spellsNull } from "../primitive/coerce-null.js";

/**
 * `T?`: null (or text spelling null, when T does not take it) is null; otherwise T. A missing `T?` is
 * null.
 */
export const optionalCoercer: KindCoercer<OptionalType> = {
  coerce(type, node, path, context) {
    if (node.kind === "null") return exact(null);
    const inner = context.coerce(type.inner, node, path);
    if (inner.ok || !spellsNull(node)) return inner;
    return repaired(
      null,
      "StringToNull",
      path,
      `${JSON.stringify(node.kind === "string" ? node.value : "")} read as null`,
      node,
    );
  },
  delegates: true,
  fits: (type, node, context) => node.kind === "null" || context.fits(type.inner, node),
  missing: () => ({ value: null, reason: "optional" }),
  isScalar: (type, context) => context.isScalar(type.inner),
  plainText: (type, context) => context.plainText(type.inner),
  describe: (type, context) => `${context.describe(type.inner)}?`.replace(/^(.* .*)\?$/, "($1)?"),
};
