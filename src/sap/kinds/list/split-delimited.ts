import { workMeter } from "../../work-meter.js";

const BULLET = /^(?:[-*•+]|\d{1,3}[.)]|[a-z][.)])\s+/;
const CONJUNCTION = /^(?:and|or|&)\s+/i;
const THOUSANDS = /^[+-]?[$€£¥]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;
/** Characters a number with thousands separators is made of (the only texts `THOUSANDS` can match). */
const NUMBER_CHARS = /^[\d,.+\-$€£¥]*$/;
const QUOTED = /^["'](.*)["']$/;
/** Markdown emphasis around a whole line item (`1. **Captain Scoop**`): markup, not text. */
const EMPHASIZED = /^(\*\*|__)(.+)\1$/;
/** The start of a number with thousands separators (`1,2` may yet be `1,234`). */
const THOUSANDS_PREFIX = /^[+-]?[$€£¥]?\d{1,3}(?:,\d{3})*(?:,\d{0,3}|\.\d*)?$/;
/** A piece that starts as a list item whose marker a split removes: a bullet, numbering, a quote. */
/** A bullet or a conjunction not finished yet (the piece is only that so far). */
const OPEN_BULLET = /^(?:[-*•+]|\d{1,3}[.)]?|[a-z][.)]?)$/;
const OPEN_CONJUNCTION = /^(?:a|an|and|o|or|&)$/i;
const MARKED = /^(?:(?:[-*•+]|\d{1,3}[.)]|[a-z][.)])(?:\s|$)|(?:\d{1,3}|[a-z])$|["'])/;

/**
 * Split a string that lists several scalars: one per line (bullets and numbering removed), or separated
 * by `;` or commas, optionally in brackets, with a final `and`/`or`. A comma split is taken only when
 * every piece is short (at most five words) and the pieces do not read as one sentence (a capitalised
 * first piece continued in lower case) — a sentence with a comma is one item, not two. A single
 * number with thousands separators (`"1,234"`) is not a list. Returns undefined when the text is not a
 * list. The rule lives in `DelimitedSplitter`, which streams read incrementally.
 */
export function splitDelimited(text: string): string[] | undefined {
  const splitter = new DelimitedSplitter();
  splitter.update(text);
  const split = splitter.split();
  return split && [...split.done, ...(split.open === undefined ? [] : [split.open])];
}

/** A text read as a list: the pieces before its last delimiter, and the one after it. */
export interface DelimitedSplit {
  /**
   * The pieces before the last delimiter, cleaned. The same array, only appended to, for as long as the
   * text splits at the same delimiter (a streaming reader keeps what it made of them while it is).
   */
  done: readonly string[];
  /** The piece after the last delimiter, cleaned (undefined when empty). */
  open: string | undefined;
  /**
   * The piece after the last delimiter may still lose a marker as it goes on (`'b` becomes `b` once
   * quoted, `an` is gone once it reads `and `, `-` or `2` before a bullet's text): a stream holds it
   * back until its delimiter (or the end of the text) comes.
   */
  openMarked: boolean;
}

/** The pieces of one kind of delimiter (lines, `;`, `,`), as the text grows. */
class Pieces {
  readonly done: string[] = [];
  /** Lines only: the pieces that were bulleted or numbered (once there is one, the others are prose). */
  readonly marked: string[] = [];
  /** Where the piece being written starts in the text. */
  start = 0;
  allShort = true;
  firstUpper = false;
  laterLower = false;
  /** Whitespace-separated words of the piece being written, and whether its last character was blank. */
  words = 0;
  inBlank = true;

  constructor(private readonly lines: boolean) {}

  /** The piece ending at `end` (a delimiter there) is finished. */
  close(text: string, end: number): void {
    const raw = text.slice(this.start, end);
    const piece = this.clean(raw);
    if (piece !== "" && this.lines && BULLET.test(raw.trim())) this.marked.push(piece);
    if (piece !== "") {
      if (!this.lines && wordCount(piece) > 5) this.allShort = false;
      if (this.done.length === 0) this.firstUpper = /^\p{Lu}/u.test(piece);
      else if (/^\p{Ll}/u.test(piece)) this.laterLower = true;
      this.done.push(piece);
    }
    this.start = end + 1;
    this.words = 0;
    this.inBlank = true;
  }

  /** One more character of the piece being written (for its word count). */
  see(code: number): void {
    const blank = isBlank(code);
    if (!blank && this.inBlank) this.words++;
    this.inBlank = blank;
  }

  /** The piece being written, cleaned, and its word count (undefined when it cleans to nothing). */
  open(
    text: string,
  ): { piece: string; words: number; marked: boolean; bullet: boolean; openBullet: boolean } | undefined {
    let raw = text.slice(this.start).trim();
    let words = this.words;
    const openBullet = this.lines && OPEN_BULLET.test(raw);
    const bullet = this.lines && BULLET.test(raw);
    if (this.lines) raw = raw.replace(BULLET, "");
    const marked = openBullet || isQuote(raw[0] ?? "") || OPEN_CONJUNCTION.test(raw);
    const conjunction = CONJUNCTION.exec(raw);
    if (conjunction) {
      raw = raw.slice(conjunction[0].length);
      words--;
    }
    const quoted = raw.length >= 2 && isQuote(raw[0]!) && isQuote(raw[raw.length - 1]!) && QUOTED.test(raw);
    let piece = (quoted ? raw.slice(1, -1) : raw).trim();
    // An item that opens with emphasis may close it: it is held back (marked) until its line ends.
    const emphasis = this.lines && (piece.startsWith("*") || piece.startsWith("_"));
    if (emphasis) piece = piece.replace(EMPHASIZED, "$2").trim();
    if (piece === "") return undefined;
    // A blank next to a stripped quote changes the count; rare, so counted exactly then.
    if (quoted || this.lines) words = wordCount(piece);
    return { piece, words, marked: marked || emphasis, bullet, openBullet };
  }

  private clean(raw: string): string {
    let piece = raw.trim();
    if (this.lines) piece = piece.replace(BULLET, "");
    piece = piece.replace(CONJUNCTION, "").replace(QUOTED, "$1").trim();
    return this.lines ? piece.replace(EMPHASIZED, "$2").trim() : piece;
  }
}

/**
 * `splitDelimited` over a growing text: each character is looked at once, a finished piece is cleaned
 * once, and only the piece being written is cleaned again per update, so a streamed list of n pieces
 * costs O(n) rather than a split of the whole text per chunk. `update` takes the whole text so far
 * (it must extend the previous one).
 */
export class DelimitedSplitter {
  private text = "";
  private scanned = 0;
  private readonly byLine = new Pieces(true);
  private readonly bySemicolon = new Pieces(false);
  private readonly byComma = new Pieces(false);
  /** Non-blank lines before the line being written, and whether that one has a non-blank character. */
  private lines = 0;
  private lineHasText = false;
  private semicolon = false;
  /** The text so far could be a number with thousands separators (only such characters, and blanks). */
  private numberLike = true;
  private first: string | undefined;
  private bracketed: { inner: string; split: DelimitedSplit | undefined } | undefined;

  /** `inner`: the text inside a bracketed list (neither a number nor bracketed again). */
  constructor(private readonly inner = false) {}

  update(text: string): void {
    this.text = text;
    for (let index = this.scanned; index < text.length; index++) {
      const code = text.charCodeAt(index);
      const blank = isBlank(code);
      if (!blank && this.first === undefined) this.first = text[index];
      if (code === 0x0a) {
        if (this.lineHasText) this.lines++;
        this.lineHasText = false;
        this.byLine.close(text, index);
      } else {
        if (!blank) this.lineHasText = true;
        this.byLine.see(code);
      }
      if (code === 0x3b) {
        this.semicolon = true;
        this.bySemicolon.close(text, index);
      } else {
        this.bySemicolon.see(code);
      }
      if (code === 0x2c) this.byComma.close(text, index);
      else this.byComma.see(code);
      if (this.numberLike && !blank && !NUMBER_CHARS.test(text[index]!)) this.numberLike = false;
    }
    workMeter.steps += text.length - this.scanned;
    this.scanned = text.length;
  }

  /**
   * Whether the text so far, if more of it follows, may still be read another way than `split` reads it
   * now: nothing but blanks yet, a number with thousands separators being typed (`1,2`, then `1,234`: not a list), or a single
   * piece that starts with a marker a split removes (`- first`, `1. alpha`, `'a'`: one item as written,
   * `first`, `alpha`, `a` once a second piece makes it a list). A stream shows such a text only once it is
   * finished or has gone past that point.
   */
  undecided(): boolean {
    const text = this.text;
    if (this.first === undefined) return true;
    if (!this.inner && this.numberLike && text.length <= 64 && THOUSANDS_PREFIX.test(text.trim()))
      return true;
    // The marker is at the start: a few characters from the first non-blank one tell.
    const start = text.indexOf(this.first);
    return this.split() === undefined && MARKED.test(text.slice(start, start + 8));
  }

  /** The text so far as a list, or undefined when it does not read as one. */
  split(): DelimitedSplit | undefined {
    const text = this.text;
    if (!this.inner && this.numberLike && THOUSANDS.test(text.trim())) return undefined;
    if (!this.inner && this.first === "[") {
      const body = text.trim();
      if (body.endsWith("]")) {
        // A bracketed list: the same rule over the text inside (rare in a stream: a `[` there usually
        // opens a JSON list, read as JSON).
        const inner = body.slice(1, -1);
        if (this.bracketed?.inner !== inner) {
          const splitter = new DelimitedSplitter(true);
          splitter.update(inner);
          this.bracketed = { inner, split: splitter.split() };
        }
        return this.bracketed.split;
      }
    }
    const lines = this.lines + (this.lineHasText ? 1 : 0);
    const mode = lines >= 2 ? "lines" : this.semicolon ? ";" : ",";
    const pieces = mode === "lines" ? this.byLine : mode === ";" ? this.bySemicolon : this.byComma;
    const open = pieces.open(text);
    if (mode === "lines" && (pieces.marked.length > 0 || (open?.bullet === true && pieces.done.length > 0))) {
      // Some lines are bulleted or numbered: they are the items, the lines around them (`Here are the
      // items:`, `These are fruits.`) are prose. A line being written may yet be a bullet: held back.
      const item = open?.bullet === true || open?.openBullet === true ? open : undefined;
      return { done: pieces.marked, open: item?.piece, openMarked: item?.marked === true };
    }
    const count = pieces.done.length + (open ? 1 : 0);
    if (count < 2) return undefined;
    if (mode !== "lines") {
      const short = pieces.allShort && (open === undefined || open.words <= 5);
      // "Shipped the platform, raising coverage to 22%": a capitalised start continued in lower case is
      // one sentence, not a list.
      const continues =
        pieces.firstUpper &&
        (pieces.laterLower || (open !== undefined && pieces.done.length > 0 && /^\p{Ll}/u.test(open.piece)));
      if (!short || continues) return undefined;
    }
    return { done: pieces.done, open: open?.piece, openMarked: open?.marked === true };
  }
}

function wordCount(piece: string): number {
  return piece.split(/\s+/).length;
}

function isQuote(char: string): boolean {
  return char === '"' || char === "'";
}

/** What `\s` (and `String.prototype.trim`) treat as blank. */
function isBlank(code: number): boolean {
  if (code < 0x80) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return /\s/.test(String.fromCharCode(code));
}
