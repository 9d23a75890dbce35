/**
 * The streaming twin of candidate extraction's text splitting: it cuts a model's answer, as it arrives,
 * into prose and markdown-fenced regions, each read by its own resumable `FixingParser`, so every chunk is
 * scanned once and no region is ever re-read (a fence that opens and closes within one push may be read
 * by `JSON.parse` instead: see `AnswerRegion`). A small state machine (prose → fence header → fence → prose)
 * whose only look-ahead is the few characters that decide a fence boundary: a chunk ending in one or two
 * backticks, a fence's info line, or the rest of a closing fence's line wait for the next chunk.
 *
 * The rules are the fence rule's (`lenient/fence-rule.ts`),
 * decided with only the text so far: a run of backticks waits until it ends; an opening run asks the prose
 * reader, a closing run the fence's own reader, each fed the text up to the run; only a run that closes
 * the fence if its line ends (in code, or in plain text) waits for the rest of that line. Pushing a text
 * in one chunk or in any split leaves the scanner in the same state (the agreement the one-shot partial
 * parse relies on).
 */
import {
  backtickRun,
  closesFence,
  isLineBlank,
  lineEndsAfter,
  type OpenFence,
  opensFence,
  outsideAfter,
  readFenceHeader,
  readsAsJson,
} from "../lenient/fence-rule.js";
import type { ArrayNode, ObjectNode } from "../lenient/jsonish-node.js";
import { parseStrictJson, type StrictJson } from "../lenient/parse-strict-json.js";
import { AnswerRegion, type WholeReader } from "./answer-region.js";

export { AnswerRegion } from "./answer-region.js";

type Mode = "prose" | "header" | "fence";

function isBlank(char: string): boolean {
  return isLineBlank(char.charCodeAt(0));
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
  /** The fence being read (its opening run and whether its content is JSON), in modes header and fence. */
  private fence: OpenFence = { run: 3, json: true, inline: false };
  /** `end` was called: what waited for more text is decided as at the end of the answer. */
  private ended = false;

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

  /**
   * The container the answer's first region (prose, from the start: its offsets are the answer's) read
   * whole over exactly `[start, end)`, if any (`AnswerLines.root`): found by halving, roots in order.
   */
  rootAt(start: number, end: number): ObjectNode | ArrayNode | undefined {
    const roots = this.regions[0]!.roots;
    let first = 0;
    for (let high = roots.length; first < high; ) {
      const middle = (first + high) >> 1;
      if (roots[middle]!.start < start) first = middle + 1;
      else high = middle;
    }
    const root = roots[first];
    return root?.start === start && root.end === end && root.node.complete ? root.node : undefined;
  }

  /** How many characters at the end of the answer are held back (a possible fence marker or header). */
  get heldLength(): number {
    return this.held.length;
  }

  /**
   * Append a chunk of the answer and assign as much of it as can be decided (`last`: the answer ends with
   * it, as `end` then says: nothing waits for more, so a fence closed at the very end is read whole).
   */
  push(chunk: string, last = false): void {
    this.held += chunk;
    if (last) {
      this.end();
      return;
    }
    let progress = true;
    while (progress && this.held.length > 0) {
      if (this.mode === "prose") progress = this.scanProse();
      else if (this.mode === "header") progress = this.scanHeader();
      else progress = this.scanFence();
    }
  }

  /**
   * The answer is complete: what was held back is decided as final mode decides it at the end of the
   * text (backticks at the end are a run that ends there, a fence's info line and a closing run's line
   * end with the text), and the last region ends (its reader closes what is open).
   */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    let progress = true;
    while (progress && (this.held.length > 0 || this.mode === "header")) {
      if (this.mode === "prose") progress = this.scanProse();
      else if (this.mode === "header") progress = this.scanHeader();
      else progress = this.scanFence();
    }
    const last = this.current;
    if (last.kind === "fence" && last.contentEnd < 0) last.contentEnd = this.offset;
    last.end();
  }

  /** Backticks at the end of `text` that wait for more (none once the answer has ended). */
  private waiting(text: string): number {
    return this.ended ? 0 : trailingBackticks(text);
  }

  private scanProse(): boolean {
    const text = this.held;
    const marker = text.indexOf("```");
    if (marker < 0) return this.assign(text.length - this.waiting(text));
    // Text before the marker goes to the prose reader first: its state decides whether this is a fence.
    const run = backtickRun(text, marker);
    if (marker + run >= text.length && !this.ended) return this.assign(marker); // the run may go on
    this.assign(marker);
    if (!opensFence(this.lineStart, this.current.parser)) {
      // Backticks inside a JSON value, mid-line (a code sample in a string): content, not a fence.
      return this.assign(run);
    }
    this.current.end();
    this.take(run);
    this.lineStart = false;
    this.mode = "header";
    this.fence = { run, json: true, inline: false };
    this.current = this.openRegion("fence", this.offset - run);
    return true;
  }

  /** After the opening backticks: the tag, then content starts on the next line (or after the tag). */
  private scanHeader(): boolean {
    const header = readFenceHeader(this.held, 0, this.ended);
    if (header === undefined) return false;
    this.current.tag = header.tag;
    // A one-line fence (```json {"a": 1}```) has its content right after the tag.
    this.lineStart = header.contentStart > header.tag.length;
    this.fence = { run: this.fence.run, json: readsAsJson(header.tag), inline: !this.lineStart };
    this.take(header.contentStart);
    this.current.contentStart = this.offset;
    this.mode = "fence";
    return true;
  }

  /** Inside a fence: a run of backticks closes it, or not, by the fence rule. */
  private scanFence(): boolean {
    const text = this.held;
    const marker = text.indexOf("```");
    if (marker < 0) return this.assign(text.length - this.waiting(text));
    const run = backtickRun(text, marker);
    if (marker + run >= text.length && !this.ended) return this.assign(marker); // the run may go on
    let beginsLine = this.lineStart;
    for (let index = marker; index > 0; index--) {
      const char = text[index - 1]!;
      if (char === "\n") {
        beginsLine = true;
        break;
      }
      if (!isBlank(char)) {
        beginsLine = false;
        break;
      }
    }
    // (A fence's inline content ends with its line, in text held or given to it before: `inline`.)
    if (this.fence.inline && text.lastIndexOf("\n", marker) >= 0) this.fence.inline = false;
    // The content up to the run: read whole when it may be (valid JSON arriving with its closing run in
    // one piece, which is then outside any value), else given to the fence's reader, which is asked.
    let assigned = false;
    let whole: StrictJson | undefined;
    const decision = closesFence(this.fence, run, beginsLine, () => {
      whole = this.wholeContent(text.slice(0, marker));
      if (whole !== undefined) return outsideAfter(whole.value);
      this.assign(marker);
      assigned = true;
      return this.current.parser;
    });
    let closes = decision === "closes";
    if (decision === "closes-if-line-ends") {
      const ends = lineEndsAfter(text, marker + run, this.ended);
      // Whether this closes the fence depends on what follows on its line.
      if (ends === undefined) return assigned ? marker > 0 : this.assign(marker);
      closes = ends;
    }
    if (!closes) return this.assign(assigned ? run : marker + run);
    if (!assigned) this.assign(marker, true, whole);
    this.current.contentEnd = this.offset;
    this.current.end();
    this.current.closed = true;
    this.take(run);
    this.lineStart = false;
    this.mode = "prose";
    this.current = this.openRegion("prose", this.offset);
    return true;
  }

  /** A fence's whole content, arrived in one piece, as `pushWhole` may read it: valid JSON, parsed. */
  private wholeContent(text: string): StrictJson | undefined {
    if (this.readWhole === undefined || this.current.contentLength !== 0) return undefined;
    // `\b` and `\f` before a letter are LaTeX to the fixing parser (`\beta`), escapes to `JSON.parse`.
    if (text.includes("\\b") || text.includes("\\f")) return undefined;
    return parseStrictJson(text);
  }

  /**
   * Give the first `length` held characters to the current region (`closing`: the rest of a fence's
   * content, its closing run follows; `strict`: that content parsed, when it is valid JSON). Returns
   * whether any were given.
   */
  private assign(length: number, closing = false, strict?: StrictJson): boolean {
    if (length <= 0) return false;
    const text = this.held.slice(0, length);
    if (closing && this.readWhole !== undefined) this.current.pushWhole(text, this.readWhole, strict);
    else this.current.push(text);
    if (this.current.kind === "fence") {
      this.current.contentLength += length;
      if (this.keepContent) this.current.keep(text);
      if (this.fence.inline && text.includes("\n")) this.fence.inline = false;
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

/** How many backticks (at most two) end `text`: they may begin a fence marker, so they wait. */
function trailingBackticks(text: string): number {
  let keep = 0;
  while (keep < 2 && text[text.length - 1 - keep] === "`") keep++;
  return keep;
}
