import { isMediaValue, type MediaValue } from "../../util/index.js";
import { JinjaError } from "./jinja-error.js";
import { formatNumeric, IntegralFloat, isNumeric, toNumber } from "./numbers.js";

/**
 * Runtime values of the template engine. Plain JS data is used where it can be (`undefined` is Jinja's
 * undefined, `null` is `none`, arrays are lists, plain objects are maps); BAML-specific values are classes:
 * enum values (print their alias, compare equal to their name), class instances (print as Rust's
 * pretty debug map with field aliases, like BAML) and callables (macros, `ctx.output_format`, `_.role`).
 */
export class EnumValue {
  constructor(
    readonly enumName: string,
    readonly value: string,
    readonly alias: string | undefined,
  ) {}
}

/** An enum declaration exposed as a global (`Category.REFUND`). */
export class EnumType {
  constructor(
    readonly name: string,
    readonly values: ReadonlyMap<string, EnumValue>,
  ) {}
}

export class ClassInstance {
  constructor(
    readonly className: string,
    /** Field values by declared name (templates read `resume.name`, never the alias). */
    readonly fields: Map<string, unknown>,
    /** Declared name → alias, for printing. */
    readonly aliases: ReadonlyMap<string, string>,
  ) {}
}

export type CallArguments = { args: unknown[]; kwargs: Record<string, unknown> };

export class Callable {
  constructor(
    readonly name: string,
    readonly invoke: (call: CallArguments) => unknown,
    /** How the value prints when not called (`{{ ctx.output_format }}`); otherwise it is an error to print. */
    readonly display?: () => string,
  ) {}
}

export type MediaToken = (media: MediaValue) => string;

export function isMap(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  if (isMediaValue(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

export function typeName(value: unknown): string {
  if (value === undefined) return "undefined";
  if (value === null) return "none";
  if (Array.isArray(value)) return "list";
  if (value instanceof EnumValue) return `enum value ${value.enumName}.${value.value}`;
  if (value instanceof ClassInstance) return `${value.className} instance`;
  if (value instanceof Callable) return "callable";
  if (value instanceof EnumType) return `enum ${value.name}`;
  if (isMediaValue(value)) return value.type;
  if (isMap(value)) return "map";
  if (value instanceof IntegralFloat) return "float";
  return typeof value === "number" ? (Number.isInteger(value) ? "int" : "float") : typeof value;
}

export function isTruthy(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === "boolean") return value;
  if (isNumeric(value)) return toNumber(value) !== 0;
  if (typeof value === "string") return value.length > 0;
  if (Array.isArray(value)) return value.length > 0;
  if (isMap(value)) return Object.keys(value).length > 0;
  return true;
}

const bamlLists = new WeakSet<object>();

/** Marks a list that came from a BAML argument: its `none` items print `null`, as BAML's list type does. */
export function markBamlList<T extends unknown[]>(list: T): T {
  bamlLists.add(list);
  return list;
}

/** What `{{ value }}` prints: BAML's formatter turns a top-level `none` into `null`. */
export function displayValue(value: unknown, media: MediaToken): string {
  if (value === null) return "null";
  return stringValue(value, media);
}

/** Jinja's string form (`~`, `| string`, `join`): `none` is `none`, undefined is empty, containers debug-print. */
export function stringValue(value: unknown, media: MediaToken): string {
  if (value === undefined) return "";
  if (value === null) return "none";
  if (typeof value === "string") return value;
  if (value instanceof Callable) {
    if (value.display) return value.display();
    throw new JinjaError("type_error", `\`${value.name}\` is a function: call it with \`()\`.`, undefined);
  }
  return debugValue(value, false, 0, media, "none");
}

/**
 * Rust's `{:?}` / `{:#?}` output as BAML produces it: strings quoted, enum values bare, class instances
 * always in the multi-line form (4-space indentation, trailing commas). `none` prints `null` inside class
 * instances and argument lists (BAML's own types) and `none` inside plain Jinja lists and maps.
 */
export function debugValue(
  value: unknown,
  pretty: boolean,
  indent: number,
  media: MediaToken,
  nullWord: "null" | "none",
): string {
  if (value === undefined) return "undefined";
  if (value === null) return nullWord;
  if (typeof value === "string") return JSON.stringify(value);
  if (isNumeric(value)) return formatNumeric(value);
  if (typeof value === "boolean") return String(value);
  if (value instanceof EnumValue) return value.alias ?? value.value;
  if (value instanceof Callable) return value.display ? value.display() : `<function ${value.name}>`;
  if (value instanceof EnumType) return value.name;
  if (isMediaValue(value)) return media(value);
  if (value instanceof ClassInstance) {
    const entries: [string, unknown][] = [...value.fields].map(([name, field]) => [
      value.aliases.get(name) ?? name,
      field,
    ]);
    return debugEntries(entries, "{", "}", {
      pretty: true,
      indent: pretty ? indent : 0,
      media,
      nullWord: "null",
      keyed: true,
    });
  }
  if (Array.isArray(value)) {
    const nested = bamlLists.has(value) ? "null" : "none";
    const entries: [undefined, unknown][] = value.map((item) => [undefined, item]);
    return debugEntries(entries, "[", "]", { pretty, indent, media, nullWord: nested, keyed: false });
  }
  if (isMap(value)) {
    return debugEntries(Object.entries(value), "{", "}", {
      pretty,
      indent,
      media,
      nullWord: "none",
      keyed: true,
    });
  }
  return String(value);
}

interface EntryStyle {
  pretty: boolean;
  indent: number;
  media: MediaToken;
  nullWord: "null" | "none";
  keyed: boolean;
}

function debugEntries(
  entries: [string | undefined, unknown][],
  open: string,
  close: string,
  style: EntryStyle,
): string {
  if (entries.length === 0) return `${open}${close}`;
  const render = (key: string | undefined, item: unknown, depth: number): string => {
    const text = debugValue(item, style.pretty, depth, style.media, style.nullWord);
    return style.keyed ? `${JSON.stringify(key)}: ${text}` : text;
  };
  if (!style.pretty) return `${open}${entries.map(([key, item]) => render(key, item, 0)).join(", ")}${close}`;
  const pad = "    ".repeat(style.indent + 1);
  const lines = entries.map(([key, item]) => `${pad}${render(key, item, style.indent + 1)},`);
  return `${open}\n${lines.join("\n")}\n${"    ".repeat(style.indent)}${close}`;
}

/**
 * Minijinja's `tojson`: floats keep their `.0`, class instances use field aliases, BAML enum values
 * serialize as `{}` (a quirk of BAML 0.226.2, kept so prompts render the same), and `<`, `>`, `&`, `'` are
 * escaped so the JSON is safe inside HTML.
 */
export function toJsonText(value: unknown, indent?: number): string {
  const write = (item: unknown, depth: number): string => {
    if (item === null || item === undefined) return "null";
    if (typeof item === "string") return JSON.stringify(item);
    if (isNumeric(item)) return formatNumeric(item);
    if (typeof item === "boolean") return String(item);
    if (
      item instanceof EnumValue ||
      item instanceof EnumType ||
      item instanceof Callable ||
      isMediaValue(item)
    )
      return "{}";
    let entries: [string | undefined, unknown][];
    let brackets: [string, string];
    if (Array.isArray(item)) {
      entries = item.map((element) => [undefined, element]);
      brackets = ["[", "]"];
    } else if (item instanceof ClassInstance) {
      entries = [...item.fields].map(([name, field]) => [item.aliases.get(name) ?? name, field]);
      brackets = ["{", "}"];
    } else if (isMap(item)) {
      entries = Object.entries(item);
      brackets = ["{", "}"];
    } else {
      return "null";
    }
    if (entries.length === 0) return brackets.join("");
    const parts = entries.map(([key, element]) => {
      const text = write(element, depth + 1);
      return key === undefined ? text : `${JSON.stringify(key)}:${indent === undefined ? "" : " "}${text}`;
    });
    if (indent === undefined) return `${brackets[0]}${parts.join(",")}${brackets[1]}`;
    const pad = " ".repeat(indent * (depth + 1));
    return `${brackets[0]}\n${parts.map((part) => pad + part).join(",\n")}\n${" ".repeat(indent * depth)}${brackets[1]}`;
  };
  return write(value, 0).replace(
    /[<>&']/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** Jinja equality: enum values equal their declared name; containers compare deeply. */
export function valuesEqual(left: unknown, right: unknown): boolean {
  if (left instanceof EnumValue || right instanceof EnumValue) {
    if (left instanceof EnumValue && right instanceof EnumValue)
      return left.value === right.value && left.alias === right.alias;
    const other = left instanceof EnumValue ? right : left;
    const enumValue = (left instanceof EnumValue ? left : right) as EnumValue;
    return typeof other === "string" && other === enumValue.value;
  }
  if (isNumeric(left) && isNumeric(right)) return toNumber(left) === toNumber(right);
  if (left === right) return true;
  if (left === undefined || right === undefined || left === null || right === null) return false;
  if (Array.isArray(left) && Array.isArray(right))
    return left.length === right.length && left.every((item, index) => valuesEqual(item, right[index]));
  if (left instanceof ClassInstance && right instanceof ClassInstance)
    return (
      left.className === right.className &&
      valuesEqual(Object.fromEntries(left.fields), Object.fromEntries(right.fields))
    );
  if (isMap(left) && isMap(right)) {
    const keys = Object.keys(left);
    return (
      keys.length === Object.keys(right).length && keys.every((key) => valuesEqual(left[key], right[key]))
    );
  }
  return false;
}

/** Ordering for `<`, `sort`, `min`/`max`: numbers with numbers, strings (and enum names) with strings. */
export function compareValues(left: unknown, right: unknown): number {
  const a = left instanceof EnumValue ? left.value : isNumeric(left) ? toNumber(left) : left;
  const b = right instanceof EnumValue ? right.value : isNumeric(right) ? toNumber(right) : right;
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let index = 0; index < Math.min(a.length, b.length); index++) {
      const order = compareValues(a[index], b[index]);
      if (order !== 0) return order;
    }
    return a.length - b.length;
  }
  throw new JinjaError("type_error", `Cannot compare ${typeName(left)} with ${typeName(right)}.`, undefined);
}

/** The items a `for` loop (or a filter) walks: list items, map keys, string characters. */
export function iterate(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === "string") return [...value];
  if (value instanceof ClassInstance) return [...value.fields.keys()];
  if (isMap(value)) return Object.keys(value);
  if (value === undefined) return [];
  throw new JinjaError("type_error", `Cannot iterate over ${typeName(value)}.`, undefined);
}

/** Plain data for `tojson` / `format`: class instances use aliases, enum values their alias. */
export function toPlainData(value: unknown): unknown {
  if (value instanceof EnumValue) return value.alias ?? value.value;
  if (value instanceof ClassInstance) {
    const result: Record<string, unknown> = {};
    for (const [name, field] of value.fields) result[value.aliases.get(name) ?? name] = toPlainData(field);
    return result;
  }
  if (Array.isArray(value)) return value.map(toPlainData);
  if (isMap(value))
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toPlainData(item)]));
  if (value === undefined) return null;
  if (isNumeric(value)) return toNumber(value);
  return value;
}
