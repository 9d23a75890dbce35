import type { Type } from "../ir/index.js";
import {
  asOperand,
  literalText,
  type Members,
  mapText,
  mediaClassName,
  type TypeRenderContext,
  typesRef,
  unionMembers,
  unknownReference,
  wrapChecked,
} from "./type-render-context.js";

/**
 * An IR type as the TypeScript type of a complete value (BAML's `types.ts` mapping): `int`/`float` →
 * `number`, `T?` → `T | null`, enums → the generated string enum (a `@@dynamic` enum also admits any
 * string, for values added by a TypeBuilder), media → the runtime's `Image`/`Audio`/`Pdf`/`Video`,
 * `@check` → `Checked<T, labels>`.
 */
export function renderFinalType(type: Type, context: TypeRenderContext): Members {
  return wrapChecked(renderBase(type, context), type, context);
}

function renderBase(type: Type, context: TypeRenderContext): Members {
  switch (type.kind) {
    case "primitive":
      return [primitiveText[type.name]];
    case "literal":
      return [literalText(type.value)];
    case "media": {
      const name = mediaClassName(type.name);
      context.used.add(name);
      return [name];
    }
    case "enum": {
      const declaration = context.index.enums.get(type.name);
      if (!declaration) throw unknownReference("enum", type.name);
      const name = typesRef(type.name, context);
      return declaration.dynamic ? ["string", name] : [name];
    }
    case "class":
      if (!context.index.classes.has(type.name)) throw unknownReference("class", type.name);
      return [typesRef(type.name, context)];
    case "alias":
      if (!context.index.aliases.has(type.name)) throw unknownReference("type alias", type.name);
      return [typesRef(type.name, context)];
    case "list":
      return [`${asOperand(renderFinalType(type.item, context))}[]`];
    case "map":
      return [mapText(renderFinalType(type.key, context), renderFinalType(type.value, context), context)];
    case "union":
      return unionMembers(type.options.map((option) => renderFinalType(option, context)));
    case "optional":
      return unionMembers([renderFinalType(type.inner, context), ["null"]]);
  }
}

export const primitiveText = {
  string: "string",
  int: "number",
  float: "number",
  bool: "boolean",
  null: "null",
} as const;
