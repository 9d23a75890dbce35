import type { Type } from "./types.js";

/**
 * The streaming rule of BAML's partial types (reference/baml.md §4.2), kept once: the stream parser
 * (`sap`'s `partialType` and its coerce context) and the code generator (`partial_types.ts`) both ask it.
 *
 * What an enclosing type passes down to the type it holds.
 */
export interface StreamBehaviour {
  /** The value may not be null in a partial: a list item, a map key or value, a union arm, `@stream.not_null`. */
  needed: boolean;
  /** The value appears only when complete: `@stream.done`, propagated into list items, map entries and union arms. */
  done: boolean;
}

/** What a top-level type (a function's return type, a class field) starts from. */
export const TOP_LEVEL: StreamBehaviour = { needed: false, done: false };

/** The streaming behaviour of one type, and what it passes to the types it holds. */
export interface TypeStreamBehaviour extends StreamBehaviour {
  /** For its items, entries, arms and optional inner type: needed, and done if this type is done. */
  inner: StreamBehaviour;
}

/**
 * `type`'s behaviour under `inherited`: done when the parent is done, the type is `@stream.done` or it
 * is inherently whole (`inherentlyDone`); needed when the parent needs it, the type is
 * `@stream.not_null`, or it is a list or a map (they start empty, never null).
 * `isDoneClass` answers whether a class is `@@stream.done`.
 */
export function streamBehaviourOf(
  type: Type,
  inherited: StreamBehaviour,
  isDoneClass: (name: string) => boolean,
): TypeStreamBehaviour {
  const attrs = type.attrs;
  const done = inherited.done || attrs?.streamDone === true || inherentlyDone(type, isDoneClass);
  const needed =
    inherited.needed || attrs?.streamNotNull === true || type.kind === "list" || type.kind === "map";
  return { needed, done, inner: { needed: true, done } };
}

/**
 * Types whose values appear only whole, never in part: ints, floats, bools, enums, literals, media,
 * unions of plain string literals (matched as one enum) and `@@stream.done` classes.
 */
export function inherentlyDone(type: Type, isDoneClass: (name: string) => boolean): boolean {
  switch (type.kind) {
    case "primitive":
      return type.name === "int" || type.name === "float" || type.name === "bool";
    case "enum":
    case "literal":
    case "media":
      return true;
    case "union":
      return type.options.every(
        (option) => option.kind === "literal" && typeof option.value === "string" && !option.attrs,
      );
    case "class":
      return isDoneClass(type.name);
    default:
      return false;
  }
}
