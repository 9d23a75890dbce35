import { workMeter } from "../work-meter.js";

/**
 * What the line readers (`Sections`, `LabelLines`) ask of the line being written, kept from what each push
 * adds to it: V8 copies a string grown by concatenation whole the first time any of its characters is read
 * (`trim`, a regular expression, `charCodeAt`, `slice`), so a long line read at every chunk would cost the
 * square of its length (docs/decisions/0051, 0053). Together, `lead`, `trimmed` and the blanks after it are
 * the line; `value` follows the part of it after a label's colon (or a tag), once that is decided.
 */
export class WrittenLine {
  /** The blanks before its first character that is not one (all of it, while it is blank). */
  lead = "";
  /** The line without blanks at either end: grown by what each push adds, never read whole here. */
  trimmed = "";
  /** `trimmed`'s first and last characters ("" while the line is blank), and its first few. */
  first = "";
  last = "";
  opening = "";
  /**
   * While `trimmed` ends with a comma: `trimmed` without it and the blanks before it, and that text's last
   * character (a value's last comma is not the value's, `trimmedScalar`).
   */
  beforeComma: { text: string; last: string } | undefined;
  /** The line's text after `at` (`follow`): a label's value, what follows an opening tag. */
  value: WrittenLine | undefined;
  private blanks = "";

  reset(line: string): void {
    this.lead = this.trimmed = this.first = this.last = this.opening = this.blanks = "";
    this.value = this.beforeComma = undefined;
    this.add(line);
  }

  add(text: string): void {
    workMeter.steps += text.length;
    this.value?.add(text);
    const end = text.trimEnd().length;
    if (end === 0) {
      if (this.first === "") this.lead += text;
      else this.blanks += text;
      return;
    }
    // (What this text adds to `trimmed` starts at `start`; `trimmed` and its last character before it.)
    let start = 0;
    const earlier = this.trimmed;
    const earlierLast = this.last;
    const before = this.first === "" ? "" : earlier + this.blanks;
    if (this.first === "") {
      start = text.length - text.trimStart().length;
      this.lead += text.slice(0, start);
      this.trimmed = text.slice(start, end);
      this.first = this.trimmed[0]!;
    } else this.trimmed = before + text.slice(0, end);
    if (text[end - 1] === ",") {
      const piece = text.slice(start, end - 1).trimEnd();
      this.beforeComma =
        piece !== "" ? { text: before + piece, last: piece.at(-1)! } : { text: earlier, last: earlierLast };
    } else this.beforeComma = undefined;
    if (this.opening.length < 8) this.opening = this.trimmed.slice(0, 8);
    this.blanks = text.slice(end);
    this.last = text[end - 1]!;
  }

  /**
   * From now on `value` follows `rest`, the line's text after some point (read once, here: a line is
   * decided while it is short), and what each push adds after it.
   */
  follow(rest: string): WrittenLine {
    const value = new WrittenLine();
    value.add(rest);
    this.value = value;
    return value;
  }

  /** The line as written, put together from its parts (a concatenation: none of it is read). */
  get text(): string {
    return this.lead + this.trimmed + this.blanks;
  }
}

/** What `WrittenLine` knows of `line`, for a line not kept as one (a short one, or one read once). */
export function lineOf(line: string): WrittenLine {
  const written = new WrittenLine();
  written.add(line);
  return written;
}
