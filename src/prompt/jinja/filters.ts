import { JinjaError } from "./jinja-error.js";
import { LinearRegex, RegexPatternError } from "./linear-regex.js";
import { float, isFloat, isNumeric, type Numeric, toNumber } from "./numbers.js";
import { ownEntry } from "./template-limits.js";
import { TESTS } from "./tests.js";
import { toYaml } from "./to-yaml.js";
import {
  type CallArguments,
  ClassInstance,
  compareValues,
  EnumValue,
  isMap,
  isTruthy,
  iterate,
  type MediaToken,
  stringValue,
  toJsonText,
  toPlainData,
  typeName,
} from "./values.js";

export interface FilterEnvironment {
  media: MediaToken;
  /** `a.b` lookup as the template would do it, for `map(attribute=…)`, `sort(attribute=…)`. */
  getAttribute: (value: unknown, name: string) => unknown;
}

export type Filter = (value: unknown, call: CallArguments, environment: FilterEnvironment) => unknown;

function argument(call: CallArguments, index: number, name: string): unknown {
  return call.args[index] ?? call.kwargs[name];
}

function attributePath(environment: FilterEnvironment, value: unknown, path: unknown): unknown {
  if (typeof path !== "string") return value;
  return path.split(".").reduce((current, part) => environment.getAttribute(current, part), value);
}

function list(value: unknown): unknown[] {
  return iterate(value);
}

function selectBy(reject: boolean, byAttribute: boolean): Filter {
  return (value, call, environment) => {
    const [first, testName, ...rest] = call.args;
    const attribute = byAttribute ? first : undefined;
    const name = byAttribute ? testName : first;
    const extra = byAttribute ? rest : call.args.slice(1);
    const test = typeof name === "string" ? ownEntry(TESTS, name) : undefined;
    if (name !== undefined && !test)
      throw new JinjaError("unknown_filter", `Unknown test \`${String(name)}\`.`, undefined);
    return list(value).filter((item) => {
      const subject = byAttribute ? attributePath(environment, item, attribute) : item;
      const passed = test ? test(subject, extra) : isTruthy(subject);
      return reject ? !passed : passed;
    });
  };
}

function roundNumber(value: number, precision: number, method: string): number {
  const factor = 10 ** precision;
  if (method === "ceil") return Math.ceil(value * factor) / factor;
  if (method === "floor") return Math.floor(value * factor) / factor;
  return Math.round(value * factor) / factor;
}

/** Minijinja's built-in filters plus the ones BAML adds (`regex_match`, `sum`, `format(type=…)`). */
export const FILTERS: Record<string, Filter> = {
  abs: (value) => (isFloat(value) ? float(Math.abs(Number(value))) : Math.abs(Number(value))),
  attr: (value, call, environment) => environment.getAttribute(value, String(call.args[0])),
  batch: (value, call) => {
    const size = Number(call.args[0]);
    const items = list(value);
    const batches: unknown[][] = [];
    for (let index = 0; index < items.length; index += size) batches.push(items.slice(index, index + size));
    const fill = call.args[1];
    const last = batches[batches.length - 1];
    if (fill !== undefined && last) while (last.length < size) last.push(fill);
    return batches;
  },
  bool: (value) => isTruthy(value),
  capitalize: (value) => {
    const text = stringValue(value, () => "");
    return text.charAt(0).toUpperCase() + text.slice(1).toLowerCase();
  },
  count: (value) => list(value).length,
  default: (value, call) => {
    const fallback = argument(call, 0, "default_value") ?? "";
    const boolean = argument(call, 1, "boolean") === true;
    return value === undefined || (boolean && !isTruthy(value)) ? fallback : value;
  },
  dictsort: (value, call) => {
    if (!isMap(value)) throw new JinjaError("type_error", "dictsort expects a map.", undefined);
    const byValue = call.kwargs.by === "value";
    const entries = Object.entries(value).sort((a, b) =>
      compareValues(byValue ? a[1] : a[0], byValue ? b[1] : b[0]),
    );
    return call.kwargs.reverse === true ? entries.reverse() : entries;
  },
  escape: (value) => stringValue(value, () => "").replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`),
  first: (value) => list(value)[0],
  float: (value, call) => {
    const number = isNumeric(value)
      ? toNumber(value)
      : Number.parseFloat(String(value instanceof EnumValue ? value.value : value));
    return Number.isNaN(number) ? (argument(call, 0, "default") ?? float(0)) : float(number);
  },
  format: (value, call) => {
    const type = call.kwargs.type;
    // serde_json::to_string: compact, like BAML.
    if (type === "json") return JSON.stringify(toPlainData(value));
    if (type === "yaml") return toYaml(toPlainData(value));
    if (typeof value === "string" && type === undefined) {
      let index = 0;
      return value.replace(/%[sd]/g, () => stringValue(call.args[index++], () => ""));
    }
    throw new JinjaError(
      "invalid_call",
      `format() supports type="json" or type="yaml", not ${JSON.stringify(type)}.`,
      undefined,
    );
  },
  indent: (value, call) => {
    const width = argument(call, 0, "width") ?? 4;
    const pad = typeof width === "string" ? width : " ".repeat(Number(width));
    const first = argument(call, 1, "first") === true;
    const blank = argument(call, 2, "blank") === true;
    const lines = stringValue(value, () => "").split("\n");
    return lines
      .map((line, index) => ((index === 0 && !first) || (line === "" && !blank) ? line : pad + line))
      .join("\n");
  },
  int: (value, call) => {
    const source = value instanceof EnumValue ? value.value : value;
    const number = isNumeric(source) ? toNumber(source) : Number.parseFloat(String(source));
    return Number.isNaN(number) ? (argument(call, 0, "default") ?? 0) : Math.trunc(number);
  },
  items: (value) => {
    if (value instanceof ClassInstance) return [...value.fields];
    if (!isMap(value))
      throw new JinjaError("type_error", `items expects a map, not ${typeName(value)}.`, undefined);
    return Object.entries(value);
  },
  join: (value, call, environment) => {
    const separator = argument(call, 0, "d") ?? "";
    const attribute = argument(call, 1, "attribute");
    return list(value)
      .map((item) => stringValue(attributePath(environment, item, attribute), environment.media))
      .join(String(separator));
  },
  last: (value) => {
    const items = list(value);
    return items[items.length - 1];
  },
  length: (value) => (value instanceof ClassInstance ? value.fields.size : list(value).length),
  list: (value) => [...list(value)],
  lower: (value) => stringValue(value, () => "").toLowerCase(),
  map: (value, call, environment) => {
    const attribute = call.kwargs.attribute;
    if (attribute !== undefined)
      return list(value).map((item) => attributePath(environment, item, attribute) ?? call.kwargs.default);
    const name = call.args[0];
    const filter = typeof name === "string" ? ownEntry(FILTERS, name) : undefined;
    if (!filter)
      throw new JinjaError("unknown_filter", `map(): unknown filter ${JSON.stringify(name)}.`, undefined);
    const rest = { args: call.args.slice(1), kwargs: call.kwargs };
    return list(value).map((item) => filter(item, rest, environment));
  },
  max: (value, call, environment) => {
    const items = list(value);
    const key = (item: unknown): unknown => attributePath(environment, item, call.kwargs.attribute);
    return items.reduce(
      (best, item) => (best === undefined || compareValues(key(item), key(best)) > 0 ? item : best),
      undefined,
    );
  },
  min: (value, call, environment) => {
    const items = list(value);
    const key = (item: unknown): unknown => attributePath(environment, item, call.kwargs.attribute);
    return items.reduce(
      (best, item) => (best === undefined || compareValues(key(item), key(best)) < 0 ? item : best),
      undefined,
    );
  },
  regex_match: (value, call) => {
    const pattern = argument(call, 0, "regex");
    if (typeof pattern !== "string")
      throw new JinjaError("invalid_call", "regex_match needs a pattern string.", undefined);
    const text = value instanceof EnumValue ? value.value : value;
    if (typeof text !== "string") return false;
    // Like Rust's `Regex::is_match`: a match anywhere; anchor with ^…$ for a full match. Linear in the
    // text whatever the pattern (linear-regex.ts), since the text is often the model's answer.
    return compiledPattern(pattern).test(text);
  },
  reject: selectBy(true, false),
  rejectattr: selectBy(true, true),
  replace: (value, call) => {
    const text = stringValue(value, () => "");
    const from = String(call.args[0] ?? "");
    const to = String(call.args[1] ?? "");
    return from === "" ? text : text.split(from).join(to);
  },
  reverse: (value) =>
    typeof value === "string" ? [...value].reverse().join("") : [...list(value)].reverse(),
  round: (value, call) => {
    const precision = Number(argument(call, 0, "precision") ?? 0);
    return float(roundNumber(Number(value), precision, String(argument(call, 1, "method") ?? "common")));
  },
  safe: (value) => value,
  select: selectBy(false, false),
  selectattr: selectBy(false, true),
  slice: (value, call) => {
    const count = Number(call.args[0]);
    const items = list(value);
    const size = Math.ceil(items.length / count);
    return Array.from({ length: count }, (_, index) => items.slice(index * size, (index + 1) * size));
  },
  sort: (value, call, environment) => {
    const key = (item: unknown): unknown => {
      const selected = attributePath(environment, item, call.kwargs.attribute);
      return typeof selected === "string" && call.kwargs.case_sensitive !== true
        ? selected.toLowerCase()
        : selected;
    };
    const sorted = [...list(value)].sort((a, b) => compareValues(key(a), key(b)));
    return argument(call, 0, "reverse") === true || call.kwargs.reverse === true ? sorted.reverse() : sorted;
  },
  split: (value, call) => {
    const text = stringValue(value, () => "");
    const separator = call.args[0];
    return typeof separator === "string" ? text.split(separator) : text.trim().split(/\s+/).filter(Boolean);
  },
  string: (value, _call, environment) => stringValue(value, environment.media),
  sum: (value, call, environment) => {
    const items = list(value).map((item) => attributePath(environment, item, call.kwargs.attribute));
    const start = call.kwargs.start ?? 0;
    const total = items.reduce<number>((sum, item) => sum + Number(item), Number(start));
    // BAML's sum is an int when every item is integral (even `1.0`), a float otherwise.
    const integral = [start, ...items].every(
      (item) => isNumeric(item) && Number.isInteger(toNumber(item as Numeric)),
    );
    return integral ? total : float(total);
  },
  title: (value) =>
    stringValue(value, () => "")
      .toLowerCase()
      .replace(
        /(^|[^\p{L}\d])(\p{Ll})/gu,
        (_, before: string, letter: string) => before + letter.toUpperCase(),
      ),
  tojson: (value, call) => {
    const indent = argument(call, 0, "indent");
    return toJsonText(value, isNumeric(indent) ? toNumber(indent) : undefined);
  },
  trim: (value, call) => {
    const text = stringValue(value, () => "");
    const chars = call.args[0];
    if (typeof chars !== "string") return text.trim();
    let start = 0;
    let end = text.length;
    while (start < end && chars.includes(text[start] ?? "")) start++;
    while (end > start && chars.includes(text[end - 1] ?? "")) end--;
    return text.slice(start, end);
  },
  unique: (value) => {
    const seen: unknown[] = [];
    for (const item of list(value)) if (!seen.some((other) => other === item)) seen.push(item);
    return seen;
  },
  upper: (value) => stringValue(value, () => "").toUpperCase(),
  wordcount: (value) =>
    stringValue(value, () => "")
      .split(/\s+/)
      .filter(Boolean).length,
};
FILTERS.d = FILTERS.default as Filter;
FILTERS.e = FILTERS.escape as Filter;

/** Compiled patterns, most recently used last: an `@assert` runs the same pattern on every value. */
const compiledPatterns = new Map<string, LinearRegex>();

function compiledPattern(pattern: string): LinearRegex {
  const cached = compiledPatterns.get(pattern);
  if (cached) {
    compiledPatterns.delete(pattern);
    compiledPatterns.set(pattern, cached);
    return cached;
  }
  let compiled: LinearRegex;
  try {
    compiled = LinearRegex.compile(pattern);
  } catch (error) {
    if (!(error instanceof RegexPatternError)) throw error;
    throw new JinjaError(
      "invalid_pattern",
      `regex_match(${JSON.stringify(pattern)}): ${error.message} (at character ${error.offset} of the pattern)`,
      undefined,
    );
  }
  compiledPatterns.set(pattern, compiled);
  if (compiledPatterns.size > 64) compiledPatterns.delete(compiledPatterns.keys().next().value as string);
  return compiled;
}
