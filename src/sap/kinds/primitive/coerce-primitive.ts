import type { PrimitiveType } from "../../../ir/index.js";
import type { KindCoercer } from "../../coerce/coerce-context.js";
import type { JsonishNode } from "../../lenient/jsonish-node.js";
import { coerceBool } from "./coerce-bool.js";
import { coerceNull } from "./coerce-null.js";
import { coerceFloat, coerceInt } from "./coerce-number.js";
import { coerceString } from "./coerce-string.js";

/** Primitives dispatch once more, by name, through their own small table. */
const primitives: Record<PrimitiveType["name"], KindCoercer<PrimitiveType>["coerce"]> = {
  string: coerceString,
  int: coerceInt,
  float: coerceFloat,
  bool: coerceBool,
  null: coerceNull,
};

const naturalNodeKind: Record<PrimitiveType["name"], JsonishNode["kind"]> = {
  string: "string",
  int: "number",
  float: "number",
  bool: "bool",
  null: "null",
};

export const primitiveCoercer: KindCoercer<PrimitiveType> = {
  fits: (type, node) => naturalNodeKind[type.name] === node.kind,
  coerce: (type, node, path, context) => primitives[type.name](type, node, path, context),
  missing: (type) => (type.name === "null" ? { value: null, reason: "optional" } : undefined),
  isScalar: () => true,
};
