import { isMediaValue, type MediaValue } from "../../util/index.js";
import { JinjaError } from "./jinja-error.js";

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
  return typeof value === "number" ? (Number.isInteger(value) ? "int" : "float") : typeof value;
}

export function isTruthy(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  if (typeof value === "string") return value.length > 0;
  if (Array.isArray(value)) return value.length > 0;
  if (isMap(value)) return Object.keys(value).length > 0;
  return true;
}

export function formatNumber(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  return String(value);
}

/** How a value prints in `{{ … }}`: `none` as `null`, lists and maps in their debug form. */
export function displayValue(value: unknown, media: MediaToken): string {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  if (value instanceof Callable) {
    if (value.display) return value.display();
    throw new JinjaError("type_error", `\`${value.name}\` is a function: call it with \`()\`.`, undefined);
  }
  return debugValue(value, false, 0, media);
}

/**
 * Rust's `{:?}` / `{:#?}` output as BAML produces it: strings quoted, `none` as `null`, enum values bare,
 * class instances always in the multi-line form with 4-space indentation and trailing commas.
 */
export function debugValue(value: unknown, pretty: boolean, indent: number, media: MediaToken): string {
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") return formatNumber(value);
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
    return debugEntries(entries, "{", "}", true, pretty ? indent : 0, media, true);
  }
  if (Array.isArray(value)) {
    return debugEntries(
      value.map((item) => [undefined, item]),
      "[",
      "]",
      pretty,
      indent,
      media,
      false,
    );
  }
  if (isMap(value)) return debugEntries(Object.entries(value), "{", "}", pretty, indent, media, true);
  return String(value);
}

function debugEntries(
  entries: [string | undefined, unknown][],
  open: string,
  close: string,
  pretty: boolean,
  indent: number,
  media: MediaToken,
  keyed: boolean,
): string {
  if (entries.length === 0) return `${open}${close}`;
  const render = (key: string | undefined, item: unknown, depth: number): string => {
    const text = debugValue(item, pretty, depth, media);
    return keyed ? `${JSON.stringify(key)}: ${text}` : text;
  };
  if (!pretty) return `${open}${entries.map(([key, item]) => render(key, item, 0)).join(", ")}${close}`;
  const pad = "    ".repeat(indent + 1);
  const lines = entries.map(([key, item]) => `${pad}${render(key, item, indent + 1)},`);
  return `${open}\n${lines.join("\n")}\n${"    ".repeat(indent)}${close}`;
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
  const a = left instanceof EnumValue ? left.value : left;
  const b = right instanceof EnumValue ? right.value : right;
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
  return value;
}
