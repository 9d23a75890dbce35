import type { Enum, EnumRefType, LiteralType, Type } from "../../ir/index.js";
import type { JsonishNode } from "../lenient/jsonish-node.js";
import { applyConstraints } from "./apply-constraints.js";
import type { CoerceContext, KindCoercer } from "./coerce-context.js";
import { type CoerceResult, exact, failure, repaired } from "./coerce-result.js";
import { type MatchOption, matchText } from "./match-text.js";
import { unwrapSingle } from "./unwrap-single.js";

const optionsByEnum = new WeakMap<Enum, MatchOption[]>();

/** The spellings of an enum's values the model was shown: the alias or the name, and the description. */
function enumOptions(declaration: Enum): MatchOption[] {
  let options = optionsByEnum.get(declaration);
  if (!options) {
    options = declaration.values
      .filter((value) => !value.skip)
      .map((value) => ({
        value: value.name,
        names: [value.alias ?? value.name],
        descriptions: value.description ? [value.description] : [],
      }));
    optionsByEnum.set(declaration, options);
  }
  return options;
}

/** Match text against options and turn the outcome into a result with the right flag. */
export function coerceByMatching(
  type: Type,
  node: JsonishNode,
  path: string,
  context: CoerceContext,
  options: MatchOption[],
): CoerceResult {
  const expected = context.describe(type);
  if (node.kind !== "string" && node.kind !== "number" && node.kind !== "bool") {
    return unwrapSingle(type, node, path, context) ?? failure("type-mismatch", path, expected, node);
  }
  const text = node.kind === "string" ? node.value : node.kind === "number" ? node.text : String(node.value);
  const outcome = matchText(text, options);
  switch (outcome.kind) {
    case "exact":
      return exact(outcome.value);
    case "caseFold":
      return repaired(
        outcome.value,
        "EnumCaseFold",
        path,
        `${JSON.stringify(text)} read as ${outcome.matched}`,
      );
    case "description":
      return repaired(
        outcome.value,
        "EnumFromDescription",
        path,
        `${JSON.stringify(text)} is the description of ${outcome.value}`,
      );
    case "substring":
      return repaired(
        outcome.value,
        "EnumSubstring",
        path,
        `${outcome.matched} is named in ${preview(text)}`,
      );
    case "typo":
      return repaired(
        outcome.value,
        "EnumEditDistance",
        path,
        `${JSON.stringify(text)} read as ${outcome.matched} (a small typo)`,
      );
    case "ambiguous":
      return failure(
        "enum-ambiguous",
        path,
        expected,
        node,
        `It names ${outcome.values.join(" and ")}; picking one would be a guess.`,
      );
    case "none":
      return failure("enum-no-match", path, expected, node);
  }
}

function preview(text: string): string {
  const json = JSON.stringify(text.trim());
  return json.length > 60 ? `${json.slice(0, 57)}…"` : json;
}

export const enumCoercer: KindCoercer<EnumRefType> = {
  coerce(type, node, path, context) {
    const declaration = context.index.getEnum(type.name);
    const result = coerceByMatching(type, node, path, context, enumOptions(declaration));
    if (!result.ok || declaration.constraints.length === 0) return result;
    return applyConstraints(declaration.constraints, result, path, context, context.describe(type));
  },
  isScalar: () => true,
  fits: (_type, node) => node.kind === "string",
  describe(type, context) {
    const values = enumOptions(context.index.getEnum(type.name)).map((option) => option.names[0]!);
    const shown = values.length > 8 ? [...values.slice(0, 8), "…"] : values;
    return `enum ${type.name} (${shown.join(" | ")})`;
  },
};

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
