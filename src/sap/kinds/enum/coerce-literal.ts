import type { LiteralType, Type } from "../../../ir/index.js";
import type { KindCoercer } from "../../coerce/coerce-context.js";
import { failure } from "../../coerce/coerce-result.js";
import { coerceByMatching } from "./coerce-by-matching.js";

/** String literals match like a one-value enum; number and bool literals compare the coerced value. */
export const literalCoercer: KindCoercer<LiteralType> = {
  coerce(type, node, path, context) {
    const literal = type.value;
    if (typeof literal === "string") {
      return coerceByMatching(type, node, path, context, [
        { value: literal, names: [literal], descriptions: [] },
      ]);
    }
    const base: Type = {
      kind: "primitive",
      name: typeof literal === "number" ? (Number.isInteger(literal) ? "int" : "float") : "bool",
    };
    const result = context.coerce(base, node, path);
    if (result.ok && result.value === literal) return result;
    return failure("type-mismatch", path, context.describe(type), node);
  },
  isScalar: () => true,
  fits: (type, node) =>
    (typeof type.value === "string" && node.kind === "string") ||
    (typeof type.value === "number" && node.kind === "number") ||
    (typeof type.value === "boolean" && node.kind === "bool"),
  describe: (type) => `the literal ${JSON.stringify(type.value)}`,
};
