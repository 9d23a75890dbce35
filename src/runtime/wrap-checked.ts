import { type IrIndex, labelledChecks, type Type } from "../ir/index.js";
import type { ConstraintEvaluator } from "../sap/index.js";

/** One `@check` outcome, in BAML's shape. */
export interface CheckOutcome {
  name: string;
  expr: string;
  status: "succeeded" | "failed";
}

/**
 * Wraps every value whose type carries labelled `@check`s (its own, or its class's `@@check`s) as BAML's
 * `Checked<T>`:
 * `{ value, checks: { label: { name, expr, status } } }` — the shape the generated types declare. The
 * parser keeps values plain (it records check results on the side), so this walks the parsed value along
 * its type. Checks see the plain value, as in BAML. `null` (not written yet, in partials) stays `null`.
 * Union arms are not descended into: which arm a value took is the parser's knowledge, not the value's.
 */
export function wrapChecked(
  value: unknown,
  type: Type,
  index: IrIndex,
  evaluate: ConstraintEvaluator,
  memo?: WrapMemo,
): unknown {
  if (value === null || value === undefined) return value;
  if (memo !== undefined && typeof value === "object") {
    // Streamed partials share every unchanged subtree with the previous partial: wrap each subtree once,
    // so wrapping a partial costs the part still being written, not the whole value on every chunk.
    const known = memo.get(value);
    if (known !== undefined && known.type === type) return known.wrapped;
    const wrapped = wrapValue(value, type, index, evaluate, memo);
    memo.set(value, { type, wrapped });
    return wrapped;
  }
  return wrapValue(value, type, index, evaluate, memo);
}

/**
 * Wrapped values by the plain value they wrap (and the type they were wrapped at), for a stream of
 * partials: see `wrapChecked`. Partial values never change once handed out, so a wrapping stays right.
 */
export type WrapMemo = WeakMap<object, { type: Type; wrapped: unknown }>;

function wrapValue(
  value: unknown,
  type: Type,
  index: IrIndex,
  evaluate: ConstraintEvaluator,
  memo: WrapMemo | undefined,
): unknown {
  const inner = wrapChildren(value, type, index, evaluate, memo);
  const checks = labelledChecks(type, index);
  if (checks.length === 0) return inner;
  const outcomes: Record<string, CheckOutcome> = {};
  for (const check of checks) {
    const label = check.label as string;
    let passed = false;
    try {
      passed = evaluate(check.expression, value) === true;
    } catch {
      // An expression that cannot be evaluated did not pass; the parser already flagged it.
    }
    outcomes[label] = { name: label, expr: check.expression, status: passed ? "succeeded" : "failed" };
  }
  return { value: inner, checks: outcomes };
}

function wrapChildren(
  value: unknown,
  type: Type,
  index: IrIndex,
  evaluate: ConstraintEvaluator,
  memo: WrapMemo | undefined,
): unknown {
  switch (type.kind) {
    case "optional":
      return wrapChecked(value, type.inner, index, evaluate, memo);
    case "alias":
      return wrapChecked(value, index.getAlias(type.name).type, index, evaluate, memo);
    case "list":
      return Array.isArray(value)
        ? value.map((item) => wrapChecked(item, type.item, index, evaluate, memo))
        : value;
    case "map": {
      if (!isRecord(value)) return value;
      // fromEntries keeps a `__proto__` key as data (an assignment would set the prototype instead).
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [
          key,
          wrapChecked(item, type.value, index, evaluate, memo),
        ]),
      );
    }
    case "class": {
      if (!isRecord(value)) return value;
      const declared = index.classes.get(type.name);
      if (!declared) return value;
      const result: Record<string, unknown> = { ...value };
      for (const field of declared.fields) {
        if (field.name in result)
          result[field.name] = wrapChecked(result[field.name], field.type, index, evaluate, memo);
      }
      return result;
    }
    default:
      return value;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether any type reachable from `type` has a labelled `@check` (so most values skip the walk). */
export function hasChecks(type: Type, index: IrIndex, seen = new Set<string>()): boolean {
  if (labelledChecks(type, index).length > 0) return true;
  switch (type.kind) {
    case "optional":
      return hasChecks(type.inner, index, seen);
    case "list":
      return hasChecks(type.item, index, seen);
    case "map":
      return hasChecks(type.value, index, seen);
    case "union":
      return false;
    case "alias":
    case "class": {
      const key = `${type.kind}:${type.name}`;
      if (seen.has(key)) return false;
      seen.add(key);
      if (type.kind === "alias") return hasChecks(index.getAlias(type.name).type, index, seen);
      return (index.classes.get(type.name)?.fields ?? []).some((field) => hasChecks(field.type, index, seen));
    }
    default:
      return false;
  }
}
