/**
 * Scores a function's value against the expected one, field by field, with defaults by type: enums, ints,
 * bools and literals exact; floats within a tolerance; strings normalised; lists item by item (or as
 * sets); classes, maps and unions recursively; a missing optional equal to null. A field's credit is in
 * [0, 1]: a class gets the mean of its fields, a list the share of its items that match, so a value that
 * is almost right shows as almost right. A field is correct when its credit is 1; a row when every scored
 * field is.
 */
import type { IrIndex, Type } from "../ir/index.js";
import { normalizeText, textSimilarity } from "./normalize-text.js";
import { EvalConfigError, type FieldRule, type ScoreConfig } from "./score-config.js";

/** A top-level field's score (the value itself, `$`, when the return type is not a class). */
export interface FieldScore {
  field: string;
  /** In [0, 1]. */
  credit: number;
}

export interface RowScore {
  /** Every scored field has credit 1. */
  correct: boolean;
  fields: FieldScore[];
}

const defaultFloatTolerance = 1e-6;

/** Scores values of one return type; built once per eval, used for every row. */
export class ValueScorer {
  readonly #rules: Record<string, FieldRule>;

  constructor(
    readonly index: IrIndex,
    readonly type: Type,
    config: ScoreConfig = { fields: {} },
  ) {
    this.#rules = config.fields;
    const known = typePaths(index, type);
    for (const path of Object.keys(config.fields))
      if (!known.has(path))
        throw new EvalConfigError(
          `the scoring file names the field "${path}", which the return type does not have. Fields: ${[...known].slice(0, 30).join(", ")}`,
        );
  }

  /** The top-level fields scored (in declaration order), ignored ones left out. */
  get fieldNames(): string[] {
    const root = this.#resolve(this.type);
    if (root.kind !== "class") return this.#rules.$?.scorer === "ignore" ? [] : ["$"];
    return this.index
      .getClass(root.name)
      .fields.filter((field) => !field.skip && this.#rules[field.name]?.scorer !== "ignore")
      .map((field) => field.name);
  }

  /** Scores one row's value; `actual` is `undefined` when the row has no value (it failed). */
  score(actual: unknown, expected: unknown): RowScore {
    const root = this.#resolve(this.type);
    const fields: FieldScore[] =
      root.kind === "class" && isRecord(expected)
        ? this.fieldNames.map((name) => {
            const field = this.index.getClass(root.name).fields.find((candidate) => candidate.name === name);
            const credit =
              actual === undefined || !isRecord(actual)
                ? 0
                : this.#credit(field?.type ?? root, actual[name], expected[name], name, undefined);
            return { field: name, credit };
          })
        : this.fieldNames.map((name) => ({
            field: name,
            credit: actual === undefined ? 0 : this.#credit(this.type, actual, expected, "$", undefined),
          }));
    return { correct: fields.every((field) => field.credit === 1), fields };
  }

  #resolve(type: Type): Type {
    let current = type;
    for (let depth = 0; current.kind === "alias" && depth < 64; depth += 1)
      current = this.index.aliases.get(current.name)?.type ?? current;
    return current;
  }

  #credit(
    type: Type,
    actual: unknown,
    expected: unknown,
    path: string,
    inherited: FieldRule | undefined,
  ): number {
    const rule = this.#rules[path] ?? inherited;
    if (rule?.scorer === "ignore") return 1;
    const resolved = this.#resolve(type);
    // A missing optional and null are the same answer; `undefined` stands for a key that is absent.
    if (expected === null || expected === undefined) return actual === null || actual === undefined ? 1 : 0;
    if (actual === null || actual === undefined) return 0;
    if (rule?.scorer === "exact") return deepEqual(actual, expected) ? 1 : 0;
    if (rule?.scorer === "number") return numberCredit(actual, expected, rule.tolerance ?? 0);
    if (rule?.scorer === "text") return textCredit(actual, expected, rule);
    switch (resolved.kind) {
      case "optional":
        return this.#credit(resolved.inner, actual, expected, path, rule);
      case "primitive":
        if (resolved.name === "float")
          return numberCredit(actual, expected, rule?.tolerance ?? defaultFloatTolerance);
        if (resolved.name === "int") return numberCredit(actual, expected, rule?.tolerance ?? 0);
        if (resolved.name === "string") return textCredit(actual, expected, rule);
        return deepEqual(actual, expected) ? 1 : 0;
      case "list":
        return this.#listCredit(resolved.item, actual, expected, path, rule);
      case "class":
        return this.#classCredit(resolved.name, actual, expected, path);
      case "map":
        return this.#mapCredit(resolved.value, actual, expected, path, rule);
      case "union":
        // The option that fits the expected value best: a union is as right as its closest reading.
        return Math.max(
          ...resolved.options.map((option) => this.#credit(option, actual, expected, path, rule)),
        );
      default:
        return deepEqual(actual, expected) ? 1 : 0;
    }
  }

  #classCredit(name: string, actual: unknown, expected: unknown, path: string): number {
    if (!isRecord(actual) || !isRecord(expected)) return 0;
    const prefix = path === "$" ? "" : `${path}.`;
    const fields = this.index
      .getClass(name)
      .fields.filter((field) => !field.skip && this.#rules[`${prefix}${field.name}`]?.scorer !== "ignore");
    if (fields.length === 0) return 1;
    let total = 0;
    for (const field of fields)
      total += this.#credit(
        field.type,
        actual[field.name],
        expected[field.name],
        `${prefix}${field.name}`,
        undefined,
      );
    return total / fields.length;
  }

  #listCredit(
    item: Type,
    actual: unknown,
    expected: unknown,
    path: string,
    rule: FieldRule | undefined,
  ): number {
    if (!Array.isArray(actual) || !Array.isArray(expected)) return 0;
    const longer = Math.max(actual.length, expected.length);
    if (longer === 0) return 1;
    // The list's own rule (a scorer, a tolerance) also applies to its items unless they have their own.
    const itemRule = rule ? { ...rule, list: undefined } : undefined;
    const itemPath = `${path}[]`;
    if (rule?.list === "set") {
      // Each expected item may be matched by one actual item, in any order; partial matches do not count.
      const unmatched = [...actual];
      let matched = 0;
      for (const wanted of expected) {
        const at = unmatched.findIndex(
          (candidate) => this.#credit(item, candidate, wanted, itemPath, itemRule) === 1,
        );
        if (at === -1) continue;
        unmatched.splice(at, 1);
        matched += 1;
      }
      return matched / longer;
    }
    let total = 0;
    for (let position = 0; position < Math.min(actual.length, expected.length); position += 1)
      total += this.#credit(item, actual[position], expected[position], itemPath, itemRule);
    return total / longer;
  }

  #mapCredit(
    value: Type,
    actual: unknown,
    expected: unknown,
    path: string,
    rule: FieldRule | undefined,
  ): number {
    if (!isRecord(actual) || !isRecord(expected)) return 0;
    const keys = new Set([...Object.keys(actual), ...Object.keys(expected)]);
    if (keys.size === 0) return 1;
    let total = 0;
    for (const key of keys)
      if (key in actual && key in expected)
        total += this.#credit(value, actual[key], expected[key], `${path}{}`, rule);
    return total / keys.size;
  }
}

function numberCredit(actual: unknown, expected: unknown, tolerance: number): number {
  if (typeof actual !== "number" || typeof expected !== "number") return 0;
  return Math.abs(actual - expected) <= tolerance ? 1 : 0;
}

function textCredit(actual: unknown, expected: unknown, rule: FieldRule | undefined): number {
  if (typeof actual !== "string" || typeof expected !== "string") return deepEqual(actual, expected) ? 1 : 0;
  const left = rule?.caseSensitive ? actual : normalizeText(actual);
  const right = rule?.caseSensitive ? expected : normalizeText(expected);
  if (left === right) return 1;
  return rule?.similarity !== undefined && textSimilarity(left, right) >= rule.similarity ? 1 : 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Structural equality of JSON values (key order ignored). */
export function deepEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (Array.isArray(left))
    return (
      Array.isArray(right) &&
      left.length === right.length &&
      left.every((item, at) => deepEqual(item, right[at]))
    );
  if (isRecord(left) && isRecord(right)) {
    const keys = Object.keys(left);
    return (
      keys.length === Object.keys(right).length &&
      keys.every((key) => key in right && deepEqual(left[key], right[key]))
    );
  }
  return false;
}

/** Every path a scoring file may name for `type` (recursive types are followed four levels deep). */
function typePaths(index: IrIndex, type: Type): Set<string> {
  const paths = new Set<string>(["$"]);
  const visit = (current: Type, path: string, depth: number): void => {
    if (depth > 4) return;
    switch (current.kind) {
      case "alias": {
        const target = index.aliases.get(current.name);
        if (target) visit(target.type, path, depth + 1);
        break;
      }
      case "optional":
        visit(current.inner, path, depth);
        break;
      case "list":
        paths.add(`${path}[]`);
        visit(current.item, `${path}[]`, depth);
        break;
      case "map":
        paths.add(`${path}{}`);
        visit(current.value, `${path}{}`, depth);
        break;
      case "union":
        for (const option of current.options) visit(option, path, depth);
        return;
      case "class":
        for (const field of index.getClass(current.name).fields) {
          const child = path === "$" ? field.name : `${path}.${field.name}`;
          paths.add(child);
          visit(field.type, child, depth + 1);
        }
        return;
      default:
        return;
    }
  };
  visit(type, "$", 0);
  return paths;
}
