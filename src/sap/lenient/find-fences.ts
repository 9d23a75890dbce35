import type { WorkCounter } from "../work-counter.js";

/** A markdown code fence found in a model's answer. */
export interface Fence {
  /** The info string after the opening backticks (`json`, `ts`, or empty). */
  tag: string;
  content: string;
  /** Offset of `content` in the text. */
  contentStart: number;
  /** Offsets of the whole fence (backticks included) in the text. */
  start: number;
  end: number;
  /** False when the answer ended before the closing backticks. */
  closed: boolean;
}

const TAG = /^[A-Za-z0-9_+.-]*/;

/** How many later closing lines are tried when the first one cuts a JSON value in half. */
const CLOSING_RETRIES = 3;

/**
 * Every ``` fence, with or without a language tag, closed or not. With `opens`, a ``` opens a fence only
 * when it says so (the stream's rule: not mid-line inside a JSON value of the prose before it, where it
 * is text of that value; `proseStart` is where that prose began). A closing fence is the first ``` that
 * ends its line (so backticks inside a JSON string, which never end a line, do not cut the block); failing
 * that, the next ``` anywhere (one-line fences); failing that, the fence runs to the end of the text.
 * With `isWhole`, a closing line that leaves the content's JSON unfinished (a code block inside a JSON
 * string written with raw line breaks) gives way to one of the next few that finishes it.
 *
 * Linear in the text: each search resumes where an earlier one can be reused (`work` counts the
 * characters scanned), so an answer of thousands of unclosed fences costs no more than one.
 */
export function findFences(
  text: string,
  isWhole?: (content: string, contentStart: number) => boolean,
  work?: WorkCounter,
  opens?: (open: number, proseStart: number) => boolean,
): Fence[] {
  const search = new FenceSearch(text, work);
  const fences: Fence[] = [];
  let from = 0;
  let proseStart = 0;
  while (from < text.length) {
    const open = search.find("```", from);
    if (open < 0) break;
    if (opens && !opens(open, proseStart)) {
      // Backticks inside a JSON value in the prose, mid-line: text of that value, not a fence.
      from = open + 3;
      continue;
    }
    const tag = TAG.exec(text.slice(open + 3, open + 64))?.[0] ?? "";
    let contentStart = open + 3 + tag.length;
    const lineEnd = search.nextNewline(contentStart);
    if (search.blankUntil(contentStart, lineEnd < 0 ? text.length : lineEnd)) {
      contentStart = lineEnd < 0 ? text.length : lineEnd + 1;
    }
    // A fence whose content starts on its own line (```json {…}```) closes on that line if it can.
    let sameLine = -1;
    if (lineEnd >= 0 && contentStart <= lineEnd) {
      const next = search.find("```", contentStart);
      if (next >= 0 && next + 3 <= lineEnd) sameLine = next;
    }
    let close = sameLine >= 0 ? sameLine : search.closing(contentStart);
    if (isWhole && sameLine < 0 && close >= 0 && !isWhole(text.slice(contentStart, close), contentStart)) {
      let later = close;
      for (let attempt = 0; attempt < CLOSING_RETRIES; attempt++) {
        later = search.lineEndingClosing(later + 3);
        if (later < 0) break;
        if (isWhole(text.slice(contentStart, later), contentStart)) {
          close = later;
          break;
        }
      }
    }
    if (close < 0) {
      const content = text.slice(contentStart);
      fences.push({ tag, content, contentStart, start: open, end: text.length, closed: false });
      break;
    }
    const content = text.slice(contentStart, close);
    fences.push({ tag, content, contentStart, start: open, end: close + 3, closed: true });
    from = close + 3;
    proseStart = from;
  }
  return fences;
}

/**
 * The searches `findFences` makes, without rescanning: the next line break is remembered (an answer
 * with no line breaks would otherwise be scanned to its end once per fence), and so is the closing line
 * found from each ``` (otherwise every unclosed fence would scan on to the end of the text).
 */
class FenceSearch {
  private newlineFrom = -1;
  private newlineAt = -1;
  /** For a ``` at some offset that does not end its line: the line-ending ``` the search from it finds. */
  private readonly closingAfter = new Map<number, number>();

  constructor(
    private readonly text: string,
    private readonly work: WorkCounter | undefined,
  ) {}

  /** `text.indexOf(needle, from)`, counted. */
  find(needle: string, from: number): number {
    const found = this.text.indexOf(needle, from);
    if (this.work) this.work.steps += (found < 0 ? this.text.length : found) - from + 1;
    return found;
  }

  /** The next line break at or after `from`, or -1. */
  nextNewline(from: number): number {
    // A search from an earlier offset that found a break at or after `from` (or none) answers this one.
    if (this.newlineFrom < 0 || this.newlineFrom > from || (this.newlineAt >= 0 && this.newlineAt < from)) {
      this.newlineFrom = from;
      this.newlineAt = this.find("\n", from);
    }
    return this.newlineAt;
  }

  /** Whether `text[start, end)` is only whitespace (as `trim` sees it); stops at the first other character. */
  blankUntil(start: number, end: number): boolean {
    for (let index = start; index < end; index++) {
      if (this.work) this.work.steps++;
      if (!WHITESPACE.test(this.text[index]!)) return false;
    }
    return true;
  }

  /** The first ``` that ends its line, else the next ``` anywhere, else -1. */
  closing(from: number): number {
    const closing = this.lineEndingClosing(from);
    return closing >= 0 ? closing : this.find("```", from);
  }

  /** The next ``` at or after `from` that ends its line, or -1. */
  lineEndingClosing(from: number): number {
    const text = this.text;
    const visited: number[] = [];
    let result = -1;
    let candidate = this.find("```", from);
    while (candidate >= 0) {
      const known = this.closingAfter.get(candidate);
      if (known !== undefined) {
        result = known;
        break;
      }
      visited.push(candidate);
      let after = candidate + 3;
      while (after < text.length && (text[after] === " " || text[after] === "\t" || text[after] === "\r"))
        after++;
      if (this.work) this.work.steps += after - candidate;
      if (after >= text.length || text[after] === "\n") {
        result = candidate;
        break;
      }
      candidate = this.find("```", candidate + 3);
    }
    for (const offset of visited) this.closingAfter.set(offset, result);
    return result;
  }
}

const WHITESPACE = /\s/;
