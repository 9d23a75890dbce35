import type { Ir, Type } from "../ir/index.js";

/**
 * Whether a project declares any `@check`/`@assert` (on a type, a field, a class or an enum): then its
 * generated client imports `sapling-llm/constraints` and gives the runtime the evaluator, which `b.parse`
 * and `b.parseStream` need synchronously (the runtime entry loads the Jinja engine only with a call).
 */
export function declaresConstraints(ir: Ir): boolean {
  return (
    ir.classes.some(
      (declared) => declared.constraints.length > 0 || declared.fields.some((field) => typeHas(field.type)),
    ) ||
    ir.enums.some((declared) => declared.constraints.length > 0) ||
    ir.aliases.some((alias) => typeHas(alias.type)) ||
    ir.functions.some((fn) => typeHas(fn.returnType))
  );
}

function typeHas(type: Type): boolean {
  if ((type.attrs?.constraints?.length ?? 0) > 0) return true;
  switch (type.kind) {
    case "list":
      return typeHas(type.item);
    case "map":
      return typeHas(type.key) || typeHas(type.value);
    case "union":
      return type.options.some(typeHas);
    case "optional":
      return typeHas(type.inner);
    default:
      return false;
  }
}
