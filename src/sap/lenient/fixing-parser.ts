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
 *   place, so a streaming reader can look at `roots` between chunks and see everything read so far (a
 *   container's list of fewer than 16 children is swapped for an exact-size copy when it closes: read
 *   the list from the node, never keep it).
 * - **Prose mode at the top.** Outside any value the parser skips text until `{` or `[`; every top-level
 *   container becomes one root, with its source span and the list of repairs made inside it.
 *
 * Each repair is a short branch with a comment naming it (jsonrepair style) and is recorded by name.
 *
 * Speed (the streaming budget is a few `JSON.parse`s per answer): characters are read as char codes, never
 * as one-character strings; whitespace runs, string runs (found with native `indexOf`, results cached per
 * buffer) and token runs are consumed in one loop each; a container step goes on through punctuation and
 * scalar values without returning to `run`; the leaf frames are reused. The order of every decision, and
 * so the output for any split of the input into chunks, is the same as a one-character-per-step reading.
 */
import type { WorkCounter } from "../work-counter.js";
import {
  type ArrayNode,
  isOpenedEmptyString,
  type JsonishNode,
  type ObjectNode,
  SourceText,
  type StringNode,
} from "./jsonish-node.js";

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
  /** Char codes that may close this string (a smart quote may be closed by either of its pair). */
  closer: number;
  pairedCloser: number;
  /** The closer as text, for `indexOf` (used when `closer === pairedCloser`). */
  closerText: string;
  /** The node being filled, for values; keys collect into `text` until they close. */
  node: StringNode | undefined;
  text: string;
  /** A Python `"""…"""` string: closes only at three quotes, no look-ahead. */
  triple: boolean;
  /** Opened by `"` as a value and nothing read yet: two more quotes make it `"""`. */
  maybeTriple: boolean;
  /** Nothing read yet (a line break right after `"""` is dropped). */
  fresh: boolean;
  /** Unescaped quotes kept inside the string so far (an odd count means one is still open). */
  innerQuotes: number;
  /** Triple quotes: at the start of a line, before its indentation is skipped. */
  lineStart: boolean;
  /** Triple quotes: the first line's indentation, which every line loses (-1 until known). */
  indent: number;
  /** Triple quotes: indentation skipped on the current line so far. */
  column: number;
  /** Triple quotes: a line break read but not yet written (it is dropped before the closing quotes). */
  pendingBreak: boolean;
  /**
   * Triple quotes: blanks beyond the indentation at the start of the line, written once something else
   * follows on it (a line of blanks is empty, as in the dedented code it stands for).
   */
  lineBlanks: string;
  /** Characters of the text searched for runs of backticks so far (`insideCodeBlockText`). */
  backtickScanned: number;
  /** Runs of three or more backticks found in them. */
  backtickRuns: number;
}
interface UnquotedFrame {
  kind: "unquoted";
  role: Role;
  text: string;
  /** Offset of the token's first character in the whole input. */
  start: number;
  /** Whitespace seen since the last word character. */
  pendingSpace: boolean;
  /** Whether the token has had a word followed by whitespace (checked once, for `[1 2 3]`). */
  spaced: boolean;
  /** `(` or `[` not yet closed: a comma or `]` inside them belongs to the value (`f(a: T[], b)`). */
  parens: number;
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

/** Whether a list is short enough to be copied to its own size when its container closes. */
function isShort(list: readonly unknown[]): boolean {
  return list.length > 0 && list.length < 16;
}

/** Keys the parser keeps one copy of (see `FixingParser.keys`), and how long such a key may be. */
const KEYS_KEPT = 256;
const KEPT_KEY_LENGTH = 40;

/** Whether `code` opens a quoted string: `"`, `'`, a backtick, or a smart quote (“ ” ‘ ’). */
function isQuoteCode(code: number): boolean {
  return (
    code === 34 /* " */ ||
    code === 39 /* ' */ ||
    code === 96 /* ` */ ||
    code === 0x201c ||
    code === 0x201d ||
    code === 0x2018 ||
    code === 0x2019
  );
}

/** The other quote of a smart pair (either one closes a string the other opened); plain quotes close themselves. */
function pairedCloserOf(quote: number): number {
  if (quote === 0x201c) return 0x201d;
  if (quote === 0x2018) return 0x2019;
  if (quote === 0x201d) return 0x201c;
  if (quote === 0x2019) return 0x2018;
  return quote;
}

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
const IDENTIFIER_CHAR = /[\p{L}\p{N}_$\- ]/u;

/** A complete-looking scalar token: a number or a JSON/Python literal. */
function isScalarToken(text: string): boolean {
  return !Number.isNaN(numberFromText(text)) || /^(?:true|false|null|none)$/i.test(text);
}

/**
 * The char code at `index`, or -1 past the end. Reading past the end with `charCodeAt` (NaN) sends V8's
 * optimized code to a slow generic path, so every read that may run off the end goes through here.
 */
function codeAt(text: string, index: number): number {
  return index < text.length ? text.charCodeAt(index) : -1;
}

function isDigitCode(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** Powers of ten that are exact doubles (10^0 … 10^22). */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, power) => 10 ** power);

/**
 * The value of `text` when it is a number as JSON-ish answers write it
 * (`^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$`), else NaN (no number text spells NaN). Matched by hand
 * because it runs once per unquoted token and a regex test plus `Number()` cost more than the whole scan.
 * Up to 15 digits without an exponent the value is computed here: the digits form an exact integer below
 * 2^53 and 10^k (k ≤ 15) is exact, so one division is correctly rounded, the same double `Number()` gives.
 */
function numberFromText(text: string): number {
  let index = 0;
  let code = codeAt(text, 0);
  const negative = code === 45; /* - */
  if (negative || code === 43 /* + */) code = codeAt(text, ++index);
  let mantissa = 0;
  let digits = 0;
  while (isDigitCode(code)) {
    mantissa = mantissa * 10 + (code - 48);
    digits++;
    code = codeAt(text, ++index);
  }
  let fraction = 0;
  if (code === 46 /* . */) {
    code = codeAt(text, ++index);
    while (isDigitCode(code)) {
      mantissa = mantissa * 10 + (code - 48);
      fraction++;
      code = codeAt(text, ++index);
    }
    if (digits === 0 && fraction === 0) return Number.NaN;
  } else if (digits === 0) {
    return Number.NaN;
  }
  if (code === 101 /* e */ || code === 69 /* E */) {
    code = codeAt(text, ++index);
    if (code === 43 || code === 45) code = codeAt(text, ++index);
    let exponent = 0;
    while (isDigitCode(code)) {
      exponent++;
      code = codeAt(text, ++index);
    }
    if (exponent === 0 || index !== text.length) return Number.NaN;
    return Number(text);
  }
  if (index !== text.length) return Number.NaN;
  if (digits + fraction > 15) return Number(text);
  const value = mantissa / POWERS_OF_TEN[fraction]!;
  return negative ? -value : value;
}

/** A character of an unquoted key (letters, digits, `_`, `$`, `-`, space); ASCII is decided without a regex. */
/** How many times `char` occurs in `text`. */
function countOf(text: string, char: string): number {
  let count = 0;
  for (let at = text.indexOf(char); at >= 0; at = text.indexOf(char, at + 1)) count++;
  return count;
}

/** An unquoted token ending in its only quote, after something other than a number (`foo"`, not `24"`). */
function lostOpeningQuote(text: string): boolean {
  const last = text.length - 1;
  if (last < 1 || !isQuoteCode(text.charCodeAt(last))) return false;
  for (let index = 0; index < last; index++) if (isQuoteCode(text.charCodeAt(index))) return false;
  return Number.isNaN(numberFromText(text.slice(0, last)));
}

function isIdentifierCode(code: number): boolean {
  if (code < 128) {
    return (
      (code >= 97 && code <= 122) ||
      (code >= 65 && code <= 90) ||
      isDigitCode(code) ||
      code === 95 /* _ */ ||
      code === 36 /* $ */ ||
      code === 45 /* - */ ||
      code === 32
    );
  }
  return IDENTIFIER_CHAR.test(String.fromCharCode(code));
}

function isWhitespaceCode(code: number): boolean {
  if (code < 0x80) return code === 32 || code === 10 || code === 13 || code === 9;
  return code === 0xa0 || (code >= 0x1680 && isUnicodeSpaceCode(code));
}

/**
 * The other Unicode spaces (what `String.prototype.trim` removes beyond ASCII and U+00A0): models emit
 * U+2000–U+200A, U+202F and U+3000 around values, and a value after one must read as if after a space.
 */
function isUnicodeSpaceCode(code: number): boolean {
  return (
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * Characters that never end an unquoted token nor change its state beyond "not a space": everything
 * ASCII except whitespace, quotes, brackets, `,`, `:` and `/`. Lets `stepUnquoted` run over words and
 * digits without asking `endsUnquoted` about each one.
 */
const PLAIN_TOKEN_CODE = new Uint8Array(128);
for (let code = 33; code < 127; code++) PLAIN_TOKEN_CODE[code] = 1;
for (const char of "\"'`{}[](),:/") PLAIN_TOKEN_CODE[char.charCodeAt(0)] = 0;

/** A resumable fixing parser; see the file header. Feed it with `push`, finish with `end`. */
export class FixingParser {
  /** Top-level containers found so far (live: they grow while parsing). */
  readonly roots: ParsedRoot[] = [];
  /** Counts one step per state-machine step, when set (tests check the work stays linear). */
  work: WorkCounter | undefined;
  private readonly stack: Frame[] = [];
  /** Unread input; everything before `position` has been consumed. */
  private buffer = "";
  private position = 0;
  /**
   * Offsets in `buffer` of the next `\` and the next line break at or after some earlier string position
   * (`buffer.length` when there is none), so string runs are found with native `indexOf` searches and
   * each of these characters is searched for once per buffer, not once per string. Reset by `push`.
   */
  private nextBackslash = -1;
  private nextNewline = -1;
  /** Likewise the next closer of the open string (`nextCloserFor`: the closer it was searched for). */
  private nextCloser = -1;
  private nextCloserFor = -1;
  /** Likewise the next `{` and `[` of the buffer, in prose (its length where there is none). */
  private nextBrace = -1;
  private nextBracket = -1;
  /** Absolute offset of `buffer[0]` in the whole input (plus the constructor's `offset`). */
  private offset: number;
  private ended = false;
  private openObjects = 0;
  private openArrays = 0;
  /** The repairs of the root being read, each name once (the root's `repairs` once it closes). */
  private repairs: string[] = [];
  /**
   * Keys read so far, each kept once: the objects of a long list repeat the same few keys, and the tree
   * holds one copy of each rather than one per object (less for the garbage collector to move, which is
   * most of the cost of a large answer). Bounded: keys come from the answer. Made at the first key (a
   * YAML block reads each flow list with a parser of its own).
   */
  private keys: Map<string, string> | undefined;
  /** The text read since the outermost open container began, for containers' written text (set by `push`). */
  private source!: SourceText;
  /**
   * The leaf frames (quoted string, unquoted token, comment, skipped depth), reused rather than allocated
   * per value: none of them holds another frame, so at most one is open at a time, on top of the stack.
   * `step` also recognises them by identity, so reading `frame.kind` only ever sees the two container
   * frame shapes (a property read over six shapes is megamorphic and costs on every step).
   */
  private readonly stringFrame: StringFrame = {
    kind: "string",
    role: "value",
    closer: 34,
    pairedCloser: 34,
    closerText: '"',
    node: undefined,
    text: "",
    triple: false,
    maybeTriple: false,
    fresh: true,
    innerQuotes: 0,
    lineStart: true,
    indent: -1,
    column: 0,
    pendingBreak: false,
    lineBlanks: "",
    backtickScanned: 0,
    backtickRuns: 0,
  };
  private readonly unquotedFrame: UnquotedFrame = {
    kind: "unquoted",
    role: "value",
    text: "",
    start: 0,
    pendingSpace: false,
    spaced: false,
    parens: 0,
  };
  private readonly commentFrame: CommentFrame = { kind: "comment", block: false };
  private readonly skipFrame: SkipFrame = { kind: "skip", depth: 0 };

  /**
   * `offset`: where this input starts in a larger text (a fence's content in the answer); root and node
   * offsets count from there.
   */
  constructor(offset = 0) {
    this.offset = offset;
  }

  /** Append text and parse as far as it allows. */
  push(chunk: string): void {
    if (this.ended) throw new Error("FixingParser.push after end()");
    this.offset += this.position;
    // Usually everything was read: the chunk becomes the buffer as it is (no slice, no concatenation).
    this.buffer = this.position < this.buffer.length ? this.buffer.slice(this.position) + chunk : chunk;
    this.position = 0;
    // Outside any container, no earlier text is needed: the pieces start over from this buffer.
    if (this.stack.length === 0) this.source = new SourceText(this.buffer, this.offset);
    else this.source.add(chunk, this.offset + this.buffer.length - chunk.length);
    this.nextBackslash = -1;
    this.nextNewline = -1;
    this.nextCloser = -1;
    this.nextBrace = -1;
    this.nextBracket = -1;
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

  /**
   * Whether the next character would be read as text of an open string (a quoted string, a `"""` or a
   * ``` code block written as a value): false while a decision about that string waits for more input
   * (a quote that may close it, an escape cut in half).
   */
  get insideString(): boolean {
    return this.stack.at(-1) === this.stringFrame && this.position >= this.buffer.length;
  }

  /**
   * Whether the next character would be read as text of a `"""` string or a ``` code block written as a
   * value (only three quotes close them: nothing but their own quotes ends them).
   */
  get insideTripleString(): boolean {
    return this.insideString && this.stringFrame.triple;
  }

  /**
   * Whether the next character would be text of a code block inside the open string: a `"""` string or a
   * ``` code block written as a value, or a string whose own text opened a ``` block not yet closed (an
   * odd count of runs of three or more backticks in it). A run of backticks there ends that block, not
   * a fence around the answer. Each string's text is searched once, however often this is asked.
   */
  get insideCodeBlockText(): boolean {
    if (!this.insideString) return false;
    const frame = this.stringFrame;
    if (frame.triple) return true;
    const text = frame.node === undefined ? frame.text : frame.node.value;
    let at = text.indexOf("```", frame.backtickScanned);
    let searched = text.length;
    while (at >= 0) {
      let end = at + 3;
      while (end < text.length && text.charCodeAt(end) === 96 /* ` */) end++;
      // A run at the end of the text may still grow: search it again next time.
      if (end === text.length) {
        searched = at;
        break;
      }
      frame.backtickRuns++;
      at = text.indexOf("```", end);
    }
    if (this.work) this.work.steps += searched - frame.backtickScanned;
    frame.backtickScanned = searched;
    return frame.backtickRuns % 2 === 1;
  }

  private run(): void {
    // The buffer does not change while running (only `push` replaces it).
    const length = this.buffer.length;
    let steps = 0;
    while (this.position < length) {
      steps++;
      if (!this.step()) break;
    }
    if (this.work) this.work.steps += steps;
  }

  /** Consume at least one character, or return false when the next decision needs more input. */
  private step(): boolean {
    const frame = this.stack.at(-1);
    if (frame === undefined) return this.stepProse();
    if (frame === this.stringFrame) return this.stepString(this.stringFrame);
    if (frame === this.unquotedFrame) return this.stepUnquoted(this.unquotedFrame);
    if (frame === this.commentFrame) return this.stepComment(this.commentFrame);
    if (frame === this.skipFrame) return this.stepSkip(this.skipFrame);
    const container = frame as ObjectFrame | ArrayFrame;
    return container.kind === "object" ? this.stepObject(container) : this.stepArray(container);
  }

  // ---------------------------------------------------------------------------------------------------
  // Prose between top-level values

  private stepProse(): boolean {
    const buffer = this.buffer;
    const from = this.position;
    // The next `{` and `[` of the buffer, each looked for once per buffer (`indexOf`, not a loop per
    // character: an answer in prose may be long and hold no container).
    if (this.nextBrace < from) this.nextBrace = openerAt(buffer, "{", from);
    if (this.nextBracket < from) this.nextBracket = openerAt(buffer, "[", from);
    const index = Math.min(this.nextBrace, this.nextBracket);
    this.position = index;
    if (index >= buffer.length) return true;
    this.repairs = [];
    const absolute = this.offset + index;
    const node: ObjectNode | ArrayNode =
      buffer[index] === "{"
        ? {
            kind: "object",
            entries: [],
            complete: false,
            start: absolute,
            end: absolute,
            source: this.source,
          }
        : { kind: "array", items: [], complete: false, start: absolute, end: absolute, source: this.source };
    this.roots.push({ node, start: absolute, end: absolute, repairs: [] });
    this.openContainer(node);
    this.position = index + 1;
    return true;
  }

  // ---------------------------------------------------------------------------------------------------
  // Containers

  /**
   * Skip the whitespace run at `position` (indentation is a third of pretty-printed JSON, so it is skipped
   * in one loop, not one step per character). Returns the char code after it, or -1 at the end of input.
   */
  private skipWhitespace(): number {
    const buffer = this.buffer;
    const length = buffer.length;
    let index = this.position;
    while (index < length) {
      const code = buffer.charCodeAt(index);
      if (!isWhitespaceCode(code)) {
        this.position = index;
        return code;
      }
      index++;
    }
    this.position = index;
    return -1;
  }

  /**
   * One object step. Transitions that only move the state or consume punctuation (`,` `:`) loop here
   * instead of returning to `run`, and so do keys and scalar values (read in place by `readString` and
   * `readUnquoted`); the method returns when a container opens or closes, a comment starts, the input is
   * used up, or a decision waits for more input.
   */
  private stepObject(frame: ObjectFrame): boolean {
    for (;;) {
      const code = this.skipWhitespace();
      if (code < 0) return true;
      if (code === 47 /* / */) {
        const comment = this.tryComment();
        if (comment !== "no") return comment === "consumed";
      }
      switch (frame.state) {
        case "key":
          if (code === 125 /* } */) {
            // Trailing comma: `{"a": 1,}`.
            if (frame.afterComma) this.repair("trailing comma");
            this.position++;
            this.closeContainer(true);
            return true;
          }
          if (code === 44 /* , */) {
            // Extra comma: `{, "a": 1}` or `{"a": 1,, "b": 2}`.
            this.repair("extra comma");
            this.position++;
          } else if (code === 93 /* ] */) {
            return this.mismatchedCloser(code);
          } else if (code === 58 /* : */) {
            // A colon with no key before it.
            this.repair("missing key");
            this.position++;
          } else if (code === 123 && this.stack.length === 1 && frame.node.entries.length === 0) {
            // Template-doubled braces (`{{"name": "B"}}`, from prompts that escape braces): one object
            // when a key follows; the extra `}` after it is prose.
            const doubled = this.quotedKeyAt(this.position + 1);
            if (doubled === undefined) return false;
            if (doubled) {
              this.repair("doubled braces");
              this.position++;
            } else {
              this.repair("missing key");
              frame.key = "";
              frame.state = "value";
            }
          } else if (code === 123 /* { */ || code === 91 /* [ */) {
            // A value where a key belongs: keep it under an empty key rather than lose it.
            this.repair("missing key");
            frame.key = "";
            frame.state = "value";
          } else if (isQuoteCode(code)) {
            this.openString(code, "key");
            const read = this.readString();
            if (read !== undefined) return read;
          } else {
            // Unquoted key: `{name: "x"}`.
            this.repair("unquoted key");
            this.openUnquoted("key");
            const read = this.readUnquoted();
            if (read !== undefined) return read;
          }
          continue;
        case "colon":
          if (code === 58 /* : */) {
            this.position++;
          } else {
            // Missing colon: `{"a" 1}`; the next thing is the value.
            this.repair("missing colon");
          }
          frame.state = "value";
          continue;
        case "value":
          if (code === 44 /* , */ || code === 125 /* } */) {
            // A key with no value (`{"a": , "b": 1}`, `{"a":}`): drop the key, keep going.
            this.repair("missing value");
            frame.key = undefined;
            frame.state = "key";
            frame.afterComma = false;
            if (code === 44) this.position++;
          } else if (code === 93 /* ] */) {
            return this.mismatchedCloser(code);
          } else if (code === 58 /* : */) {
            // Doubled colon: `{"a":: 1}`.
            this.repair("extra colon");
            this.position++;
          } else {
            const read = this.openValue(code, "value");
            if (read !== undefined) return read;
          }
          continue;
        case "afterValue":
          if (code === 44 /* , */) {
            frame.state = "key";
            frame.afterComma = true;
            this.position++;
          } else if (code === 125 /* } */) {
            this.position++;
            this.closeContainer(true);
            return true;
          } else if (code === 93 /* ] */) {
            return this.mismatchedCloser(code);
          } else if (code === 58 /* : */) {
            this.repair("extra colon");
            this.position++;
          } else {
            // Missing comma between members: `{"a": 1 "b": 2}`.
            this.repair("missing comma");
            frame.state = "key";
            frame.afterComma = false;
          }
          continue;
      }
    }
  }

  /** One array step; loops like `stepObject`. */
  private stepArray(frame: ArrayFrame): boolean {
    for (;;) {
      const code = this.skipWhitespace();
      if (code < 0) return true;
      if (code === 47 /* / */) {
        const comment = this.tryComment();
        if (comment !== "no") return comment === "consumed";
      }
      if (frame.state === "value") {
        if (code === 93 /* ] */) {
          // Trailing comma: `[1, 2,]`.
          if (frame.afterComma) this.repair("trailing comma");
          this.position++;
          this.closeContainer(true);
          return true;
        }
        if (code === 44 /* , */) {
          // Extra comma: `[, 1]` or `[1,, 2]`.
          this.repair("extra comma");
          this.position++;
          continue;
        }
        if (code === 125 /* } */) {
          return this.mismatchedCloser(code);
        }
        const read = this.openValue(code, "item");
        if (read !== undefined) return read;
        continue;
      }
      if (code === 44 /* , */) {
        frame.state = "value";
        frame.afterComma = true;
        this.position++;
      } else if (code === 93 /* ] */) {
        this.position++;
        this.closeContainer(true);
        return true;
      } else if (code === 125 /* } */) {
        return this.mismatchedCloser(code);
      } else {
        // Missing comma between items: `[1 2]`, or items on separate lines.
        this.repair("missing comma");
        frame.state = "value";
        frame.afterComma = false;
      }
    }
  }

  /**
   * Start the value that begins with char `code` (not consumed yet unless it is a bracket or quote). A
   * container returns true (`run` steps into it); a string or token is read right here (see `readString`).
   */
  private openValue(code: number, role: Role): boolean | undefined {
    if (code === 123 /* { */) {
      const start = this.offset + this.position++;
      this.openContainer({
        kind: "object",
        entries: [],
        complete: false,
        start,
        end: start,
        source: this.source,
      });
      return true;
    }
    if (code === 91 /* [ */) {
      const start = this.offset + this.position++;
      this.openContainer({
        kind: "array",
        items: [],
        complete: false,
        start,
        end: start,
        source: this.source,
      });
      return true;
    }
    if (isQuoteCode(code)) {
      this.openString(code, role);
      return this.readString();
    }
    this.openUnquoted(role);
    return this.readUnquoted();
  }

  /**
   * Step the string just opened until it closes, as `run` would, without going back to `run` and its
   * dispatch for every step (most values are scalars). Returns undefined once it has closed (the
   * container's loop goes on), else what the container step returns: true when the input is used up,
   * false when the string waits for more.
   */
  private readString(): boolean | undefined {
    const frame = this.stringFrame;
    const length = this.buffer.length;
    while (this.stack.at(-1) === frame) {
      if (this.position >= length) return true;
      if (!this.stepString(frame)) return false;
    }
    return undefined;
  }

  /** `readString` for the unquoted token just opened. */
  private readUnquoted(): boolean | undefined {
    const frame = this.unquotedFrame;
    const length = this.buffer.length;
    while (this.stack.at(-1) === frame) {
      if (this.position >= length) return true;
      if (!this.stepUnquoted(frame)) return false;
    }
    return undefined;
  }

  private openUnquoted(role: Role): void {
    const frame = this.unquotedFrame;
    frame.role = role;
    frame.text = "";
    frame.start = this.offset + this.position;
    frame.pendingSpace = false;
    frame.spaced = false;
    frame.parens = 0;
    this.stack.push(frame);
  }

  private openContainer(node: ObjectNode | ArrayNode): void {
    if (this.stack.length > 0) this.attach(node);
    if (this.openObjects + this.openArrays >= MAX_NESTING) {
      // Nesting too deep: keep an empty, incomplete placeholder and skip the contents.
      this.repair("nesting too deep");
      this.skipFrame.depth = 1;
      this.stack.push(this.skipFrame);
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
    frame.node.end = this.offset + this.position;
    // A short list grown by `push` has room for 17 (V8): an exact copy keeps what the tree holds small
    // (less for the garbage collector to move; the over-sized one dies young).
    if (frame.kind === "object") {
      this.openObjects--;
      if (isShort(frame.node.entries)) frame.node.entries = frame.node.entries.slice();
    } else {
      this.openArrays--;
      if (isShort(frame.node.items)) frame.node.items = frame.node.items.slice();
    }
    if (this.stack.length === 0) {
      const root = this.roots.at(-1)!;
      root.end = this.offset + this.position;
      root.repairs = this.repairs;
    }
  }

  /**
   * A `}` inside an array or `]` inside an object (`code` is the closer's char code). Returns false while
   * the look-ahead waits for more input.
   */
  private mismatchedCloser(code: number): boolean {
    // A typo right before the closer that does fit (`[1}]`): skip it, rather than close up to the
    // container it matches and drop what follows (`[{"a":[1}]},{"a":[2]}]` keeps both items).
    const buffer = this.buffer;
    let next = this.position + 1;
    while (next < buffer.length && isWhitespaceCode(buffer.charCodeAt(next))) next++;
    if (next >= buffer.length && !this.ended) return false;
    const top = this.stack.at(-1);
    const fitting = top?.kind === "array" ? 93 /* ] */ : 125; /* } */
    if (next < buffer.length && buffer.charCodeAt(next) === fitting) {
      this.position++;
      this.repair("stray bracket");
      return true;
    }
    this.position++;
    const wanted = code === 125 /* } */ ? "object" : "array";
    if ((wanted === "object" ? this.openObjects : this.openArrays) === 0) {
      // Stray closer with nothing to close: ignore it.
      this.repair("stray bracket");
      return true;
    }
    // Wrong closer: close the inner containers up to the one it matches.
    this.repair("mismatched bracket");
    while (this.stack.at(-1)?.kind !== wanted) this.closeContainer(true);
    this.closeContainer(true);
    return true;
  }

  /** Add a finished or opening value to the container on top of the stack. */
  private attach(node: JsonishNode): void {
    const parent = this.stack.at(-1);
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
    const parent = this.stack.at(-1);
    if (parent?.kind !== "object") return;
    parent.key = this.keptKey(key);
    parent.state = "colon";
  }

  /** The copy of `key` kept in `keys` (short keys only, and only so many). */
  private keptKey(key: string): string {
    if (key.length > KEPT_KEY_LENGTH) return key;
    const keys = this.keys ?? new Map<string, string>();
    this.keys = keys;
    const kept = keys.get(key);
    if (kept !== undefined) return kept;
    if (keys.size < KEYS_KEPT) keys.set(key, key);
    return key;
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
    this.commentFrame.block = next === "*";
    this.stack.push(this.commentFrame);
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

  private openString(quote: number, role: Role): void {
    const start = this.offset + this.position++;
    if (quote === 39 /* ' */) this.repair("single quotes");
    else if (quote === 96 /* ` */) this.repair("backtick quotes");
    else if (quote !== 34 /* " */) this.repair("smart quotes");
    let node: StringNode | undefined;
    if (role !== "key") {
      node = { kind: "string", value: "", complete: false, start, end: start };
      this.attach(node);
    }
    const frame = this.stringFrame;
    frame.role = role;
    frame.closer = quote;
    frame.pairedCloser = pairedCloserOf(quote);
    frame.closerText = quote === 34 ? '"' : String.fromCharCode(quote);
    frame.node = node;
    frame.text = "";
    frame.triple = false;
    frame.maybeTriple = role !== "key" && (quote === 34 || quote === 96);
    frame.fresh = true;
    frame.innerQuotes = 0;
    frame.lineStart = true;
    frame.indent = -1;
    frame.column = 0;
    frame.pendingBreak = false;
    frame.lineBlanks = "";
    frame.backtickScanned = 0;
    frame.backtickRuns = 0;
    this.stack.push(frame);
  }

  private stepString(frame: StringFrame): boolean {
    const buffer = this.buffer;
    const length = buffer.length;
    let index = this.position;
    if (frame.fresh) {
      if (frame.maybeTriple) {
        // Python triple-quoted string `"""…"""`, or a code block written as a value: ```…``` (values and
        // items only). Two quotes alone are an empty string.
        if (buffer.charCodeAt(index) === frame.closer && index + 1 >= length && !this.ended) return false;
        frame.maybeTriple = false;
        if (buffer.startsWith(frame.closerText + frame.closerText, index)) {
          this.repair("triple quotes");
          frame.triple = true;
          this.position = index + 2;
          return true;
        }
      }
      if (frame.triple && frame.closer === 96 /* ` */) {
        // A code block's first line is its info string (```ts main.ts), not code.
        const lineEnd = buffer.indexOf("\n", index);
        if (lineEnd < 0 && !this.ended) return false;
        frame.fresh = false;
        if (lineEnd >= 0 && !buffer.slice(index, lineEnd).includes("```")) {
          this.position = lineEnd + 1;
          return true;
        }
      }
      frame.fresh = false;
      if (frame.triple && buffer.charCodeAt(index) === 10) {
        this.position++;
        return true;
      }
    }
    if (frame.triple) return this.stepTriple(frame);
    // Fast path: find the end of the run of ordinary characters (the first closer or backslash) with
    // native searches and copy the run in one slice.
    const closer = frame.closer;
    const pairedCloser = frame.pairedCloser;
    if (this.nextCloser < index || this.nextCloserFor !== closer) {
      // Cached too: after each escape the search resumes, and must not rescan to a far closer each time.
      let found = index;
      if (closer === pairedCloser) {
        found = buffer.indexOf(frame.closerText, index);
        if (found < 0) found = length;
      } else {
        while (found < length) {
          const code = buffer.charCodeAt(found);
          if (code === closer || code === pairedCloser) break;
          found++;
        }
      }
      this.nextCloser = found;
      this.nextCloserFor = closer;
    }
    index = this.nextCloser;
    const start = this.position;
    if (this.nextBackslash < start) {
      this.nextBackslash = buffer.indexOf("\\", start);
      if (this.nextBackslash < 0) this.nextBackslash = length;
    }
    if (this.nextBackslash < index) index = this.nextBackslash;
    if (index > start) {
      if (this.nextNewline < start) {
        this.nextNewline = buffer.indexOf("\n", start);
        if (this.nextNewline < 0) this.nextNewline = length;
      }
      if (this.nextNewline < index) this.repair("raw newline in string");
    }
    if (index >= length && !this.ended && frame.node !== undefined) {
      // Closers at the end of the text so far may end the string (see `closersEndString`): they wait.
      const held = this.heldClosers(this.position, length);
      if (held < length) {
        if (held > this.position) this.appendText(frame, buffer.slice(this.position, held));
        this.position = held;
        return false;
      }
    }
    if (index > this.position) {
      this.appendText(frame, buffer.slice(this.position, index));
      this.position = index;
      if (index >= length) return true;
    }
    if (buffer.charCodeAt(index) === 92) return this.stepEscape(frame);
    const doubled = this.doubledCloser(frame, index);
    if (doubled === undefined) return false;
    if (doubled) {
      // `"green pear""]`: the second quote is a typo, not a new string.
      this.repair("doubled closing quote");
      this.position = index + 2;
      this.finishString(frame, true);
      return true;
    }
    const closes = this.quoteCloses(frame.role, index, frame.innerQuotes);
    if (closes === undefined) return false;
    this.position = index + 1;
    if (closes) {
      this.finishString(frame, true);
    } else {
      // Unescaped inner quote: `"Kim "MJ" Minjun"` — the look-ahead says it does not end the string.
      this.repair("unescaped quote");
      frame.innerQuotes++;
      this.appendText(frame, buffer[index]!);
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
      if (hex.length < 4 && /^[0-9a-fA-F]*$/.test(hex)) {
        // The answer was cut inside the escape: half a character is no text (`"bar\u20` is `bar`).
        this.position = buffer.length;
        return true;
      }
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

  /**
   * Inside `"""…"""` or a ``` code block: only three quotes close it, every line loses up to the first
   * line's indentation (the block is indented to sit in the JSON around it, its text is not), and the
   * line break before the closing quotes is not text. Both are decided as the text arrives, so a stream
   * only sees the string grow: a line break is written once something follows it.
   */
  private stepTriple(frame: StringFrame): boolean {
    const buffer = this.buffer;
    const length = buffer.length;
    const closer = frame.closer;
    const start = this.position;
    let index = start;
    let text = "";
    const content = () => {
      if (frame.lineStart) {
        if (frame.indent < 0) frame.indent = frame.column;
        frame.lineStart = false;
      }
      if (frame.pendingBreak) {
        text += "\n";
        frame.pendingBreak = false;
      }
      if (frame.lineBlanks !== "") {
        text += frame.lineBlanks;
        frame.lineBlanks = "";
      }
    };
    const flush = (at: number) => {
      if (text !== "") this.appendText(frame, text);
      this.position = at;
    };
    while (index < length) {
      const code = buffer.charCodeAt(index);
      if (code === closer) {
        // Two quotes or fewer at the end of the input wait: they may be the closing three.
        if (length - index < 3 && !this.ended && buffer.charCodeAt(length - 1) === closer) {
          flush(index);
          return index > start;
        }
        if (buffer.startsWith(frame.closerText.repeat(3), index)) {
          frame.pendingBreak = false;
          frame.lineBlanks = "";
          flush(index + 3);
          this.finishString(frame, true);
          return true;
        }
      } else if (code === 92 /* \ */) {
        content();
        flush(index);
        return this.stepEscape(frame);
      } else if (code === 10) {
        if (frame.pendingBreak) text += "\n";
        frame.pendingBreak = true;
        frame.lineStart = true;
        frame.column = 0;
        frame.lineBlanks = "";
        index++;
        continue;
      } else if (frame.lineStart && (code === 32 || code === 9)) {
        // Indentation: measured on the first line, skipped on every line; blanks beyond it wait.
        if (frame.indent < 0 || frame.column < frame.indent) frame.column++;
        else frame.lineBlanks += buffer[index];
        index++;
        continue;
      }
      content();
      text += buffer[index];
      index++;
    }
    flush(index);
    return true;
  }

  private appendText(frame: StringFrame, text: string): void {
    if (frame.node) frame.node.value += text;
    else frame.text += text;
  }

  private finishString(frame: StringFrame, complete: boolean): void {
    this.stack.pop();
    if (frame.node) {
      frame.node.complete = complete;
      frame.node.end = this.offset + this.position;
    } else if (complete || frame.text.length > 0) this.setKey(frame.text);
  }

  /**
   * Does the quote at `index` close the string? Only if what follows it fits the position: `:` after a
   * key, `,`/`}` after an object value (a comma only when a new member follows), `,`/`]` after an item, a
   * line break, a comment, or the end of input. `undefined`: the answer needs more input.
   */
  private quoteCloses(role: Role, index: number, innerQuotes: number): boolean | undefined {
    const buffer = this.buffer;
    const length = buffer.length;
    let next = index + 1;
    let crossedLine = false;
    let code = codeAt(buffer, next);
    while (next < length && isWhitespaceCode(code)) {
      if (code === 10) crossedLine = true;
      code = codeAt(buffer, ++next);
    }
    if (next >= length) return this.ended ? true : undefined;
    if (crossedLine) return true;
    if (code === 47 /* / */) {
      // A `/` right at the end of a chunk: wait to see whether it starts a comment.
      if (next + 1 >= length && !this.ended) return undefined;
      const after = codeAt(buffer, next + 1);
      if (after === 47 || after === 42 /* * */) return true;
    }
    switch (role) {
      case "key":
        // A key closes before `:`, `}`, `,`, or before a value after a space (missing colon: `{"a" 1}`).
        return code === 58 /* : */ || code === 125 /* } */ || code === 44 /* , */ || next > index + 1;
      case "item":
        if (code === 93 /* ] */ || code === 125 /* } */) return true;
        // Missing comma before a number item: `["a" 2]`.
        if (next > index + 1 && isDigitCode(code)) return true;
        if (code !== 44 /* , */ && !isQuoteCode(code)) return false;
        // An inner quote still open (`["say "hi", and "bye"", "x"]`) pairs with this one unless the next
        // item starts right after the comma (`["say "hi", "x"]`).
        return innerQuotes % 2 === 0 || (code === 44 && this.quotedItemFollows(next));
      case "value":
        if (code === 125 /* } */ || code === 93 /* ] */) return true;
        if (code === 44 /* , */) return this.memberFollows(next);
        // Missing comma on one line: `{"a": "x" "b": 1}`.
        if (isQuoteCode(code)) return this.quotedKeyFollows(next);
        // Missing comma and the key's opening quote: `{"a": "x"b": 1}`.
        if (next === index + 1 && isIdentifierCode(code)) return this.halfQuotedKeyFollows(next);
        return false;
    }
  }

  /**
   * Whether the quote at `index` closes a value or item and the same quote right after it is a typo
   * (`["red apple"", "green pear""]`): no inner quote is open, and after the second quote comes what
   * fits after a string (`,`, `]`, `}`, the end). Undefined while the text so far cannot tell.
   */
  private doubledCloser(frame: StringFrame, index: number): boolean | undefined {
    const buffer = this.buffer;
    if (frame.role === "key" || frame.innerQuotes % 2 !== 0) return false;
    const length = buffer.length;
    if (index + 1 >= length) return this.ended ? false : undefined;
    if (buffer.charCodeAt(index + 1) !== buffer.charCodeAt(index)) return false;
    let next = index + 2;
    while (next < length && isWhitespaceCode(buffer.charCodeAt(next))) next++;
    if (next >= length) return this.ended ? true : undefined;
    const code = buffer.charCodeAt(next);
    return code === 44 /* , */ || code === 93 /* ] */ || code === 125 /* } */;
  }

  /** After the comma at `index`: does the next item start with a quote? */
  private quotedItemFollows(index: number): boolean | undefined {
    const buffer = this.buffer;
    const length = buffer.length;
    let next = index + 1;
    while (next < length && isWhitespaceCode(buffer.charCodeAt(next))) next++;
    if (next >= length) return this.ended ? true : undefined;
    return isQuoteCode(buffer.charCodeAt(next));
  }

  /**
   * At the line break at `index` inside an unquoted object value: a number or literal ends there
   * (`{"a": 1⏎b: 2}`), and so does text when the next line starts a member (a key and a colon, a comment)
   * or nothing follows; otherwise the next line continues the text (`b: hey world⏎so that we can…,`).
   */
  private valueEndsAtLineBreak(frame: UnquotedFrame, index: number): boolean | undefined {
    // Numbers and literals are short: a long text is not rebuilt at each of its line breaks.
    const written = frame.text.length + index - this.position;
    if (written <= 40 && isScalarToken((frame.text + this.buffer.slice(this.position, index)).trim()))
      return true;
    const buffer = this.buffer;
    const length = buffer.length;
    // A long run of blank space ends the value; the bound keeps each line break's look-ahead constant.
    const limit = index + 64;
    let next = index + 1;
    let code = codeAt(buffer, next);
    while (next < length && isWhitespaceCode(code)) {
      if (next >= limit) return true;
      code = codeAt(buffer, ++next);
    }
    if (next >= length) return this.ended ? true : undefined;
    if (isQuoteCode(code)) return this.quotedKeyFollows(next);
    if (code === 47 /* / */) {
      if (next + 1 >= length) return this.ended ? false : undefined;
      const after = buffer.charCodeAt(next + 1);
      return after === 47 || after === 42 /* * */;
    }
    const keyLimit = Math.min(length, next + 64);
    let scan = next;
    while (scan < keyLimit && isIdentifierCode(buffer.charCodeAt(scan))) scan++;
    if (scan >= length) return this.ended ? false : undefined;
    return scan > next && buffer.charCodeAt(scan) === 58 /* : */;
  }

  /** After the comma at `index`: does a new object member (or the end of the object) follow? */
  private memberFollows(index: number): boolean | undefined {
    const buffer = this.buffer;
    const length = buffer.length;
    let next = index + 1;
    let code = codeAt(buffer, next);
    while (next < length && isWhitespaceCode(code)) {
      if (code === 10) return true;
      code = codeAt(buffer, ++next);
    }
    if (next >= length) return this.ended ? true : undefined;
    if (code === 125 /* } */ || code === 47 /* / */ || code === 44 /* , */) return true;
    if (isQuoteCode(code)) return true;
    // An unquoted key: identifier characters up to a colon (bounded look-ahead), or up to a quote and a
    // colon (a key that lost its opening quote: `"foo",b":"bar"`).
    const limit = Math.min(length, next + 64);
    let scan = next;
    while (scan < limit && isIdentifierCode(buffer.charCodeAt(scan))) scan++;
    if (scan >= length) return this.ended ? false : undefined;
    if (scan > next && isQuoteCode(buffer.charCodeAt(scan))) return this.halfQuotedKeyFollows(next);
    return scan > next && buffer.charCodeAt(scan) === 58 /* : */;
  }

  /** Whether a quoted key and a colon follow at `index` (after blanks); undefined: not known yet. */
  private quotedKeyAt(index: number): boolean | undefined {
    const buffer = this.buffer;
    let next = index;
    while (next < buffer.length && isWhitespaceCode(buffer.charCodeAt(next))) next++;
    if (next >= buffer.length) return this.ended ? false : undefined;
    return isQuoteCode(buffer.charCodeAt(next)) && this.quotedKeyFollows(next);
  }

  /** At a quote: is it a quoted key followed by a colon (within a short window)? */
  private quotedKeyFollows(index: number): boolean | undefined {
    const buffer = this.buffer;
    const length = buffer.length;
    const closer = buffer.charCodeAt(index);
    const pairedCloser = pairedCloserOf(closer);
    const limit = Math.min(length, index + 100);
    let scan = index + 1;
    let code = codeAt(buffer, scan);
    while (scan < limit && code !== closer && code !== pairedCloser && code !== 10)
      code = codeAt(buffer, ++scan);
    if (scan >= length) return this.ended ? false : undefined;
    if (code !== closer && code !== pairedCloser) return false;
    code = codeAt(buffer, ++scan);
    while (scan < length && (code === 32 || code === 9)) code = codeAt(buffer, ++scan);
    if (scan >= length) return this.ended ? false : undefined;
    return code === 58 /* : */;
  }

  /**
   * At an identifier character right after a quote: a key that lost its opening quote, its closing quote
   * and a colon (`b": 1`) within a short window?
   */
  private halfQuotedKeyFollows(index: number): boolean | undefined {
    const buffer = this.buffer;
    const length = buffer.length;
    const limit = Math.min(length, index + 64);
    let scan = index;
    let code = codeAt(buffer, scan);
    while (scan < limit && code !== 32 && isIdentifierCode(code)) code = codeAt(buffer, ++scan);
    if (scan >= length) return this.ended ? false : undefined;
    if (!isQuoteCode(code)) return false;
    code = codeAt(buffer, ++scan);
    while (scan < length && (code === 32 || code === 9)) code = codeAt(buffer, ++scan);
    if (scan >= length) return this.ended ? false : undefined;
    return code === 58 /* : */;
  }

  // ---------------------------------------------------------------------------------------------------
  // Unquoted tokens (keys, values, Python literals, numbers)

  private stepUnquoted(frame: UnquotedFrame): boolean {
    const buffer = this.buffer;
    const length = buffer.length;
    let index = this.position;
    while (index < length) {
      const code = buffer.charCodeAt(index);
      if (code < 128 && PLAIN_TOKEN_CODE[code] === 1) {
        // Fast path: a word or digit character neither ends the token nor is a space.
        frame.pendingSpace = false;
        index++;
        continue;
      }
      const ends = this.endsUnquoted(frame, code, index);
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
      if (isWhitespaceCode(code)) {
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
        if (code === 40 /* ( */ || code === 91 /* [ */) frame.parens++;
        else if ((code === 41 /* ) */ || code === 93) /* ] */ && frame.parens > 0) frame.parens--;
      }
      index++;
    }
    frame.text += buffer.slice(this.position, index);
    this.position = index;
    return true;
  }

  private endsUnquoted(frame: UnquotedFrame, code: number, index: number): boolean | undefined {
    if (code === 10) return frame.role !== "value" || this.valueEndsAtLineBreak(frame, index);
    if (code === 47 /* / */ && (frame.pendingSpace || this.scalarSoFar(frame, index))) {
      // A comment after a space, or right after a number or literal (`{"a":2/*c*/}`).
      if (index + 1 >= this.buffer.length) return this.ended ? false : undefined;
      const next = this.buffer.charCodeAt(index + 1);
      if (next === 47 || next === 42 /* * */) return true;
    }
    switch (frame.role) {
      case "key":
        return code === 58 || code === 125 || code === 44 || code === 123 || code === 91; // : } , { [
      case "item":
        return code === 44 || code === 93 || code === 125 || code === 123 || code === 91; // , ] } { [
      case "value": {
        if (code === 125 /* } */) return true;
        // A `]` closes a list the value is in, unless the value opened it (`f(a: T[])`, `Promise<T[]>`).
        if (code === 93 /* ] */) return frame.parens === 0;
        // Missing comma after an unquoted value: `{"a": 1 "b": 2}`.
        if (frame.pendingSpace && isQuoteCode(code)) return this.quotedKeyFollows(index);
        if (code !== 44 /* , */ || frame.parens > 0) return false;
        // A comma ends a number or literal (`{"a":2,]`, `{"a":2,"b":3,...}`), and text only when a new
        // member follows (`{"a": Smith, John, "b": 1}` keeps "Smith, John").
        // A digit right after the comma keeps the number's text (`1,234`, a decimal comma `1,5`).
        if (this.scalarSoFar(frame, index)) {
          if (index + 1 >= this.buffer.length) return this.ended ? true : undefined;
          if (!isDigitCode(this.buffer.charCodeAt(index + 1))) return true;
        }
        return this.memberFollows(index);
      }
    }
  }

  /** Whether the token read up to `index` is a number or literal (a short token, checked at a comma). */
  private scalarSoFar(frame: UnquotedFrame, index: number): boolean {
    if (frame.text.length + index - this.position > 40) return false;
    return isScalarToken((frame.text + this.buffer.slice(this.position, index)).trim());
  }

  private finishUnquoted(frame: UnquotedFrame, complete: boolean): void {
    this.stack.pop();
    let text = frame.text.trim();
    if (frame.role === "key") {
      // A key that lost only its opening quote (`b": 1`): the closing one is no part of it.
      const last = text.charCodeAt(text.length - 1);
      this.setKey(text.length > 1 && isQuoteCode(last) ? text.slice(0, -1) : text);
      return;
    }
    if (text.length === 0) return;
    // A word that lost only its opening quote (`foo",`): the closing one is no part of it (a number
    // keeps it: `24"` may be inches).
    if (lostOpeningQuote(text)) text = text.slice(0, -1);
    // An ellipsis standing for items left out (`[1, 2, ...]`, `[..., 9]`): no item.
    if (text === "..." || text === "\u2026") {
      this.repair("ellipsis");
      return;
    }
    this.attach(this.scalarFromToken(text, complete, frame.start, this.offset + this.position));
  }

  private scalarFromToken(text: string, complete: boolean, start: number, end: number): JsonishNode {
    // Only a 4- or 5-letter token starting with t, f or n can be a literal: skip lower-casing the rest.
    const first = text.charCodeAt(0) | 0x20;
    if ((text.length === 4 || text.length === 5) && (first === 116 || first === 102 || first === 110)) {
      const lower = text.toLowerCase();
      if (lower === "true" || lower === "false") {
        // Python literals (`True`/`False`) and other capitalisations.
        if (text !== lower) this.repair("python literal");
        return { kind: "bool", value: lower === "true", complete, start, end };
      }
      if (lower === "null" || lower === "none") {
        // Python `None`.
        if (text !== "null") this.repair("python literal");
        return { kind: "null", complete, start, end };
      }
    }
    // JavaScript's `undefined`: no value, as `null` is.
    if (text === "undefined") {
      this.repair("javascript undefined");
      return { kind: "null", complete, start, end };
    }
    const value = numberFromText(text);
    if (!Number.isNaN(value)) return { kind: "number", value, text, complete, start, end };
    // Unquoted value: `{"a": hello world}`.
    this.repair("unquoted value");
    return { kind: "string", value: text, complete, start, end };
  }

  // ---------------------------------------------------------------------------------------------------
  // End of input

  private closeEverything(): void {
    while (this.stack.length > 0) {
      const frame = this.stack.at(-1)!;
      switch (frame.kind) {
        case "string":
          // Unclosed string: keep what was written, a final line break included (the answer was cut
          // inside the string, so the break is part of its text).
          this.repair("unclosed string");
          if (frame.pendingBreak) this.appendText(frame, "\n");
          if (frame.lineBlanks !== "") this.appendText(frame, frame.lineBlanks);
          if (this.closersEndString(frame)) {
            // The closing quote was dropped before closers that balance the text (`{"url":"x.com/}`):
            // the string ends before them (still without its quote: incomplete), and each container
            // they close is whole.
            this.finishString(frame, false);
            while (this.stack.length > 0) this.closeContainer(true);
            break;
          }
          this.finishString(frame, false);
          // A list cut right after an item's opening quote has no item there yet (`["a", "`).
          if (frame.role === "item" && frame.node && isOpenedEmptyString(frame.node) && !frame.triple)
            this.dropLastItem(frame.node);
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

  /**
   * At the end of input, inside an unclosed quoted value: does its text end with closers, one for each
   * open container in order (blanks between), that the text before them does not open? If so they are
   * cut from the string (`["hello, world]`, `{"url":"https://x.com/}`) and true is returned.
   */
  private closersEndString(frame: StringFrame): boolean {
    const node = frame.node;
    if (node === undefined || frame.triple) return false;
    const text = node.value;
    let end = text.length;
    for (let depth = this.stack.length - 2; depth >= 0; depth--) {
      const container = this.stack[depth]!;
      if (container.kind !== "object" && container.kind !== "array") return false;
      while (end > 0 && isWhitespaceCode(text.charCodeAt(end - 1))) end--;
      if (end === 0 || text.charCodeAt(end - 1) !== (container.kind === "object" ? 125 : 93)) return false;
      end--;
    }
    const rest = text.slice(0, end);
    if (
      end === text.length ||
      countOf(rest, "{") > countOf(rest, "}") ||
      countOf(rest, "[") > countOf(rest, "]")
    )
      return false;
    node.value = rest;
    return true;
  }

  /**
   * Where the closers at the end of the buffer start, when they close the containers around the open
   * string in order (innermost first, blanks between): a stream shows them only once more text follows,
   * since at the end of the answer they end the string instead. `length` when there are none.
   */
  private heldClosers(from: number, length: number): number {
    const buffer = this.buffer;
    let start = length;
    while (start > from) {
      const code = buffer.charCodeAt(start - 1);
      if (code !== 125 && code !== 93 && !isWhitespaceCode(code)) break;
      start--;
    }
    while (start < length && isWhitespaceCode(buffer.charCodeAt(start))) start++;
    let depth = this.stack.length - 2;
    for (let at = start; at < length; at++) {
      const code = buffer.charCodeAt(at);
      if (isWhitespaceCode(code)) continue;
      const container = this.stack[depth--];
      if (container?.kind !== (code === 125 ? "object" : "array")) return length;
    }
    return start;
  }

  /** Remove `node`, the last item of the list on top of the stack. */
  private dropLastItem(node: JsonishNode): void {
    const parent = this.stack.at(-1);
    if (parent?.kind === "array" && parent.node.items.at(-1) === node) {
      parent.node.items.pop();
    }
  }

  private repair(name: string): void {
    // (A new array at its size: a root keeps it, and one grown by `push`, or by `[...list, name]`, takes
    // room for 16.)
    if (!this.repairs.includes(name)) this.repairs = this.repairs.concat(name);
  }
}

/** Parse a whole text at once: every top-level container, repaired. */
/** Where `opener` next is in `buffer` from `from`, or the buffer's length. */
function openerAt(buffer: string, opener: string, from: number): number {
  const at = buffer.indexOf(opener, from);
  return at < 0 ? buffer.length : at;
}

export function fixingParse(text: string, work?: WorkCounter, offset = 0): ParsedRoot[] {
  const parser = new FixingParser(offset);
  parser.work = work;
  parser.push(text);
  return parser.end();
}
