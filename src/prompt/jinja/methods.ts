import { JinjaError } from "./jinja-error.js";
import { isNumeric, toNumber } from "./numbers.js";
import { ownEntry } from "./template-limits.js";
import { type CallArguments, Callable, ClassInstance, isMap, stringValue, valuesEqual } from "./values.js";

/**
 * Python-compatible methods on strings, lists and maps (Minijinja's `pycompat`, which BAML enables):
 * `name.upper()`, `text.split(",")`, `"{} of {}".format(a, b)`, `item.get("key", default)`.
 */
export function findMethod(target: unknown, name: string): Callable | undefined {
  if (typeof target === "string") {
    const method = ownEntry(STRING_METHODS, name);
    return method ? new Callable(name, (call) => method(target, call)) : undefined;
  }
  if (Array.isArray(target)) {
    const method = ownEntry(LIST_METHODS, name);
    return method ? new Callable(name, (call) => method(target, call)) : undefined;
  }
  if (isMap(target) || target instanceof ClassInstance) {
    const entries = target instanceof ClassInstance ? Object.fromEntries(target.fields) : target;
    const method = ownEntry(MAP_METHODS, name);
    return method ? new Callable(name, (call) => method(entries, call)) : undefined;
  }
  return undefined;
}

type Method<T> = (target: T, call: CallArguments) => unknown;

const noMedia = (): string => "";

function stringArgument(call: CallArguments, index: number, fallback?: string): string | undefined {
  const value = call.args[index];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "string") throw new JinjaError("type_error", "Expected a string argument.", undefined);
  return value;
}

function stripChars(text: string, chars: string | undefined, side: "both" | "start" | "end"): string {
  if (chars === undefined) {
    if (side === "start") return text.trimStart();
    if (side === "end") return text.trimEnd();
    return text.trim();
  }
  let start = 0;
  let end = text.length;
  if (side !== "end") while (start < end && chars.includes(text[start] ?? "")) start++;
  if (side !== "start") while (end > start && chars.includes(text[end - 1] ?? "")) end--;
  return text.slice(start, end);
}

const STRING_METHODS: Record<string, Method<string>> = {
  upper: (text) => text.toUpperCase(),
  lower: (text) => text.toLowerCase(),
  strip: (text, call) => stripChars(text, stringArgument(call, 0), "both"),
  lstrip: (text, call) => stripChars(text, stringArgument(call, 0), "start"),
  rstrip: (text, call) => stripChars(text, stringArgument(call, 0), "end"),
  title: (text) =>
    text
      .toLowerCase()
      .replace(/(^|[^A-Za-z0-9])([a-z])/g, (_, before, letter) => before + letter.toUpperCase()),
  capitalize: (text) => text.charAt(0).toUpperCase() + text.slice(1).toLowerCase(),
  startswith: (text, call) => text.startsWith(stringArgument(call, 0) ?? ""),
  endswith: (text, call) => text.endsWith(stringArgument(call, 0) ?? ""),
  replace: (text, call) => {
    const count = isNumeric(call.args[2]) ? toNumber(call.args[2]) : -1;
    let result = text;
    let remaining = count;
    const from = stringArgument(call, 0) ?? "";
    const to = stringArgument(call, 1) ?? "";
    if (remaining < 0) return result.split(from).join(to);
    let position = 0;
    while (remaining-- > 0) {
      const found = result.indexOf(from, position);
      if (found === -1) break;
      result = result.slice(0, found) + to + result.slice(found + from.length);
      position = found + to.length;
    }
    return result;
  },
  split: (text, call) => {
    const separator = stringArgument(call, 0);
    const limit = isNumeric(call.args[1]) ? toNumber(call.args[1]) : -1;
    const parts = separator === undefined ? text.trim().split(/\s+/).filter(Boolean) : text.split(separator);
    if (limit < 0 || parts.length <= limit + 1) return parts;
    return [...parts.slice(0, limit), parts.slice(limit).join(separator ?? " ")];
  },
  splitlines: (text) =>
    text.split(/\r?\n/).filter((line, index, all) => index < all.length - 1 || line !== ""),
  find: (text, call) => text.indexOf(stringArgument(call, 0) ?? ""),
  count: (text, call) => {
    const needle = stringArgument(call, 0) ?? "";
    return needle === "" ? text.length + 1 : text.split(needle).length - 1;
  },
  join: (text, call) => {
    const items = call.args[0];
    if (!Array.isArray(items)) throw new JinjaError("type_error", "join() expects a list.", undefined);
    return items.map((item) => stringValue(item, noMedia)).join(text);
  },
  isdigit: (text) => /^\d+$/.test(text),
  isalpha: (text) => /^\p{L}+$/u.test(text),
  isalnum: (text) => /^[\p{L}\d]+$/u.test(text),
  isupper: (text) => /\p{Lu}/u.test(text) && text === text.toUpperCase(),
  islower: (text) => /\p{Ll}/u.test(text) && text === text.toLowerCase(),
  isspace: (text) => /^\s+$/.test(text),
  zfill: (text, call) => text.padStart(isNumeric(call.args[0]) ? toNumber(call.args[0]) : 0, "0"),
  format: (text, call) => {
    let automatic = 0;
    return text.replace(/\{(\w*)\}/g, (_, key: string) => {
      const value =
        key === "" ? call.args[automatic++] : /^\d+$/.test(key) ? call.args[Number(key)] : call.kwargs[key];
      return stringValue(value, noMedia);
    });
  },
};

const LIST_METHODS: Record<string, Method<unknown[]>> = {
  count: (list, call) => list.filter((item) => valuesEqual(item, call.args[0])).length,
  index: (list, call) => {
    const found = list.findIndex((item) => valuesEqual(item, call.args[0]));
    if (found === -1) throw new JinjaError("type_error", "index(): value is not in the list.", undefined);
    return found;
  },
};

const MAP_METHODS: Record<string, Method<Record<string, unknown>>> = {
  items: (map) => Object.entries(map),
  keys: (map) => Object.keys(map),
  values: (map) => Object.values(map),
  get: (map, call) => {
    const key = call.args[0];
    if (typeof key === "string" && Object.hasOwn(map, key)) return map[key];
    return call.args[1] ?? null;
  },
};
