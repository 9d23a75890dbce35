import { FixingParser } from "./fixing-parser.js";
import type { JsonishNode } from "./jsonish-node.js";

/**
 * The YAML subset models write, read from the lines under one key of a sections answer (`readSections`):
 * nested mappings by indentation, `- ` sequences (also at the key's own indentation, as YAML allows),
 * block scalars (`|`, `>`, with their chomping and indentation indicators), flow lists and maps, quoted
 * and plain scalars (a plain scalar over several lines folds them with spaces), `#` comments. Anchors,
 * tags, documents and complex keys are not read: a block that uses them is not this subset, and the
 * lines are read as text instead (`undefined`). A hand-written reader rather than a YAML library, so it
 * stays out of the runtime bundle and reads lines as a stream delivers them; the `yaml` package checks it
 * in the tests.
 */
export function readYamlBlock(
  lines: readonly string[],
  keyIndent: number,
  answer?: AnswerLines,
): JsonishNode | undefined {
  const reader = new YamlLines(lines, answer);
  reader.skipBlank();
  if (reader.done) return undefined;
  const first = reader.indent();
  // A sequence may sit at the key's own indentation (`items:⏎- a`); anything else is indented under it.
  if (first < keyIndent || (first === keyIndent && !isItem(reader.text()))) return undefined;
  const base = top;
  try {
    const node = reader.node(first);
    reader.skipBlank();
    return reader.done && node !== undefined ? node : undefined;
  } finally {
    gathered.length = top = base;
  }
}

/** Where a block's lines are in the answer (a flow list or map on one line then counts its offsets so). */
export interface AnswerLines {
  /** Where each line starts in the answer; -1: not known (the line is not as the answer wrote it). */
  starts: readonly number[];
  /**
   * The container the answer's own reading read whole over exactly `[start, end)` of it, if any: a flow
   * value on one line is that node, not a second parse of its text (the fixing parser reads the same text
   * the same way, with the same offsets).
   */
  root?: ((start: number, end: number) => JsonishNode | undefined) | undefined;
}

/**
 * The items and entries of the nodes being read, gathered on one shared stack (a node's own from where
 * it began) and copied out at their count once it is whole (`gatheredFrom`): an array grown by `push`
 * from empty takes room for 16, and a block of thousands of small mappings keeps each to the end of the
 * answer. (Nothing here is re-entered: a node's children are read, and gathered, inside it.) The stack's
 * top is `top`: what lies above it is written over, and cut off once a block is read (setting an
 * array's length costs more than reading a short mapping).
 */
const gathered: unknown[] = [];
let top = 0;

/** What was gathered from `base` on, taken off the stack. */
function gatheredFrom<T>(base: number): T[] {
  const taken = gathered.slice(base, top) as T[];
  top = base;
  return taken;
}

/** A node that is not this subset: what it gathered is dropped. */
function notRead(base: number): undefined {
  top = base;
  return undefined;
}

/** The block scalar header after a key (`|`, `>-`, `|2+`), else undefined. */
export function blockScalarHeader(value: string): BlockHeader | undefined {
  // (Most values are no header: the first character tells, before the expression and the trimmed copy.)
  const code = value.charCodeAt(0);
  if (value === "" || (code > 32 && code < 128 && code !== 124 /* | */ && code !== 62) /* > */)
    return undefined;
  const first = value[value.search(/\S/)];
  if (first !== "|" && first !== ">") return undefined;
  const header = /^([|>])([+-]?)([1-9]?)([+-]?)\s*(?:#.*)?$/.exec(value.trim());
  if (header === null || (header[2] !== "" && header[4] !== "")) return undefined;
  const chomp = header[2] || header[4];
  return {
    folded: header[1] === ">",
    chomping: chomp === "-" ? "strip" : chomp === "+" ? "keep" : "clip",
    indent: header[3] === "" ? undefined : Number(header[3]),
  };
}

export interface BlockHeader {
  folded: boolean;
  chomping: "strip" | "clip" | "keep";
  /** The indentation indicator: the content's indentation relative to the key's. */
  indent: number | undefined;
}

/**
 * A block scalar's text from the lines under its key (every line more indented than the key, or blank;
 * the caller stops at the first that is not): dedented, folded for `>`, its trailing line breaks chomped.
 */
export function blockScalarText(lines: readonly string[], keyIndent: number, header: BlockHeader): string {
  let contentIndent = header.indent === undefined ? undefined : keyIndent + header.indent;
  if (contentIndent === undefined) {
    const first = lines.find((line) => line.trim() !== "");
    contentIndent = first === undefined ? keyIndent + 1 : indentOf(first);
  }
  const body = new BlockText(header.folded);
  for (const line of lines) body.add(line.trim() === "" ? "" : line.slice(contentIndent));
  return body.chomped(header.chomping);
}

/**
 * A block scalar's text made from its lines one at a time (each dedented, "" for a blank one): joined
 * with line breaks, or folded for `>` (a break between two plain lines is a space; empty and
 * more-indented lines keep theirs). Empty lines at the end are held until a line follows them, so a
 * stream reads a growing block from the lines added since its last read (`copy` adds one on the side).
 */
export class BlockText {
  /** The text of the lines up to the last one not empty. */
  private text = "";
  /** Lines up to the last one not empty. */
  private kept = 0;
  /** Empty lines after it. */
  private trailing = 0;
  private previous: "none" | "plain" | "empty" | "indented" = "none";
  /** The last line folded was more indented (the break after it is kept). */
  private afterIndented = false;
  /** The last line not empty was plain (its break, folded away before a plain line, is kept before a
   * more-indented one). */
  private plainBefore = false;

  constructor(private readonly folded: boolean) {}

  add(line: string): void {
    if (line === "") {
      this.trailing++;
      return;
    }
    for (; this.trailing > 0; this.trailing--) this.step("");
    this.step(line);
  }

  /** A copy to add to without changing this one (its strings are shared: a constant cost). */
  copy(): BlockText {
    return Object.assign(new BlockText(this.folded), this);
  }

  /** The text with its trailing line breaks chomped as the header says. */
  chomped(chomping: BlockHeader["chomping"]): string {
    if (this.kept === 0) return chomping === "keep" ? "\n".repeat(this.trailing) : "";
    if (chomping === "strip") return this.text;
    if (chomping === "clip") return `${this.text}\n`;
    return `${this.text}\n${"\n".repeat(this.trailing)}`;
  }

  private step(line: string): void {
    this.kept++;
    if (!this.folded) {
      this.text += this.kept > 1 ? `\n${line}` : line;
      return;
    }
    if (line === "") {
      // The break after a more-indented line is kept, besides the empty line's own.
      this.text += this.afterIndented ? "\n\n" : "\n";
      this.afterIndented = false;
      this.previous = "empty";
    } else if (line[0] === " " || line[0] === "\t") {
      if (this.previous === "plain" || this.previous === "indented") this.text += "\n";
      else if (this.previous === "empty" && this.plainBefore) this.text += "\n";
      this.plainBefore = false;
      this.text += line;
      this.previous = "indented";
      this.afterIndented = true;
    } else {
      if (this.previous === "plain") this.text += " ";
      else if (this.previous === "indented") this.text += "\n";
      this.text += line;
      this.previous = "plain";
      this.plainBefore = true;
      this.afterIndented = false;
    }
  }
}

/** How many blanks a line starts with. */
export function indentOf(line: string): number {
  // (Spaces counted without a trimmed copy; past them, a printable ASCII character or the end settles it.)
  let at = 0;
  while (line.charCodeAt(at) === 32) at++;
  const code = line.charCodeAt(at);
  if (at === line.length || (code > 32 && code < 127)) return at;
  return line.length - line.trimStart().length;
}

/** A sequence item's line (trimmed): `- value`, or `-` alone (its value on the lines under it). */
export function isItem(text: string): boolean {
  return text === "-" || text.startsWith("- ");
}

/** `key: value` in a YAML line (the key plain or quoted), else undefined. */
export function yamlKey(text: string): { key: string; rest: string } | undefined {
  const quote = text[0];
  if (quote === '"' || quote === "'") {
    const close = quote === '"' ? /^"((?:[^"\\]|\\.)*)"\s*:(?:\s+|$)/ : /^'((?:[^']|'')*)'\s*:(?:\s+|$)/;
    const match = close.exec(text);
    if (match === null) return undefined;
    const key = quote === '"' ? (decodeDoubleQuoted(match[1]!) ?? match[1]!) : match[1]!.replace(/''/g, "'");
    return { key, rest: text.slice(match[0].length).trim() };
  }
  if (INDICATORS.includes(text[0]!) && !/^-\S/.test(text)) return undefined;
  const colon = keyColon(text);
  if (colon <= 0) return undefined;
  const key = text.slice(0, colon).trim();
  if (key === "" || key.includes(" #")) return undefined;
  // (Spaces after the colon passed before the copy: one string for the rest, not two.)
  let restAt = colon + 1;
  while (isBlankCode(text.charCodeAt(restAt))) restAt++;
  return { key, rest: text.slice(restAt).trim() };
}

/** The characters a plain key may not start with (YAML's indicators), `-` but before a non-blank. */
const INDICATORS = "-?:,[]{}#&*!|>%@`";

/** Where `text`'s first colon followed by a blank or the end is (`/:(?:\s|$)/`), else -1. */
function keyColon(text: string): number {
  for (let at = text.indexOf(":"); at >= 0; at = text.indexOf(":", at + 1)) {
    const next = text.charCodeAt(at + 1);
    if (at + 1 === text.length || next === 32 || (next >= 9 && next <= 13)) return at;
    if (next > 127 && /\s/.test(text[at + 1]!)) return at;
  }
  return -1;
}

function decodeDoubleQuoted(inner: string): string | undefined {
  try {
    // (Escapes read in pairs, so `\\'` is a backslash then a quote; YAML's `\'` is a quote, JSON's is none.)
    const json = inner.replace(/\\([\s\S])/g, (pair, escaped) => (escaped === "'" ? "'" : pair));
    return JSON.parse(`"${json.replace(/\t/g, "\\t")}"`) as string;
  } catch {
    return undefined;
  }
}

/** The core schema's null and booleans, in their three spellings. */
const NULL_WORDS = new Set(["null", "Null", "NULL", "~"]);
const BOOL_WORDS = new Map(
  ["true", "True", "TRUE", "false", "False", "FALSE"].map((word) => [
    word,
    word[0] === "t" || word[0] === "T",
  ]),
);
/** The characters `NUMBER` may start with. */
const NUMBER_START = "+-.0123456789";
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A YAML flow or one-line scalar: a flow list or map (read by the fixing parser, which takes unquoted
 * words; its nodes' offsets count from `at`, where `text` starts in the answer, so a flag on one of its
 * items points there), a quoted string (decoded; a single-quoted one's `''` is a quote), or a plain
 * scalar under the core schema (`null`, `~`, `true`, `false` in their three spellings, numbers), else text.
 */
export function yamlScalar(text: string, at = 0): JsonishNode | undefined {
  const first = text[0];
  if (first === "[" || first === "{") {
    const parser = new FixingParser(at);
    parser.push(text);
    const roots = parser.end();
    const root = roots[0];
    if (roots.length !== 1 || root === undefined || !root.node.complete) return undefined;
    if (text.slice(root.end - at).trim() !== "") return undefined;
    return root.node;
  }
  if (first === '"') {
    const match = /^"((?:[^"\\]|\\.)*)"$/.exec(text);
    const value = match ? decodeDoubleQuoted(match[1]!) : undefined;
    return value === undefined ? undefined : { kind: "string", value, complete: true };
  }
  if (first === "'") {
    const match = /^'((?:[^']|'')*)'$/.exec(text);
    return match ? { kind: "string", value: match[1]!.replace(/''/g, "'"), complete: true } : undefined;
  }
  // (Words looked up, not matched: a regular expression's test allocates; numbers only from their start.)
  if (NULL_WORDS.has(text)) return { kind: "null", complete: true };
  const bool = BOOL_WORDS.get(text);
  if (bool !== undefined) return { kind: "bool", value: bool, complete: true };
  if (NUMBER_START.includes(first!) && NUMBER.test(text))
    return { kind: "number", value: Number(text), text, complete: true };
  return { kind: "string", value: text, complete: true };
}

function isBlankCode(code: number): boolean {
  return code === 32 || code === 9;
}

/** A cursor over a block's lines; each `read…` consumes the lines of one node. */
class YamlLines {
  private at = 0;
  /** Each line trimmed, and its indentation, made once (a line is looked at several times). */
  private readonly trimmed: (string | undefined)[] = [];
  private readonly indents: number[] = [];

  constructor(
    private readonly lines: readonly string[],
    private readonly answer: AnswerLines | undefined,
  ) {}

  get done(): boolean {
    return this.at >= this.lines.length;
  }

  indent(): number {
    this.text();
    return this.indents[this.at]!;
  }

  text(): string {
    const at = this.at;
    let text = this.trimmed[at];
    if (text === undefined) {
      const line = this.lines[at]!;
      const start = line.trimStart();
      text = start.trimEnd();
      this.trimmed[at] = text;
      this.indents[at] = line.length - start.length;
    }
    return text;
  }

  /** Skip blank lines and whole-line comments. */
  skipBlank(): void {
    while (!this.done) {
      const text = this.text();
      if (text !== "" && !text.startsWith("#")) return;
      this.at++;
    }
  }

  /** The node whose first line is the current one, at indentation `indent`. */
  node(indent: number): JsonishNode | undefined {
    const text = this.text();
    if (isItem(text)) return this.sequence(indent);
    if (yamlKey(text) !== undefined) return this.mapping(indent, undefined);
    return this.plain(text, indent - 1, true);
  }

  private sequence(indent: number): JsonishNode | undefined {
    const base = top;
    for (this.skipBlank(); !this.done && this.indent() === indent && isItem(this.text()); this.skipBlank()) {
      // (The line trimmed starts with its `-`, at `indent`.)
      const line = this.text();
      let skip = 1;
      while (isBlankCode(line.charCodeAt(skip))) skip++;
      const rest = line.slice(skip).trimStart();
      let item: JsonishNode | undefined;
      if (rest === "") {
        this.at++;
        this.skipBlank();
        item =
          !this.done && this.indent() > indent ? this.node(this.indent()) : { kind: "null", complete: true };
      } else {
        const column = indent + (line.length - rest.length);
        const entry = yamlKey(rest);
        if (entry !== undefined) item = this.mapping(column, entry);
        else if (isItem(rest)) return notRead(base);
        else item = this.plain(rest, indent, false);
      }
      if (item === undefined) return notRead(base);
      gathered[top++] = item;
    }
    return { kind: "array", items: gatheredFrom(base), complete: true };
  }

  /** A mapping at `indent`; `first`: its first entry, already read from a sequence item's line. */
  private mapping(indent: number, first: { key: string; rest: string } | undefined): JsonishNode | undefined {
    const base = top;
    let entry = first;
    for (;;) {
      if (entry === undefined) {
        this.skipBlank();
        if (this.done || this.indent() !== indent) break;
        entry = yamlKey(this.text());
        if (entry === undefined) return notRead(base);
      }
      const value = this.entryValue(entry.rest, indent);
      if (value === undefined) return notRead(base);
      gathered[top++] = [entry.key, value];
      entry = undefined;
    }
    return { kind: "object", entries: gatheredFrom(base), complete: true };
  }

  /** The value of a key at `indent` whose line (the current one) has `rest` after the colon. */
  private entryValue(rest: string, indent: number): JsonishNode | undefined {
    const header = blockScalarHeader(rest);
    if (header !== undefined) {
      this.at++;
      const start = this.at;
      while (!this.done && (this.text() === "" || this.indent() > indent)) this.at++;
      return {
        kind: "string",
        value: blockScalarText(this.lines.slice(start, this.at), indent, header),
        complete: true,
      };
    }
    if (rest !== "" && !rest.startsWith("#")) return this.plain(rest, indent, false);
    this.at++;
    this.skipBlank();
    if (this.done) return { kind: "null", complete: true };
    const next = this.indent();
    if (next > indent) return this.node(next);
    if (next === indent && isItem(this.text())) return this.sequence(indent);
    return { kind: "null", complete: true };
  }

  /** `first` (on the current line) and its continuation lines (indented past `indent`), as one scalar. */
  private plain(first: string, indent: number, whole: boolean): JsonishNode | undefined {
    const line = this.at;
    this.at++;
    // (The lines after the first, gathered only when there are any: most values are one line.)
    let parts: string[] | undefined;
    while (!this.done) {
      const text = this.text();
      if (text !== "" && this.indent() <= indent) break;
      if (text === "" && !whole) {
        // A blank line inside a plain scalar is a line break; one that ends the block ends the value.
        let next = this.at + 1;
        while (next < this.lines.length && this.lines[next]!.trim() === "") next++;
        if (next >= this.lines.length || indentOf(this.lines[next]!) <= indent) break;
      }
      if (parts === undefined) parts = [first];
      parts.push(text);
      this.at++;
    }
    const quoted = first[0] === '"' || first[0] === "'";
    const flow = first[0] === "[" || first[0] === "{";
    if (flow) return parts === undefined ? this.flow(line, first) : yamlScalar(parts.join(" "));
    const folded = parts === undefined ? first : foldPlain(parts);
    return yamlScalar(quoted ? folded : withoutComment(folded));
  }

  /** The flow list or map `text`, the end of line `line` (trimmed), its offsets counted in the answer. */
  private flow(line: number, text: string): JsonishNode | undefined {
    const start = this.answer?.starts[line];
    if (start === undefined || start < 0) return yamlScalar(text);
    const at = start + this.indents[line]! + this.trimmed[line]!.length - text.length;
    return this.answer!.root?.(at, at + text.length) ?? yamlScalar(text, at);
  }
}

/** Lines of a multi-line scalar folded: a single break is a space, each blank line a line break. */
function foldPlain(parts: readonly string[]): string {
  if (parts.length === 1) return parts[0]!;
  let text = "";
  let breaks = 0;
  for (const part of parts) {
    if (part === "") {
      breaks++;
      continue;
    }
    if (text !== "") text += breaks > 0 ? "\n".repeat(breaks) : " ";
    text += part;
    breaks = 0;
  }
  return text;
}

function withoutComment(text: string): string {
  const at = text.includes("#") ? text.search(/\s#/) : -1;
  return at < 0 ? text : text.slice(0, at).trimEnd();
}
