import { workMeter } from "../../work-meter.js";

/**
 * Final mode reads an answer that is one quoted string (`"solo"`, also with a raw line break, in single or
 * smart quotes, or with an inner apostrophe as in `'it's here'`) as the string inside the quotes, not as
 * text with quotes around it (`parseStrictJson` and `quotedAnswer` in end-candidates), and a fence
 * holding nothing else likewise (`readQuoted` there, `AnswerRegion.quoted` in a stream). This is the
 * streaming side of the same rule: it decodes such an answer as it arrives, one pass over each chunk, and
 * gives up for good as soon as the text cannot be one quoted string any more (text right after the
 * closing quote, an escape JSON does not have): from then on the answer is plain text, as in final mode.
 * A closing quote followed at once by a letter or digit was an inner one (`it's`); a closing `"` followed
 * by blanks and more text may be a stray one, decided by the quotes the answer ends with (`state`).
 */
export class QuotedAnswer {
  private mode: "maybe" | "open" | "closed" | "no" | "stray" = "maybe";
  private decoded = "";
  /**
   * After a closing `"`, blanks and more text (`"The TV has a 24" screen"`): the text from that quote on,
   * as written, while the answer may still end on a quote that makes the quote inside a stray one.
   */
  private stray = "";
  /** Double quotes in the answer so far once `stray` (the opening and the first closing one included). */
  private strayQuotes = 0;
  /** Where the last quote of `stray` stands while only blanks follow it (-1: something else does). */
  private strayEnd = -1;
  /** Blanks read after the closing quote. */
  private closeBlanks = "";
  /** Quotes read as inner ones so far (a letter right after them: `it's`). */
  private innerQuotes = 0;

  /**
   * `maybe`: only blanks so far; `open`/`closed`: one JSON string, its closing quote not seen / seen. An
   * answer in double quotes with an odd number of quotes inside (`"The TV has a 24" screen"`) is closed
   * too: the quote inside is a stray one (paired inner quotes, `"a" or "b"`, are no quoted answer).
   */
  get state(): "maybe" | "open" | "closed" | "no" {
    if (this.mode !== "stray") return this.mode;
    return this.strayQuotes % 2 === 1 && this.strayEnd >= 0 ? "closed" : "no";
  }

  /** The decoded text so far (while `open` or `closed`). */
  get value(): string {
    if (this.mode !== "stray") return this.decoded;
    return this.state === "closed" ? this.decoded + this.stray.slice(0, this.strayEnd) : "";
  }
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
    if (this.mode === "no") return;
    if (this.mode === "stray") {
      this.pushStray(text, 0);
      return;
    }
    let from = 0;
    let index = 0;
    const length = text.length;
    let decoded = "";
    while (index < length) {
      const char = text.charCodeAt(index);
      if (this.mode === "maybe") {
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
        this.mode = "open";
        from = ++index;
        continue;
      }
      if (this.mode === "closed") {
        if (!this.afterClose && isWordCharacter(char)) {
          // The quote was an inner one (`it's`): it belongs to the value, which goes on.
          this.repaired = true;
          this.innerQuotes++;
          decoded += String.fromCharCode(this.closer);
          this.mode = "open";
          from = index;
          continue;
        }
        if (!isBlank(char)) {
          if (!this.afterClose || this.closer !== QUOTE) {
            this.giveUp(index);
            return;
          }
          // More text after the quote and blanks: the quote may be a stray one inside the answer.
          this.mode = "stray";
          this.repaired = true;
          this.decoded += decoded;
          this.stray = `"${this.closeBlanks}`;
          this.strayQuotes = 2 + this.innerQuotes;
          this.pushStray(text, index);
          return;
        }
        this.afterClose = true;
        this.closeBlanks += text[index];
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
        this.mode = "closed";
        this.afterClose = false;
        this.closeBlanks = "";
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
    if (this.mode === "open" && this.escape === "") decoded += text.slice(from);
    this.decoded += decoded;
    workMeter.steps += length;
  }

  /** Reads `text` from `from` on as the rest of an answer that may end on a quote (`stray`). */
  private pushStray(text: string, from: number): void {
    const start = this.stray.length - from;
    for (let index = from; index < text.length; index++) {
      const char = text.charCodeAt(index);
      if (char === QUOTE) {
        this.strayQuotes++;
        this.strayEnd = start + index;
      } else if ((char > 0x20 && char < 0x7f) || !isBlank(char)) this.strayEnd = -1;
    }
    this.stray += from === 0 ? text : text.slice(from);
    workMeter.steps += text.length - from;
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
    this.mode = "no";
    this.decoded = "";
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
