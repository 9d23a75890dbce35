/**
 * The fixing parser: a single-pass, resumable state machine that reads almost-JSON the way a careful human
 * would, repairing as it goes. It is long on purpose — it is one state machine, and splitting its states
 * across files would hide the transitions from each other.
 *
 * Design (why it looks like this):
 * - **No recursion.** Open constructs live on an explicit `stack` of frames (object, array, string,
 *   unquoted token, comment), so 100,000-deep nesting costs heap, not call stack.
 * - **Resumable.** `push(chunk)` appends text and runs until the input is exhausted or a decision needs
 *   characters that have not arrived yet (the look-ahead after a quote, a `\u` escape cut in half, a `/`
 *   that may start a comment); then it stops and keeps only the unread tail. The next `push` resumes at
 *   that exact point, so a whole stream costs work linear in its length (a look-ahead that waits re-reads
 *   at most its own short window). `end()` declares the input finished: waiting decisions resolve as at end
 *   of input, open strings and containers close and are marked incomplete.
 * - **Live tree.** Containers and quoted values are attached to their parent when they open and grow in
 *   place, so a streaming reader can look at `roots` between chunks and see everything read so far.
 * - **Prose mode at the top.** Outside any value the parser skips text until `{` or `[`; every top-level
 *   container becomes one root, with its source span and the list of repairs made inside it.
 *
 * Each repair is a short branch with a comment naming it (jsonrepair style) and is recorded by name.
 */
import type { ArrayNode, JsonishNode, ObjectNode, StringNode } from "./jsonish-node.js";

/** One top-level container found in the text. */
export interface ParsedRoot {
  node: ObjectNode | ArrayNode;
  /** Offset of the opening bracket in the whole input. */
  start: number;
  /** Offset just after the closing bracket (or the end of input when it never closed). */
  end: number;
  /** Names of the repairs made inside this root, in the order first seen (empty for valid JSON). */
  repairs: string[];
}

type Role = "key" | "value" | "item";

interface ObjectFrame {
  kind: "object";
  node: ObjectNode;
  state: "key" | "colon" | "value" | "afterValue";
  key: string | undefined;
  afterComma: boolean;
}
interface ArrayFrame {
  kind: "array";
  node: ArrayNode;
  state: "value" | "afterValue";
  afterComma: boolean;
}
interface StringFrame {
  kind: "string";
  role: Role;
  /** Characters that may close this string (a smart quote may be closed by either of its pair). */
  closers: string;
  /** The node being filled, for values; keys collect into `text` until they close. */
  node: StringNode | undefined;
  text: string;
  /** A Python `"""…"""` string: closes only at three quotes, no look-ahead. */
  triple: boolean;
  /** Opened by `"` as a value and nothing read yet: two more quotes make it `"""`. */
  maybeTriple: boolean;
  /** Nothing read yet (a line break right after `"""` is dropped). */
  fresh: boolean;
}
interface UnquotedFrame {
  kind: "unquoted";
  role: Role;
  text: string;
  /** Whitespace seen since the last word character. */
  pendingSpace: boolean;
  /** Whether the token has had a word followed by whitespace (checked once, for `[1 2 3]`). */
  spaced: boolean;
}
interface CommentFrame {
  kind: "comment";
  block: boolean;
}
/** Content nested deeper than `MAX_NESTING`: brackets are counted, nothing is built. */
interface SkipFrame {
  kind: "skip";
  depth: number;
}
type Frame = ObjectFrame | ArrayFrame | StringFrame | UnquotedFrame | CommentFrame | SkipFrame;

/**
 * Containers nested deeper than this are not built: no schema goes near it, the coercer gives up far
 * earlier (`MAX_DEPTH`), and building very deep object chains makes the JavaScript garbage collector
 * superlinear. The container at the limit stays in the tree, empty and incomplete.
 */
export const MAX_NESTING = 2000;

const QUOTE_CLOSERS: Record<string, string> = {
  '"': '"',
  "'": "'",
  "`": "`",
  "\u201c": "\u201d\u201c",
  "\u201d": "\u201d\u201c",
  "\u2018": "\u2019\u2018",
  "\u2019": "\u2019\u2018",
};
const ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  b: "\b",
  f: "\f",
  "/": "/",
  "\\": "\\",
  '"': '"',
  "'": "'",
  "`": "`",
};
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const IDENTIFIER_CHAR = /[\p{L}\p{N}_$\- ]/u;

/** A complete-looking scalar token: a number or a JSON/Python literal. */
function isScalarToken(text: string): boolean {
  return NUMBER.test(text) || /^(?:true|false|null|none)$/i.test(text);
}

function isWhitespace(char: string): boolean {
  return char === " " || char === "\n" || char === "\r" || char === "\t" || char === "\u00a0";
}

/** A resumable fixing parser; see the file header. Feed it with `push`, finish with `end`. */
export class FixingParser {
  /** Top-level containers found so far (live: they grow while parsing). */
  readonly roots: ParsedRoot[] = [];
  private readonly stack: Frame[] = [];
  /** Unread input; everything before `position` has been consumed. */
  private buffer = "";
  private position = 0;
  /** Absolute offset of `buffer[0]` in the whole input. */
  private offset = 0;
  private ended = false;
  private openObjects = 0;
  private openArrays = 0;
  private repairs = new Set<string>();

  /** Append text and parse as far as it allows. */
  push(chunk: string): void {
    if (this.ended) throw new Error("FixingParser.push after end()");
    this.offset += this.position;
    this.buffer = this.buffer.slice(this.position) + chunk;
    this.position = 0;
    this.run();
  }

  /** Declare the input complete: resolve waiting decisions, close what is open (marked incomplete). */
  end(): ParsedRoot[] {
    if (this.ended) return this.roots;
    this.ended = true;
    this.run();
    this.closeEverything();
    return this.roots;
  }

  /** Whether the parser is inside a top-level value (false while skipping prose). */
  get insideValue(): boolean {
    return this.stack.length > 0;
  }

  private run(): void {
    while (this.position < this.buffer.length) {
      if (!this.step()) return;
    }
  }

  /** Consume at least one character, or return false when the next decision needs more input. */
  private step(): boolean {
    const frame = this.stack[this.stack.length - 1];
    if (frame === undefined) return this.stepProse();
    switch (frame.kind) {
      case "object":
        return this.stepObject(frame);
      case "array":
        return this.stepArray(frame);
      case "string":
        return this.stepString(frame);
      case "unquoted":
        return this.stepUnquoted(frame);
      case "comment":
        return this.stepComment(frame);
      case "skip":
        return this.stepSkip(frame);
    }
  }

  // ---------------------------------------------------------------------------------------------------
  // Prose between top-level values

  private stepProse(): boolean {
    const buffer = this.buffer;
    let index = this.position;
    while (index < buffer.length) {
      const code = buffer.charCodeAt(index);
      if (code === 123 /* { */ || code === 91 /* [ */) break;
      index++;
    }
    this.position = index;
    if (index >= buffer.length) return true;
    this.repairs = new Set();
    const node: ObjectNode | ArrayNode =
      buffer[index] === "{"
        ? { kind: "object", entries: [], complete: false }
        : { kind: "array", items: [], complete: false };
    const absolute = this.offset + index;
    this.roots.push({ node, start: absolute, end: absolute, repairs: [] });
    this.openContainer(node);
    this.position = index + 1;
    return true;
  }

  // ---------------------------------------------------------------------------------------------------
  // Containers

  private stepObject(frame: ObjectFrame): boolean {
    const char = this.buffer[this.position]!;
    if (isWhitespace(char)) {
      this.position++;
      return true;
    }
    if (char === "/") {
      const comment = this.tryComment();
      if (comment !== "no") return comment === "consumed";
    }
    switch (frame.state) {
      case "key":
        if (char === "}") {
          // Trailing comma: `{"a": 1,}`.
          if (frame.afterComma) this.repair("trailing comma");
          this.position++;
          this.closeContainer(true);
        } else if (char === ",") {
          // Extra comma: `{, "a": 1}` or `{"a": 1,, "b": 2}`.
          this.repair("extra comma");
          this.position++;
        } else if (char === "]") {
          this.mismatchedCloser(char);
        } else if (char === ":") {
          // A colon with no key before it.
          this.repair("missing key");
          this.position++;
        } else if (char === "{" || char === "[") {
          // A value where a key belongs: keep it under an empty key rather than lose it.
          this.repair("missing key");
          frame.key = "";
          frame.state = "value";
        } else if (QUOTE_CLOSERS[char] !== undefined) {
          this.openString(char, "key");
        } else {
          // Unquoted key: `{name: "x"}`.
          this.repair("unquoted key");
          this.stack.push({ kind: "unquoted", role: "key", text: "", pendingSpace: false, spaced: false });
        }
        return true;
      case "colon":
        if (char === ":") {
          this.position++;
        } else {
          // Missing colon: `{"a" 1}`; the next thing is the value.
          this.repair("missing colon");
        }
        frame.state = "value";
        return true;
      case "value":
        if (char === "," || char === "}") {
          // A key with no value (`{"a": , "b": 1}`, `{"a":}`): drop the key, keep going.
          this.repair("missing value");
          frame.key = undefined;
          frame.state = "key";
          frame.afterComma = false;
          if (char === ",") this.position++;
        } else if (char === "]") {
          this.mismatchedCloser(char);
        } else if (char === ":") {
          // Doubled colon: `{"a":: 1}`.
          this.repair("extra colon");
          this.position++;
        } else {
          return this.openValue(char, "value");
        }
        return true;
      case "afterValue":
        if (char === ",") {
          frame.state = "key";
          frame.afterComma = true;
          this.position++;
        } else if (char === "}") {
          this.position++;
          this.closeContainer(true);
        } else if (char === "]") {
          this.mismatchedCloser(char);
        } else if (char === ":") {
          this.repair("extra colon");
          this.position++;
        } else {
          // Missing comma between members: `{"a": 1 "b": 2}`.
          this.repair("missing comma");
          frame.state = "key";
          frame.afterComma = false;
        }
        return true;
    }
  }

  private stepArray(frame: ArrayFrame): boolean {
    const char = this.buffer[this.position]!;
    if (isWhitespace(char)) {
      this.position++;
      return true;
    }
    if (char === "/") {
      const comment = this.tryComment();
      if (comment !== "no") return comment === "consumed";
    }
    if (frame.state === "value") {
      if (char === "]") {
        // Trailing comma: `[1, 2,]`.
        if (frame.afterComma) this.repair("trailing comma");
        this.position++;
        this.closeContainer(true);
      } else if (char === ",") {
        // Extra comma: `[, 1]` or `[1,, 2]`.
        this.repair("extra comma");
        this.position++;
      } else if (char === "}") {
        this.mismatchedCloser(char);
      } else {
        return this.openValue(char, "item");
      }
      return true;
    }
    if (char === ",") {
      frame.state = "value";
      frame.afterComma = true;
      this.position++;
    } else if (char === "]") {
      this.position++;
      this.closeContainer(true);
    } else if (char === "}") {
      this.mismatchedCloser(char);
    } else {
      // Missing comma between items: `[1 2]`, or items on separate lines.
      this.repair("missing comma");
      frame.state = "value";
      frame.afterComma = false;
    }
    return true;
  }

  /** Start the value that begins with `char` (not consumed yet unless it is a bracket or quote). */
  private openValue(char: string, role: Role): boolean {
    if (char === "{") {
      this.position++;
      this.openContainer({ kind: "object", entries: [], complete: false });
    } else if (char === "[") {
      this.position++;
      this.openContainer({ kind: "array", items: [], complete: false });
    } else if (QUOTE_CLOSERS[char] !== undefined) {
      this.openString(char, role);
    } else {
      this.stack.push({ kind: "unquoted", role, text: "", pendingSpace: false, spaced: false });
    }
    return true;
  }

  private openContainer(node: ObjectNode | ArrayNode): void {
    if (this.stack.length > 0) this.attach(node);
    if (this.openObjects + this.openArrays >= MAX_NESTING) {
      // Nesting too deep: keep an empty, incomplete placeholder and skip the contents.
      this.repair("nesting too deep");
      this.stack.push({ kind: "skip", depth: 1 });
      return;
    }
    if (node.kind === "object") {
      this.openObjects++;
      this.stack.push({ kind: "object", node, state: "key", key: undefined, afterComma: false });
    } else {
      this.openArrays++;
      this.stack.push({ kind: "array", node, state: "value", afterComma: false });
    }
  }

  /** Close the container on top of the stack; `complete` is false when the input ended first. */
  private closeContainer(complete: boolean): void {
    const frame = this.stack.pop() as ObjectFrame | ArrayFrame;
    frame.node.complete = complete;
    if (frame.kind === "object") this.openObjects--;
    else this.openArrays--;
    if (this.stack.length === 0) {
      const root = this.roots[this.roots.length - 1]!;
      root.end = this.offset + this.position;
      root.repairs = [...this.repairs];
    }
  }

  /** A `}` inside an array or `]` inside an object. */
  private mismatchedCloser(char: string): void {
    this.position++;
    const wanted = char === "}" ? "object" : "array";
    if ((wanted === "object" ? this.openObjects : this.openArrays) === 0) {
      // Stray closer with nothing to close: ignore it.
      this.repair("stray bracket");
      return;
    }
    // Wrong closer: close the inner containers up to the one it matches.
    this.repair("mismatched bracket");
    while (this.stack[this.stack.length - 1]?.kind !== wanted) this.closeContainer(true);
    this.closeContainer(true);
  }

  /** Add a finished or opening value to the container on top of the stack. */
  private attach(node: JsonishNode): void {
    const parent = this.stack[this.stack.length - 1];
    if (parent?.kind === "object") {
      if (parent.key !== undefined) parent.node.entries.push([parent.key, node]);
      parent.key = undefined;
      parent.state = "afterValue";
    } else if (parent?.kind === "array") {
      parent.node.items.push(node);
      parent.state = "afterValue";
      parent.afterComma = false;
    }
  }

  /** The key of the object on top of the stack is known; a colon comes next. */
  private setKey(key: string): void {
    const parent = this.stack[this.stack.length - 1];
    if (parent?.kind !== "object") return;
    parent.key = key;
    parent.state = "colon";
  }

  private stepSkip(frame: SkipFrame): boolean {
    const buffer = this.buffer;
    let index = this.position;
    while (index < buffer.length && frame.depth > 0) {
      const code = buffer.charCodeAt(index++);
      if (code === 123 /* { */ || code === 91 /* [ */) frame.depth++;
      else if (code === 125 /* } */ || code === 93 /* ] */) frame.depth--;
    }
    this.position = index;
    if (frame.depth === 0) this.stack.pop();
    return true;
  }

  // ---------------------------------------------------------------------------------------------------
  // Comments

  /** At a `/`: open a comment if it starts one. */
  private tryComment(): "consumed" | "wait" | "no" {
    const next = this.buffer[this.position + 1];
    if (next === undefined) return this.ended ? "no" : "wait";
    if (next !== "/" && next !== "*") return "no";
    // Comments: `// …` and `/* … */` are dropped.
    this.repair("comment");
    this.position += 2;
    this.stack.push({ kind: "comment", block: next === "*" });
    return "consumed";
  }

  private stepComment(frame: CommentFrame): boolean {
    const buffer = this.buffer;
    if (!frame.block) {
      const newline = buffer.indexOf("\n", this.position);
      if (newline < 0) {
        this.position = buffer.length;
        return true;
      }
      this.position = newline + 1;
      this.stack.pop();
      return true;
    }
    const close = buffer.indexOf("*/", this.position);
    if (close < 0) {
      // Keep a trailing `*` unread while more may come: it may be the first half of `*/`.
      const target = !this.ended && buffer.endsWith("*") ? buffer.length - 1 : buffer.length;
      if (target <= this.position) return false;
      this.position = target;
      return true;
    }
    this.position = close + 2;
    this.stack.pop();
    return true;
  }

  // ---------------------------------------------------------------------------------------------------
  // Quoted strings

  private openString(quote: string, role: Role): void {
    this.position++;
    if (quote === "'") this.repair("single quotes");
    else if (quote === "`") this.repair("backtick quotes");
    else if (quote !== '"') this.repair("smart quotes");
    let node: StringNode | undefined;
    if (role !== "key") {
      node = { kind: "string", value: "", complete: false };
      this.attach(node);
    }
    this.stack.push({
      kind: "string",
      role,
      closers: QUOTE_CLOSERS[quote]!,
      node,
      text: "",
      triple: false,
      maybeTriple: role !== "key" && quote === '"',
      fresh: true,
    });
  }

  private stepString(frame: StringFrame): boolean {
    const buffer = this.buffer;
    const closers = frame.closers;
    let index = this.position;
    if (frame.fresh) {
      if (frame.maybeTriple) {
        // Python triple-quoted string: `"""…"""` (values only). `""` alone is an empty string.
        if (buffer[index] === '"' && index + 1 >= buffer.length && !this.ended) return false;
        frame.maybeTriple = false;
        if (buffer.startsWith('""', index)) {
          this.repair("triple quotes");
          frame.triple = true;
          this.position = index + 2;
          return true;
        }
      }
      frame.fresh = false;
      if (frame.triple && buffer[index] === "\n") {
        this.position++;
        return true;
      }
    }
    // Fast path: copy the run of ordinary characters in one slice.
    while (index < buffer.length) {
      const char = buffer[index]!;
      if (char === "\\" || closers.includes(char)) break;
      if (char === "\n") this.repair("raw newline in string");
      index++;
    }
    if (index > this.position) {
      this.appendText(frame, buffer.slice(this.position, index));
      this.position = index;
      return true;
    }
    const char = buffer[index]!;
    if (char === "\\") return this.stepEscape(frame);
    if (frame.triple) {
      // Inside `"""…"""` only three quotes close the string.
      if (buffer.length - index < 3 && !this.ended) return false;
      if (buffer.startsWith('"""', index)) {
        this.position = index + 3;
        this.finishString(frame, true);
      } else {
        this.position = index + 1;
        this.appendText(frame, char);
      }
      return true;
    }
    const closes = this.quoteCloses(frame.role, index);
    if (closes === undefined) return false;
    this.position = index + 1;
    if (closes) {
      this.finishString(frame, true);
    } else {
      // Unescaped inner quote: `"Kim "MJ" Minjun"` — the look-ahead says it does not end the string.
      this.repair("unescaped quote");
      this.appendText(frame, char);
    }
    return true;
  }

  private stepEscape(frame: StringFrame): boolean {
    const buffer = this.buffer;
    const next = buffer[this.position + 1];
    if (next === undefined) {
      if (!this.ended) return false;
      this.appendText(frame, "\\");
      this.position++;
      return true;
    }
    if (next === "u") {
      const hex = buffer.slice(this.position + 2, this.position + 6);
      if (hex.length < 4 && !this.ended) return false;
      if (/^[0-9a-fA-F]{4}$/.test(hex)) {
        // `\uXXXX` decoded (a surrogate pair arrives as two escapes and joins naturally).
        this.appendText(frame, String.fromCharCode(Number.parseInt(hex, 16)));
        this.position += 6;
        return true;
      }
      // A broken `\u` escape is kept as written.
      this.repair("invalid escape");
      this.appendText(frame, "\\u");
      this.position += 2;
      return true;
    }
    if ((next === "b" || next === "f") && buffer.length <= this.position + 2 && !this.ended) return false;
    const decoded = ESCAPES[next];
    // `\b`/`\f` before a letter is LaTeX (`\beta`, `\frac`), not a backspace or form feed.
    const latex = (next === "b" || next === "f") && /[A-Za-z]/.test(buffer[this.position + 2] ?? "");
    if (decoded !== undefined && !latex) {
      this.appendText(frame, decoded);
    } else {
      // Unknown escape (`\d`, LaTeX `\alpha`): keep the backslash and the character as written.
      this.repair("invalid escape");
      this.appendText(frame, `\\${next}`);
    }
    this.position += 2;
    return true;
  }

  private appendText(frame: StringFrame, text: string): void {
    if (frame.node) frame.node.value += text;
    else frame.text += text;
  }

  private finishString(frame: StringFrame, complete: boolean): void {
    this.stack.pop();
    if (frame.node) frame.node.complete = complete;
    else if (complete || frame.text.length > 0) this.setKey(frame.text);
  }

  /**
   * Does the quote at `index` close the string? Only if what follows it fits the position: `:` after a
   * key, `,`/`}` after an object value (a comma only when a new member follows), `,`/`]` after an item, a
   * line break, a comment, or the end of input. `undefined`: the answer needs more input.
   */
  private quoteCloses(role: Role, index: number): boolean | undefined {
    const buffer = this.buffer;
    let next = index + 1;
    let crossedLine = false;
    while (next < buffer.length && isWhitespace(buffer[next]!)) {
      if (buffer[next] === "\n") crossedLine = true;
      next++;
    }
    if (next >= buffer.length) return this.ended ? true : undefined;
    if (crossedLine) return true;
    const char = buffer[next]!;
    if (char === "/") {
      const after = buffer[next + 1];
      // A `/` right at the end of a chunk: wait to see whether it starts a comment.
      if (after === undefined && !this.ended) return undefined;
      if (after === "/" || after === "*") return true;
    }
    switch (role) {
      case "key":
        // A key closes before `:`, `}`, `,`, or before a value after a space (missing colon: `{"a" 1}`).
        return char === ":" || char === "}" || char === "," || next > index + 1;
      case "item":
        return char === "," || char === "]" || char === "}" || QUOTE_CLOSERS[char] !== undefined;
      case "value":
        if (char === "}" || char === "]") return true;
        if (char === ",") return this.memberFollows(next);
        // Missing comma on one line: `{"a": "x" "b": 1}`.
        if (QUOTE_CLOSERS[char] !== undefined) return this.quotedKeyFollows(next);
        return false;
    }
  }

  /** After the comma at `index`: does a new object member (or the end of the object) follow? */
  private memberFollows(index: number): boolean | undefined {
    const buffer = this.buffer;
    let next = index + 1;
    while (next < buffer.length && isWhitespace(buffer[next]!)) {
      if (buffer[next] === "\n") return true;
      next++;
    }
    if (next >= buffer.length) return this.ended ? true : undefined;
    const char = buffer[next]!;
    if (char === "}" || char === "/" || char === ",") return true;
    if (QUOTE_CLOSERS[char] !== undefined) return true;
    // An unquoted key: identifier characters up to a colon (bounded look-ahead).
    const limit = Math.min(buffer.length, next + 64);
    let scan = next;
    while (scan < limit && IDENTIFIER_CHAR.test(buffer[scan]!)) scan++;
    if (scan >= buffer.length) return this.ended ? false : undefined;
    return scan > next && buffer[scan] === ":";
  }

  /** At a quote: is it a quoted key followed by a colon (within a short window)? */
  private quotedKeyFollows(index: number): boolean | undefined {
    const buffer = this.buffer;
    const closers = QUOTE_CLOSERS[buffer[index]!]!;
    const limit = Math.min(buffer.length, index + 100);
    let scan = index + 1;
    while (scan < limit && !closers.includes(buffer[scan]!) && buffer[scan] !== "\n") scan++;
    if (scan >= buffer.length) return this.ended ? false : undefined;
    if (!closers.includes(buffer[scan]!)) return false;
    scan++;
    while (scan < buffer.length && (buffer[scan] === " " || buffer[scan] === "\t")) scan++;
    if (scan >= buffer.length) return this.ended ? false : undefined;
    return buffer[scan] === ":";
  }

  // ---------------------------------------------------------------------------------------------------
  // Unquoted tokens (keys, values, Python literals, numbers)

  private stepUnquoted(frame: UnquotedFrame): boolean {
    const buffer = this.buffer;
    let index = this.position;
    while (index < buffer.length) {
      const char = buffer[index]!;
      const ends = this.endsUnquoted(frame, char, index);
      if (ends === undefined) {
        frame.text += buffer.slice(this.position, index);
        this.position = index;
        return false;
      }
      if (ends) {
        frame.text += buffer.slice(this.position, index);
        this.position = index;
        this.finishUnquoted(frame, true);
        return true;
      }
      if (isWhitespace(char)) {
        // Missing commas between scalar items: `[1 2 3]` (checked at the first space only).
        if (
          !frame.spaced &&
          frame.role === "item" &&
          isScalarToken(frame.text + buffer.slice(this.position, index))
        ) {
          frame.text += buffer.slice(this.position, index);
          this.position = index;
          this.finishUnquoted(frame, true);
          return true;
        }
        frame.spaced = true;
        frame.pendingSpace = true;
      } else {
        frame.pendingSpace = false;
      }
      index++;
    }
    frame.text += buffer.slice(this.position, index);
    this.position = index;
    return true;
  }

  private endsUnquoted(frame: UnquotedFrame, char: string, index: number): boolean | undefined {
    if (char === "\n") return true;
    if (char === "/" && frame.pendingSpace) {
      const next = this.buffer[index + 1];
      if (next === undefined) return this.ended ? false : undefined;
      if (next === "/" || next === "*") return true;
    }
    switch (frame.role) {
      case "key":
        return char === ":" || char === "}" || char === "," || char === "{" || char === "[";
      case "item":
        return char === "," || char === "]" || char === "}" || char === "{" || char === "[";
      case "value": {
        if (char === "}" || char === "]") return true;
        // Missing comma after an unquoted value: `{"a": 1 "b": 2}`.
        if (frame.pendingSpace && QUOTE_CLOSERS[char] !== undefined) return this.quotedKeyFollows(index);
        if (char !== ",") return false;
        // A comma ends the value only when a new member follows (`{"a": Smith, John, "b": 1}` keeps
        // "Smith, John").
        return this.memberFollows(index);
      }
    }
  }

  private finishUnquoted(frame: UnquotedFrame, complete: boolean): void {
    this.stack.pop();
    const text = frame.text.trim();
    if (frame.role === "key") {
      this.setKey(text);
      return;
    }
    if (text.length === 0) return;
    this.attach(this.scalarFromToken(text, complete));
  }

  private scalarFromToken(text: string, complete: boolean): JsonishNode {
    const lower = text.toLowerCase();
    if (lower === "true" || lower === "false") {
      // Python literals (`True`/`False`) and other capitalisations.
      if (text !== lower) this.repair("python literal");
      return { kind: "bool", value: lower === "true", complete };
    }
    if (lower === "null" || lower === "none") {
      // Python `None`.
      if (text !== "null") this.repair("python literal");
      return { kind: "null", complete };
    }
    if (NUMBER.test(text)) return { kind: "number", value: Number(text), text, complete };
    // Unquoted value: `{"a": hello world}`.
    this.repair("unquoted value");
    return { kind: "string", value: text, complete };
  }

  // ---------------------------------------------------------------------------------------------------
  // End of input

  private closeEverything(): void {
    while (this.stack.length > 0) {
      const frame = this.stack[this.stack.length - 1]!;
      switch (frame.kind) {
        case "string":
          // Unclosed string: keep what was written (not the line break the answer happened to end with).
          this.repair("unclosed string");
          if (frame.node) frame.node.value = frame.node.value.trimEnd();
          this.finishString(frame, false);
          break;
        case "unquoted":
          this.finishUnquoted(frame, false);
          break;
        case "comment":
        case "skip":
          this.stack.pop();
          break;
        default:
          // Unclosed container: close it, marked incomplete.
          this.repair("unclosed container");
          this.closeContainer(false);
      }
    }
  }

  private repair(name: string): void {
    this.repairs.add(name);
  }
}

/** Parse a whole text at once: every top-level container, repaired. */
export function fixingParse(text: string): ParsedRoot[] {
  const parser = new FixingParser();
  parser.push(text);
  return parser.end();
}
