import type { AliasRefType } from "../../../ir/index.js";
import type { KindCoercer } from "../../coerce/coerce-context.js";

/** Alias names being looked through by the questions below (a recursive alias must not loop). */
const visiting = new Set<string>();

function throughAlias<T>(name: string, otherwise: T, run: () => T): T {
  if (visiting.has(name)) return otherwise;
  visiting.add(name);
  try {
    return run();
  } finally {
    visiting.delete(name);
  }
}

/** Aliases (recursive ones included) coerce as their target; the depth guard stops runaway recursion. */
export const aliasCoercer: KindCoercer<AliasRefType> = {
  coerce: (type, node, path, context) => context.coerce(context.index.getAlias(type.name).type, node, path),
  delegates: true,
  fits: (type, node, context) =>
    throughAlias(type.name, false, () => context.fits(context.index.getAlias(type.name).type, node)),
  missing: (type, context) =>
    throughAlias(type.name, undefined, () => context.missing(context.index.getAlias(type.name).type)),
  isScalar: (type, context) =>
    throughAlias(type.name, false, () => context.isScalar(context.index.getAlias(type.name).type)),
  plainText: (type, context) =>
    throughAlias(type.name, "primary", () => context.plainText(context.index.getAlias(type.name).type)),
  describe: (type) => type.name,
};
