import type { MediaName, Type, TypeAttributes } from "./types.js";

/**
 * Small constructors for IR types, for code that builds types by hand (TypeBuilder, tests).
 * `t.list(t.string())` reads like `string[]`.
 */
export const t = {
  string: (): Type => ({ kind: "primitive", name: "string" }),
  int: (): Type => ({ kind: "primitive", name: "int" }),
  float: (): Type => ({ kind: "primitive", name: "float" }),
  bool: (): Type => ({ kind: "primitive", name: "bool" }),
  null: (): Type => ({ kind: "primitive", name: "null" }),
  literal: (value: string | number | boolean): Type => ({ kind: "literal", value }),
  enumRef: (name: string): Type => ({ kind: "enum", name }),
  classRef: (name: string): Type => ({ kind: "class", name }),
  aliasRef: (name: string): Type => ({ kind: "alias", name }),
  media: (name: MediaName): Type => ({ kind: "media", name }),
  list: (item: Type): Type => ({ kind: "list", item }),
  map: (key: Type, value: Type): Type => ({ kind: "map", key, value }),
  optional: (inner: Type): Type => ({ kind: "optional", inner }),
  /** Flattens nested unions, as the IR requires. */
  union: (...options: Type[]): Type => ({
    kind: "union",
    options: options.flatMap((option) =>
      option.kind === "union" && !option.attrs ? option.options : [option],
    ),
  }),
  withAttrs: (type: Type, attrs: TypeAttributes): Type => ({ ...type, attrs: { ...type.attrs, ...attrs } }),
};
