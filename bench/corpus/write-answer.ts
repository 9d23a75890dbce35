/**
 * Serializes a value the way a model might write it: JSON, a JavaScript object literal (unquoted keys,
 * single quotes, trailing commas, `//` comments) or a Python literal (`True`, `None`, single quotes). The
 * corpus uses it to turn the intended value into the raw answer text of each variant.
 */
import { isJsonObject, type JsonValue } from "./json-value.js";

export interface AnswerStyle {
  /** Spaces per level; 0 writes one line with `", "` and `": "` separators. */
  indent: number;
  /** How keys are written: `"key"`, `'key'` or bare `key`. */
  keyQuote: '"' | "'" | "";
  /** The quote around string values. */
  stringQuote: '"' | "'";
  /** A comma after the last entry of every non-empty object and array. */
  trailingCommas: boolean;
  /** `True` / `False` / `None` instead of `true` / `false` / `null`. */
  python: boolean;
  /** `// text` written after the entry at that path (`a.b[0].c`); needs `indent > 0`. */
  comments?: ReadonlyMap<string, string>;
  /** Key order per object path (`""` is the root); keys not listed follow in their own order. */
  keyOrder?: (path: string, keys: string[]) => string[];
}

export const jsonStyle: AnswerStyle = {
  indent: 2,
  keyQuote: '"',
  stringQuote: '"',
  trailingCommas: false,
  python: false,
};

/** Writes `value` in `style`. */
export function writeAnswer(value: JsonValue, style: AnswerStyle): string {
  return writeValue(value, style, "", 0);
}

function writeString(text: string, quote: '"' | "'", python = false): string {
  // Python's repr() switches to double quotes when the text has an apostrophe and no double quote.
  if (python && text.includes("'") && !text.includes('"')) return JSON.stringify(text);
  if (quote === '"') return JSON.stringify(text);
  const body = text.replaceAll("\\", "\\\\").replaceAll("'", "\\'").replaceAll("\n", "\\n");
  return `'${body}'`;
}

function writeKey(key: string, style: AnswerStyle): string {
  return style.keyQuote === "" ? key : writeString(key, style.keyQuote, style.python);
}

function writeValue(value: JsonValue, style: AnswerStyle, path: string, depth: number): string {
  if (value === null) return style.python ? "None" : "null";
  if (typeof value === "boolean") return style.python ? (value ? "True" : "False") : String(value);
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return writeString(value, style.stringQuote, style.python);
  const entries: Array<[string, string]> = [];
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      const itemPath = `${path}[${index}]`;
      entries.push([itemPath, writeValue(item, style, itemPath, depth + 1)]);
    });
    return writeEntries(entries, "[", "]", style, depth);
  }
  if (!isJsonObject(value)) throw new Error("unreachable: not a JSON value");
  const keys = style.keyOrder ? style.keyOrder(path, Object.keys(value)) : Object.keys(value);
  for (const key of keys) {
    const keyPath = path === "" ? key : `${path}.${key}`;
    const written = writeValue(value[key] as JsonValue, style, keyPath, depth + 1);
    entries.push([keyPath, `${writeKey(key, style)}: ${written}`]);
  }
  return writeEntries(entries, "{", "}", style, depth);
}

function writeEntries(
  entries: Array<[string, string]>,
  open: string,
  close: string,
  style: AnswerStyle,
  depth: number,
): string {
  if (entries.length === 0) return `${open}${close}`;
  if (style.indent === 0) {
    const body = entries.map(([, text]) => text).join(", ");
    return `${open}${body}${style.trailingCommas ? "," : ""}${close}`;
  }
  const inner = " ".repeat(style.indent * (depth + 1));
  const lines = entries.map(([path, text], index) => {
    const comma = index < entries.length - 1 || style.trailingCommas ? "," : "";
    const comment = style.comments?.get(path);
    return `${inner}${text}${comma}${comment === undefined ? "" : `  // ${comment}`}`;
  });
  return `${open}\n${lines.join("\n")}\n${" ".repeat(style.indent * depth)}${close}`;
}
