import type { IrIndex, LlmFunction, Type } from "../ir/index.js";
import { isMediaValue } from "../util/index.js";
import { BamlInvalidArgumentError } from "./errors.js";

/**
 * Checks call arguments against the function's parameter types before anything is rendered or sent, so
 * a wrong argument fails fast with its path instead of producing a confusing prompt. Extra object keys are
 * allowed (BAML ignores them); missing optional parameters and fields are `null`.
 */
export function validateArguments(fn: LlmFunction, args: Record<string, unknown>, index: IrIndex): void {
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    throw new BamlInvalidArgumentError(`Arguments of ${fn.name} must be an object keyed by parameter name.`);
  }
  const known = new Set(fn.params.map((param) => param.name));
  for (const key of Object.keys(args)) {
    if (!known.has(key)) {
      const expected = fn.params.map((param) => param.name).join(", ") || "none";
      throw new BamlInvalidArgumentError(
        `${fn.name} has no parameter "${key}". Its parameters: ${expected}.`,
        key,
      );
    }
  }
  for (const param of fn.params) {
    const problem = check(args[param.name], param.type, index, new Set());
    if (problem) {
      const where = problem.path ? `${param.name}${problem.path}` : param.name;
      throw new BamlInvalidArgumentError(`Argument ${where} of ${fn.name}: ${problem.message}`, where);
    }
  }
}

interface Problem {
  path: string;
  message: string;
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing (the argument is missing)";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (isMediaValue(value)) return `${article(value.type)} ${value.type}`;
  if (typeof value === "string")
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === "object") return "an object";
  return `${typeof value} ${String(value)}`;
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? "an" : "a";
}

function capitalize(word: string): string {
  return `${word.slice(0, 1).toUpperCase()}${word.slice(1)}`;
}

function expect(expected: string, value: unknown): Problem {
  return { path: "", message: `expected ${expected}, got ${describe(value)}.` };
}

function nested(path: string, problem: Problem | undefined): Problem | undefined {
  return problem ? { path: `${path}${problem.path}`, message: problem.message } : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Returns the first mismatch, or `undefined` when `value` fits `type`. */
function check(value: unknown, type: Type, index: IrIndex, seen: Set<string>): Problem | undefined {
  switch (type.kind) {
    case "optional":
      return value === null || value === undefined ? undefined : check(value, type.inner, index, seen);
    case "primitive":
      switch (type.name) {
        case "string":
          return typeof value === "string" ? undefined : expect("a string", value);
        case "int":
          return Number.isInteger(value) ? undefined : expect("an integer", value);
        case "float":
          return typeof value === "number" ? undefined : expect("a number", value);
        case "bool":
          return typeof value === "boolean" ? undefined : expect("a boolean", value);
        case "null":
          return value === null || value === undefined ? undefined : expect("null", value);
      }
      return undefined;
    case "literal":
      return value === type.value ? undefined : expect(JSON.stringify(type.value), value);
    case "media":
      return isMediaValue(value) && value.type === type.name
        ? undefined
        : expect(
            `${article(type.name)} ${type.name} (${capitalize(type.name)}.fromUrl / .fromBase64)`,
            value,
          );
    case "enum": {
      const declared = index.enums.get(type.name);
      const names = declared?.values.map((item) => item.name) ?? [];
      return typeof value === "string" && names.includes(value)
        ? undefined
        : expect(`one of ${type.name}: ${names.join(", ")}`, value);
    }
    case "class": {
      if (!isRecord(value)) return expect(`a ${type.name} object`, value);
      const declared = index.getClass(type.name);
      for (const field of declared.fields) {
        if (field.skip) continue;
        const problem = nested(`.${field.name}`, check(value[field.name], field.type, index, new Set()));
        if (problem) return problem;
      }
      return undefined;
    }
    case "list": {
      if (!Array.isArray(value)) return expect("an array", value);
      for (const [position, item] of value.entries()) {
        const problem = nested(`[${position}]`, check(item, type.item, index, new Set()));
        if (problem) return problem;
      }
      return undefined;
    }
    case "map": {
      if (!isRecord(value)) return expect("an object (a map)", value);
      for (const [key, item] of Object.entries(value)) {
        const keyProblem = check(key, type.key, index, new Set());
        if (keyProblem) return { path: `[${JSON.stringify(key)}]`, message: `key ${keyProblem.message}` };
        const problem = nested(`[${JSON.stringify(key)}]`, check(item, type.value, index, new Set()));
        if (problem) return problem;
      }
      return undefined;
    }
    case "union": {
      const problems = type.options.map((option) => check(value, option, index, seen));
      if (problems.some((problem) => problem === undefined)) return undefined;
      // Report the arm that got deepest: it is most likely the one the caller meant.
      return problems.reduce((best, problem) =>
        (problem?.path.length ?? 0) > (best?.path.length ?? 0) ? problem : best,
      );
    }
    case "alias": {
      // `seen` holds the aliases entered since the last step into a list, map or class; meeting one again
      // means the alias refers to itself without structure, which no value can end.
      if (seen.has(type.name)) return expect(`a value of ${type.name}`, value);
      return check(value, index.getAlias(type.name).type, index, new Set([...seen, type.name]));
    }
  }
}
