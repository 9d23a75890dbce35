import type { IrIndex } from "./ir-index.js";
import type { Constraint, Type } from "./types.js";

/**
 * The labelled `@check`s a value of `type` carries: the type's own (`int @check(…)`), then the `@@check`s
 * of the class or enum it names. BAML returns such a value as `Checked` (`{ value, checks }`) wherever the
 * type is used (a return type, a field, a list item), so the generated types and the runtime's wrapping
 * both ask this one function.
 */
export function labelledChecks(type: Type, index: IrIndex): Constraint[] {
  const own = type.attrs?.constraints ?? [];
  const declared =
    type.kind === "class"
      ? (index.classes.get(type.name)?.constraints ?? [])
      : type.kind === "enum"
        ? (index.enums.get(type.name)?.constraints ?? [])
        : [];
  return [...own, ...declared].filter(
    (constraint) => constraint.level === "check" && constraint.label !== undefined,
  );
}
