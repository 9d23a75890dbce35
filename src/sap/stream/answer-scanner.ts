/**
 * The streaming twin of candidate extraction's text splitting: it cuts a model's answer, as it arrives,
 * into prose and markdown-fenced regions, each read by its own resumable `FixingParser`, so every chunk is
 * scanned once and no region is ever re-read (a fence that opens and closes within one push may be read
 * by `JSON.parse` instead: see `AnswerRegion`). A small state machine (prose → fence header → fence → prose)
 * whose only look-ahead is the few characters that decide a fence boundary: a chunk ending in one or two
 * backticks, a fence's info line, or the rest of a closing fence's line wait for the next chunk.
 *
 * The rules follow `findFences`, decided with only the text so far: a ``` opens a fence when the prose
 * reader is outside any JSON value, or when the backticks begin their line (a code sample inside a JSON
 * string is not a fence); the info string is the tag; a fence closes at a ``` whose line ends after it. Pushing a text in one chunk or in any split
 * leaves the scanner in the same state (the agreement the one-shot partial parse relies on).
 */
import { AnswerRegion, type WholeReader } from "./answer-region.js";

export { AnswerRegion } from "./answer-region.js";

type Mode = "prose" | "header" | "fence";

const TAG_CHAR = /[A-Za-z0-9_+.-]/;

function isBlank(char: string): boolean {
  return char === " " || char === "\t" || char === "\r";
}

/** Splits a streamed answer into regions; see the file header. */
export class AnswerScanner {
  readonly regions: AnswerRegion[] = [];
  private mode: Mode = "prose";
  /** Text received but not yet assigned to a region (a possible fence marker, header or closer). */
  private held = "";
  /** Offset of `held[0]` in the answer. */
  private offset = 0;
  /** The region receiving text now (always the last one). */
  private current: AnswerRegion;
  /** Only blanks were assigned since the last line break (a ``` here begins its line). */
  private lineStart = true;

  /**
   * `keepContent`: keep each fence's text (plain-text targets read it); a typed target reads only the
   * fences' parsed values, and keeping a second copy of a long answer as it grows would only cost memory.
   * `readWhole`: reads a fence that opens and closes within one push as `JSON.parse` does (see
   * `AnswerRegion`); without it every fence goes through the fixing parser.
   */
  constructor(
    private readonly keepContent = true,
    private readonly readWhole?: WholeReader,
  ) {
    this.current = this.openRegion("prose", 0);
  }

  /** How many characters at the end of the answer are held back (a possible fence marker or header). */
  get heldLength(): number {
    return this.held.length;
  }

  /** A fence has opened and nothing of its content has arrived yet. */
  get fenceStarting(): boolean {
    return this.current.kind === "fence" && this.current.contentLength === 0;
  }

  /** Append a chunk of the answer and assign as much of it as can be decided. */
  push(chunk: string): void {
    this.held += chunk;
    let progress = true;
    while (progress && this.held.length > 0) {
      if (this.mode === "prose") progress = this.scanProse();
      else if (this.mode === "header") progress = this.scanHeader();
      else progress = this.scanFence();
    }
  }

  private scanProse(): boolean {
    const text = this.held;
    const marker = text.indexOf("```");
    if (marker < 0) {
      // Keep up to two trailing backticks: they may be the start of a fence marker.
      let keep = 0;
      while (keep < 2 && text[text.length - 1 - keep] === "`") keep++;
      return this.assign(text.length - keep);
    }
    // Text before the marker goes to the prose reader first: its state decides whether this is a fence.
    this.assign(marker);
    if (this.current.parser.insideValue && !this.lineStart) {
      // Backticks inside a JSON value, mid-line (a code sample in a string): content, not a fence.
      return this.assign(3);
    }
    this.current.end();
    this.take(3);
    this.lineStart = false;
    this.mode = "header";
    this.current = this.openRegion("fence", this.offset - 3);
    return true;
  }

  /** After the opening backticks: the tag, then content starts on the next line (or after the tag). */
  private scanHeader(): boolean {
    const text = this.held;
    let index = 0;
    while (index < text.length && TAG_CHAR.test(text[index]!)) index++;
    if (index >= text.length) return false;
    let rest = index;
    while (rest < text.length && isBlank(text[rest]!)) rest++;
    if (rest >= text.length) return false;
    this.current.tag = text.slice(0, index);
    if (text[rest] === "\n") {
      this.take(rest + 1);
      this.lineStart = true;
    } else {
      // A one-line fence (```json {"a": 1}```): the content starts right after the tag.
      this.take(index);
      this.lineStart = false;
    }
    this.mode = "fence";
    return true;
  }

  /** Inside a fence: a ``` closes it when only blanks follow it on its line. */
  private scanFence(): boolean {
    const text = this.held;
    let from = 0;
    for (;;) {
      const marker = text.indexOf("```", from);
      if (marker < 0) {
        let keep = 0;
        while (keep < 2 && text[text.length - 1 - keep] === "`") keep++;
        return this.assign(text.length - keep);
      }
      let after = marker + 3;
      while (after < text.length && isBlank(text[after]!)) after++;
      if (after >= text.length) {
        // Whether this closes the fence depends on what follows on its line.
        return this.assign(marker);
      }
      if (text[after] !== "\n") {
        from = marker + 3;
        continue;
      }
      this.assign(marker, true);
      this.current.end();
      this.current.closed = true;
      this.take(3);
      this.lineStart = false;
      this.mode = "prose";
      this.current = this.openRegion("prose", this.offset);
      return true;
    }
  }

  /**
   * Give the first `length` held characters to the current region (`closing`: the rest of a fence's
   * content, its closing line follows). Returns whether any were given.
   */
  private assign(length: number, closing = false): boolean {
    if (length <= 0) return false;
    const text = this.held.slice(0, length);
    if (closing && this.readWhole !== undefined) this.current.pushWhole(text, this.readWhole);
    else this.current.push(text);
    if (this.current.kind === "fence") {
      this.current.contentLength += length;
      if (this.keepContent) this.current.content += text;
    }
    this.take(length);
    for (let index = text.length - 1; index >= 0; index--) {
      const char = text[index]!;
      if (char === "\n") {
        this.lineStart = true;
        break;
      }
      if (!isBlank(char)) {
        this.lineStart = false;
        break;
      }
    }
    return true;
  }

  /** Drop the first `length` held characters (already handled). */
  private take(length: number): void {
    this.held = this.held.slice(length);
    this.offset += length;
  }

  private openRegion(kind: "prose" | "fence", start: number): AnswerRegion {
    const region = new AnswerRegion(kind, start);
    this.regions.push(region);
    return region;
  }
}
