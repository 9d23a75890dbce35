import { workMeter } from "../work-meter.js";

/**
 * Final mode reads an answer that is one JSON string (`"solo"`) as that string, not as text with quotes
 * around it (`parseStrictJson`: the whole answer is valid JSON). This is the streaming side of the same
 * rule: it decodes such an answer as it arrives, one pass over each chunk, and gives up for good as soon
 * as the text cannot be one JSON string any more (a character after the closing quote, a raw line break,
 * an escape JSON does not have): from then on the answer is plain text, as in final mode.
 */
export class QuotedAnswer {
  /** `maybe`: only blanks so far; `open`/`closed`: one JSON string, its closing quote not seen / seen. */
  state: "maybe" | "open" | "closed" | "no" = "maybe";
  /** The decoded text so far (while `open` or `closed`). */
  value = "";
  /** An escape cut by the end of a chunk (`\`, `\u00`). */
  private escape = "";

  push(text: string): void {
    if (this.state === "no") return;
    workMeter.steps += text.length;
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
        if (char !== QUOTE) {
          this.giveUp();
          return;
        }
        this.state = "open";
        from = ++index;
        continue;
      }
      if (this.state === "closed") {
        if (!isBlank(char)) {
          this.giveUp();
          return;
        }
        index++;
        continue;
      }
      if (this.escape !== "") {
        // Finish an escape cut by the previous chunk.
        this.escape += text[index];
        index++;
        const done = this.readEscape();
        if (done === undefined) {
          this.giveUp();
          return;
        }
        if (done === "") continue;
        decoded += done;
        from = index;
        continue;
      }
      if (char === QUOTE) {
        decoded += text.slice(from, index);
        this.state = "closed";
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
      // JSON has no raw control characters in strings: final mode would read this as plain text.
      if (char < 0x20) {
        this.giveUp();
        return;
      }
      index++;
    }
    if (this.state === "open" && this.escape === "") decoded += text.slice(from);
    this.value += decoded;
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

  private giveUp(): void {
    this.state = "no";
    this.value = "";
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SIMPLE: Record<string, string> = {
  '"': '"',
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
