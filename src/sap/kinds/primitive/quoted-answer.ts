import { workMeter } from "../../work-meter.js";

/**
 * Final mode reads an answer that is one quoted string (`"solo"`, also with a raw line break, in single or
 * smart quotes, or with an inner apostrophe as in `'it's here'`) as the string inside the quotes, not as
 * text with quotes around it (`parseStrictJson` and `quotedAnswer` in extract-candidates), and a fence
 * holding nothing else likewise (`readQuoted` there, `AnswerRegion.quoted` in a stream). This is the
 * streaming side of the same rule: it decodes such an answer as it arrives, one pass over each chunk, and
 * gives up for good as soon as the text cannot be one quoted string any more (a blank and then more text
 * after the closing quote, an escape JSON does not have): from then on the answer is plain text, as in
 * final mode. A closing quote followed at once by a letter or digit was an inner one (`it's`).
 */
export class QuotedAnswer {
  /** `maybe`: only blanks so far; `open`/`closed`: one JSON string, its closing quote not seen / seen. */
  state: "maybe" | "open" | "closed" | "no" = "maybe";
  /** The decoded text so far (while `open` or `closed`). */
  value = "";
  /**
   * JSON would not take it as written (another quote than `"`, an inner quote, a raw control character):
   * final mode then reads it beside the containers inside it rather than instead of them.
   */
  repaired = false;
  /** An escape cut by the end of a chunk (`\`, `\u00`). */
  private escape = "";
  /** The quote that closes the string, known once it opened (`"`, `'` or `”`). */
  private closer = QUOTE;
  /** Whether anything (a blank) came after the closing quote. */
  private afterClose = false;

  push(text: string): void {
    if (this.state === "no") return;
    let from = 0;
    let index = 0;
    const length = text.length;
    let decoded = "";
    while (index < length) {
      const char = text.charCodeAt(index);
      if (this.state === "maybe") {
        if (isBlank(char)) {
          index++;
          continue;
        }
        const closer = OPENERS.get(char);
        if (closer === undefined) {
          this.giveUp(index);
          return;
        }
        this.closer = closer;
        if (char !== QUOTE) this.repaired = true;
        this.state = "open";
        from = ++index;
        continue;
      }
      if (this.state === "closed") {
        if (!this.afterClose && isWordCharacter(char)) {
          // The quote was an inner one (`it's`): it belongs to the value, which goes on.
          this.repaired = true;
          decoded += String.fromCharCode(this.closer);
          this.state = "open";
          from = index;
          continue;
        }
        if (!isBlank(char)) {
          this.giveUp(index);
          return;
        }
        this.afterClose = true;
        index++;
        continue;
      }
      if (this.escape !== "") {
        // Finish an escape cut by the previous chunk.
        this.escape += text[index];
        index++;
        const done = this.readEscape();
        if (done === undefined) {
          this.giveUp(index);
          return;
        }
        if (done === "") continue;
        decoded += done;
        from = index;
        continue;
      }
      if (char === this.closer) {
        decoded += text.slice(from, index);
        this.state = "closed";
        this.afterClose = false;
        index++;
        continue;
      }
      if (char === BACKSLASH) {
        decoded += text.slice(from, index);
        this.escape = "\\";
        index++;
        from = index;
        continue;
      }
      if (char < 0x20) this.repaired = true;
      index++;
    }
    if (this.state === "open" && this.escape === "") decoded += text.slice(from);
    this.value += decoded;
    workMeter.steps += length;
  }

  /** The escape read so far: its character, "" while it needs more, undefined when JSON has no such one. */
  private readEscape(): string | undefined {
    const written = this.escape;
    if (written.length < 2) return "";
    const letter = written[1]!;
    if (letter !== "u") {
      this.escape = "";
      return SIMPLE[letter];
    }
    if (written.length < 6) return /^\\u[0-9a-fA-F]*$/.test(written) ? "" : undefined;
    this.escape = "";
    return /^\\u[0-9a-fA-F]{4}$/.test(written)
      ? String.fromCharCode(Number.parseInt(written.slice(2), 16))
      : undefined;
  }

  private giveUp(scanned: number): void {
    // (The characters read before giving up are the work done: not the rest of a long chunk.)
    workMeter.steps += scanned + 1;
    this.state = "no";
    this.value = "";
  }
}

const QUOTE = 0x22;
/** Opening quotes of a whole quoted answer and the quote that closes each (as `ANSWER_QUOTES` in final mode). */
const OPENERS = new Map<number, number>([
  [QUOTE, QUOTE],
  [0x27, 0x27],
  [0x201c, 0x201d],
]);
const BACKSLASH = 0x5c;
const SIMPLE: Record<string, string> = {
  '"': '"',
  "'": "'",
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/** What `String.prototype.trim` removes (final mode trims before `JSON.parse`). */
function isBlank(char: number): boolean {
  return /\s/.test(String.fromCharCode(char)) || char === 0xfeff;
}

function isWordCharacter(char: number): boolean {
  return /[\p{L}\p{N}]/u.test(String.fromCharCode(char));
}
