import { isMediaValue } from "../../util/index.js";
import { JinjaError } from "./jinja-error.js";
import { isFloat, isNumeric, toNumber } from "./numbers.js";
import { Callable, ClassInstance, compareValues, EnumValue, isMap, valuesEqual } from "./values.js";

/** Jinja tests (`x is defined`, `n is divisibleby(3)`), Minijinja's set. */
export const TESTS: Record<string, (value: unknown, args: unknown[]) => boolean> = {
  defined: (value) => value !== undefined,
  undefined: (value) => value === undefined,
  none: (value) => value === null,
  true: (value) => value === true,
  false: (value) => value === false,
  boolean: (value) => typeof value === "boolean",
  string: (value) => typeof value === "string" || value instanceof EnumValue,
  number: (value) => isNumeric(value),
  integer: (value) => isNumeric(value) && !isFloat(value),
  float: (value) => isFloat(value),
  mapping: (value) => isMap(value) || value instanceof ClassInstance,
  sequence: (value) => Array.isArray(value) || typeof value === "string",
  iterable: (value) =>
    Array.isArray(value) || typeof value === "string" || isMap(value) || value instanceof ClassInstance,
  callable: (value) => value instanceof Callable,
  media: (value) => isMediaValue(value),
  odd: (value) => isNumeric(value) && Math.abs(toNumber(value) % 2) === 1,
  even: (value) => isNumeric(value) && toNumber(value) % 2 === 0,
  divisibleby: (value, args) => {
    const divisor = args[0];
    return isNumeric(value) && isNumeric(divisor) && toNumber(value) % toNumber(divisor) === 0;
  },
  eq: (value, args) => valuesEqual(value, args[0]),
  equalto: (value, args) => valuesEqual(value, args[0]),
  "==": (value, args) => valuesEqual(value, args[0]),
  ne: (value, args) => !valuesEqual(value, args[0]),
  "!=": (value, args) => !valuesEqual(value, args[0]),
  lt: (value, args) => compareValues(value, args[0]) < 0,
  "<": (value, args) => compareValues(value, args[0]) < 0,
  le: (value, args) => compareValues(value, args[0]) <= 0,
  "<=": (value, args) => compareValues(value, args[0]) <= 0,
  gt: (value, args) => compareValues(value, args[0]) > 0,
  ">": (value, args) => compareValues(value, args[0]) > 0,
  ge: (value, args) => compareValues(value, args[0]) >= 0,
  ">=": (value, args) => compareValues(value, args[0]) >= 0,
  sameas: (value, args) => value === args[0],
  lower: (value) => typeof value === "string" && value === value.toLowerCase(),
  upper: (value) => typeof value === "string" && value === value.toUpperCase(),
  startingwith: (value, args) => typeof value === "string" && value.startsWith(String(args[0])),
  endingwith: (value, args) => typeof value === "string" && value.endsWith(String(args[0])),
  containing: (value, args) => contains(value, args[0]),
  in: (value, args) => contains(args[0], value),
};

/** `needle in haystack`: substring, list membership, map key. */
export function contains(haystack: unknown, needle: unknown): boolean {
  if (typeof haystack === "string") {
    const text = needle instanceof EnumValue ? needle.value : needle;
    if (typeof text !== "string")
      throw new JinjaError("type_error", "`in` on a string needs a string.", undefined);
    return haystack.includes(text);
  }
  if (Array.isArray(haystack)) return haystack.some((item) => valuesEqual(item, needle));
  if (haystack instanceof ClassInstance) return typeof needle === "string" && haystack.fields.has(needle);
  if (isMap(haystack)) return typeof needle === "string" && Object.hasOwn(haystack, needle);
  if (haystack === undefined || haystack === null) return false;
  throw new JinjaError("type_error", "The right side of `in` must be a string, list or map.", undefined);
}
