import type { AliasRefType, MediaType, OptionalType, PrimitiveType, UnionType } from "../../ir/index.js";
import type { JsonishNode } from "../lenient/jsonish-node.js";
import { type KindCoercer, type PlainTextUse, widerPlainTextUse } from "./coerce-context.js";
import { coerceByMatching } from "./coerce-enum.js";
import { coerceFloat, coerceInt } from "./coerce-number.js";
import {
  type CoerceResult,
  type CoerceSuccess,
  exact,
  failure,
  pathDepth,
  repaired,
} from "./coerce-result.js";
import { coerceBool, coerceNull, coerceString, spellsNull } from "./coerce-scalars.js";

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

/**
 * `T?`: null (or text spelling null, when T does not take it) is null; otherwise T. A missing `T?` is
 * null.
 */
export const optionalCoercer: KindCoercer<OptionalType> = {
  coerce(type, node, path, context) {
    if (node.kind === "null") return exact(null);
    const inner = context.coerce(type.inner, node, path);
    if (inner.ok || !spellsNull(node)) return inner;
    return repaired(
      null,
      "StringToNull",
      path,
      `${JSON.stringify(node.kind === "string" ? node.value : "")} read as null`,
    );
  },
  delegates: true,
  fits: (type, node, context) => node.kind === "null" || context.fits(type.inner, node),
  missing: () => ({ value: null, reason: "optional" }),
  isScalar: (type, context) => context.isScalar(type.inner),
  plainText: (type, context) => context.plainText(type.inner),
  describe: (type, context) => `${context.describe(type.inner)}?`.replace(/^(.* .*)\?$/, "($1)?"),
};

/**
 * Unions: every option is tried; the lowest score wins, ties going to the earlier option. A perfect fit
 * (score 0) stops the search. When nothing fits, the failure that got furthest into the value is
 * reported (it names the real problem), else a plain mismatch.
 */
export const unionCoercer: KindCoercer<UnionType> = {
  coerce(type, node, path, context): CoerceResult {
    // A union of string literals is an inline enum: matched together, so naming two of them is ambiguous
    // rather than a win for whichever comes first.
    const literals = type.options.flatMap((option) =>
      option.kind === "literal" && typeof option.value === "string" && !option.attrs ? [option.value] : [],
    );
    if (literals.length === type.options.length) {
      const options = literals.map((value) => ({ value, names: [value], descriptions: [] }));
      return coerceByMatching(type, node, path, context, options);
    }
    // Options whose natural shape matches the node go first, so a perfect fit ends the search early;
    // the result is the same as trying every option: lowest score, ties to the earlier option.
    let best: CoerceSuccess | undefined;
    let bestIndex = -1;
    let deepest: CoerceResult | undefined;
    const order = type.options.map((option, index) => ({ option, index, fits: context.fits(option, node) }));
    order.sort((left, right) => Number(right.fits) - Number(left.fits) || left.index - right.index);
    for (const { option, index } of order) {
      const result = context.coerce(option, node, path);
      if (result.ok) {
        if (!best || result.score < best.score || (result.score === best.score && index < bestIndex)) {
          best = result;
          bestIndex = index;
        }
        if (best.score === 0 && order[0]!.fits) break;
      } else if (!deepest || (!deepest.ok && pathDepth(result.issue.path) > pathDepth(deepest.issue.path))) {
        deepest = result;
      }
    }
    if (best) return best;
    if (deepest && !deepest.ok && pathDepth(deepest.issue.path) > pathDepth(path)) return deepest;
    return failure("type-mismatch", path, context.describe(type), node);
  },
  delegates: true,
  fits: (type, node, context) => type.options.some((option) => context.fits(option, node)),
  missing: (type, context) => {
    for (const option of type.options) {
      const fallback = context.missing(option);
      if (fallback?.reason === "optional") return fallback;
    }
    return undefined;
  },
  isScalar: (type, context) => type.options.every((option) => context.isScalar(option)),
  plainText: (type, context) =>
    type.options.reduce<PlainTextUse>(
      (use, option) => widerPlainTextUse(use, context.plainText(option)),
      "never",
    ),
  describe: (type, context) => type.options.map((option) => context.describe(option)).join(" | "),
};

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

/** Media (image, audio, pdf, video) are inputs; text cannot produce them. */
export const mediaCoercer: KindCoercer<MediaType> = {
  coerce: (type, node, path) =>
    failure(
      "unsupported-type",
      path,
      type.name,
      node,
      `A ${type.name} cannot be parsed from text; use it as a function input.`,
    ),
  plainText: () => "never",
};
