import type { Enum, EnumRefType } from "../../../ir/index.js";
import { applyConstraints } from "../../coerce/apply-constraints.js";
import type { KindCoercer } from "../../coerce/coerce-context.js";
import { coerceByMatching } from "./coerce-by-matching.js";
import type { MatchOption } from "./match-text.js";

const optionsByEnum = new WeakMap<Enum, MatchOption[]>();

/**
 * The spellings of an enum's values: the one the model was shown (the alias or the name), the description,
 * and the declared name behind an alias.
 */
function enumOptions(declaration: Enum): MatchOption[] {
  let options = optionsByEnum.get(declaration);
  if (!options) {
    options = declaration.values
      .filter((value) => !value.skip)
      .map((value) => ({
        value: value.name,
        names: [value.alias ?? value.name],
        // BAML takes the declared name too; the alias is what the model was shown, so it wins a clash.
        ...(value.alias !== undefined && value.alias !== value.name ? { otherNames: [value.name] } : {}),
        descriptions: value.description ? [value.description] : [],
      }));
    optionsByEnum.set(declaration, options);
  }
  return options;
}

export const enumCoercer: KindCoercer<EnumRefType> = {
  coerce(type, node, path, context) {
    const declaration = context.index.getEnum(type.name);
    const result = coerceByMatching(type, node, path, context, enumOptions(declaration));
    if (!result.ok || declaration.constraints.length === 0) return result;
    return applyConstraints(declaration.constraints, result, path, context, context.describe(type), node);
  },
  isScalar: () => true,
  fits: (_type, node) => node.kind === "string",
  describe(type, context) {
    const values = enumOptions(context.index.getEnum(type.name)).map((option) => option.names[0]!);
    const shown = values.length > 8 ? [...values.slice(0, 8), "…"] : values;
    return `enum ${type.name} (${shown.join(" | ")})`;
  },
};
