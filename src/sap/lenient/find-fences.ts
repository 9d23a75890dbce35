/** A markdown code fence found in a model's answer. */
export interface Fence {
  /** The info string after the opening backticks (`json`, `ts`, or empty). */
  tag: string;
  content: string;
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
 * Every ``` fence, with or without a language tag, closed or not. A closing fence is the first ``` that
 * ends its line (so backticks inside a JSON string, which never end a line, do not cut the block); failing
 * that, the next ``` anywhere (one-line fences); failing that, the fence runs to the end of the text.
 * With `isWhole`, a closing line that leaves the content's JSON unfinished (a code block inside a JSON
 * string written with raw line breaks) gives way to one of the next few that finishes it.
 */
export function findFences(text: string, isWhole?: (content: string) => boolean): Fence[] {
  const fences: Fence[] = [];
  let from = 0;
  while (from < text.length) {
    const open = text.indexOf("```", from);
    if (open < 0) break;
    const tag = TAG.exec(text.slice(open + 3, open + 64))?.[0] ?? "";
    let contentStart = open + 3 + tag.length;
    const lineEnd = text.indexOf("\n", contentStart);
    if (text.slice(contentStart, lineEnd < 0 ? text.length : lineEnd).trim() === "") {
      contentStart = lineEnd < 0 ? text.length : lineEnd + 1;
    }
    // A fence whose content starts on its own line (```json {…}```) closes on that line if it can.
    const sameLine =
      lineEnd >= 0 && contentStart <= lineEnd ? text.slice(contentStart, lineEnd).indexOf("```") : -1;
    let close = sameLine >= 0 ? contentStart + sameLine : findClosing(text, contentStart);
    if (isWhole && sameLine < 0 && close >= 0 && !isWhole(text.slice(contentStart, close))) {
      let later = close;
      for (let attempt = 0; attempt < CLOSING_RETRIES; attempt++) {
        later = lineEndingClosing(text, later + 3);
        if (later < 0) break;
        if (isWhole(text.slice(contentStart, later))) {
          close = later;
          break;
        }
      }
    }
    if (close < 0) {
      fences.push({ tag, content: text.slice(contentStart), start: open, end: text.length, closed: false });
      break;
    }
    fences.push({ tag, content: text.slice(contentStart, close), start: open, end: close + 3, closed: true });
    from = close + 3;
  }
  return fences;
}

function findClosing(text: string, from: number): number {
  const closing = lineEndingClosing(text, from);
  return closing >= 0 ? closing : text.indexOf("```", from);
}

/** The next ``` that ends its line, or -1. */
function lineEndingClosing(text: string, from: number): number {
  let search = from;
  while (search < text.length) {
    const candidate = text.indexOf("```", search);
    if (candidate < 0) break;
    let after = candidate + 3;
    while (after < text.length && (text[after] === " " || text[after] === "\t" || text[after] === "\r"))
      after++;
    if (after >= text.length || text[after] === "\n") return candidate;
    search = candidate + 3;
  }
  return -1;
}
