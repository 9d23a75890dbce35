/**
 * Of several equally good readings of an answer, the first is the answer (models state it, then explain or
 * give examples; in recorded function-calling runs the first object was right 11 times in 12), unless:
 * - a later one follows more final-answer markers: `Final Answer:`, `**Final answer**:`, `Final:`,
 *   `Corrected:`, `Actual answer:` anywhere, or a line that starts with an `Answer:` or `Output:` label
 *   (`Example format: {…}⏎⏎Answer: {…}` is the second object; `Answer: {draft}⏎Final answer: {…}` too);
 * - the earlier one is an example: `example`, `e.g.` or `for instance` before it on its line, or on the
 *   line before it when that line ends with a colon (`For example:⏎{…}`), or a line that starts with a
 *   format lead-in (`Format:`, `Expected format:`). An example ranks below a reading that is none.
 * One rule, consulted by final mode (`parseValue`) and streams (`preferable`); each reads the answer with
 * a `FinalAnswerMarker` fed its text, chunk by chunk.
 *
 * (The end of a reasoning block is the other marker: the text after it is read first, see
 * `reasoning-blocks.ts`. A fence over prose is decided by rank before order.)
 */
const MARKER =
  /\b(?:final(?:\s+answer)?|corrected(?:\s+answer)?|actual\s+answer)\s*\**\s*[:：]|\n[ \t]*(?:[#>*_]+[ \t]*)?(?:answer|output)[ \t]*\**[ \t]*[:：]/gi;
/** An example lead-in on a line (its end is where the example may start). */
const EXAMPLE =
  /\b(?:for\s+example|for\s+instance|examples?|e\.g\.)|\n[ \t]*(?:[#>*_]+[ \t]*)?(?:(?:example|expected|output|response|answer)[ \t]+)?format[ \t]*\**[ \t]*[:：]/gi;
const BLANK = /\s/;
const WORD = /\w/;
/** The longest marker or lead-in worth carrying over a chunk boundary. */
const CARRY = 40;

/** Finds the final-answer markers and example lead-ins of an answer, chunk by chunk. */
export class FinalAnswerMarker {
  /** Where each final-answer marker ends, in order. */
  private readonly markers: number[] = [];
  /** Example zones: a lead-in's end, and the end of the line it is on (or of the next non-blank line). */
  private readonly examples: { start: number; end: number }[] = [];
  /** The text carried over from the last chunk, a line break standing for the answer's start. */
  private tail = "\n";
  private length = 0;
  /** The example zone of the line being read, while it is open (its end not known yet). */
  private open: { start: number; end: number } | undefined;
  /** The last zone's line ended with a colon: it runs on through the next line with text. */
  private throughNext = false;
  /** The last character that was not a blank on the open zone's line. */
  private lastSolid = "";

  /** Text pushed and not looked at yet: read when a level is asked for (most answers never ask). */
  private unread = "";

  push(chunk: string): void {
    this.unread += chunk;
  }

  /** Read the text pushed since the last look (one piece: the same markers as chunk by chunk). */
  private catchUp(): void {
    const chunk = this.unread;
    if (chunk === "") return;
    this.unread = "";
    const before = this.length;
    this.length += chunk.length;
    const leadIns: number[] = [];
    this.find(chunk, before, MARKER, this.markers);
    this.find(chunk, before, EXAMPLE, leadIns);
    if (leadIns.length > 0 || this.open !== undefined || this.throughNext) this.lines(chunk, before, leadIns);
    this.tail = chunk.length >= CARRY ? chunk.slice(-CARRY) : (this.tail + chunk).slice(-CARRY);
  }

  /**
   * The ends of `pattern`'s matches that end in `chunk` (at `before` in the answer), added to `ends`:
   * those that start in the text carried over, then those in the chunk itself (read apart: a regular
   * expression over the two joined runs many times slower on a long chunk).
   */
  private find(chunk: string, before: number, pattern: RegExp, ends: number[]): void {
    const tail = this.tail;
    const start = before - tail.length;
    for (const found of (tail + chunk.slice(0, CARRY)).matchAll(pattern)) {
      const end = start + found.index + found[0].length;
      if (found.index < tail.length && end > before) ends.push(end);
    }
    // (A match at the chunk's start needs a word boundary there: not inside a word cut in two.)
    const inWord = WORD.test(tail.at(-1)!);
    const from = ends.length;
    for (const found of chunk.matchAll(pattern)) {
      if (found.index === 0 && inWord && found[0][0] !== "\n") continue;
      ends.push(before + found.index + found[0].length);
    }
    // (A match from the carried text may end after one in the chunk: the ends stay in order.)
    if (from > 0 && ends.length > from && ends[from - 1]! > ends[from]!) ends.sort((a, b) => a - b);
  }

  /**
   * Reads the chunk (`before`: where it starts) where zones are: an example zone opens at a lead-in and
   * ends with its line, or runs on through the next line with text when its line ends with a colon. Only
   * the lines of zones are looked at: an answer with no lead-in costs nothing here.
   */
  private lines(chunk: string, before: number, leadIns: number[]): void {
    let from = 0;
    let next = 0;
    for (;;) {
      const zone = this.open;
      if (zone !== undefined) {
        const lineEnd = chunk.indexOf("\n", from);
        const end = lineEnd < 0 ? chunk.length : lineEnd;
        // (The last character of the line that is no blank, looked for from its end.)
        let solid = end - 1;
        while (solid >= from && BLANK.test(chunk[solid]!)) solid--;
        if (solid >= from) this.lastSolid = chunk[solid]!;
        if (lineEnd < 0) return;
        zone.end = before + lineEnd;
        this.open = undefined;
        this.throughNext = this.lastSolid === ":" || this.lastSolid === "\uff1a";
        this.lastSolid = "";
        from = lineEnd + 1;
      } else if (this.throughNext) {
        // The line after an example's lead-in that ended with a colon: the example itself.
        while (from < chunk.length && BLANK.test(chunk[from]!)) from++;
        if (from >= chunk.length) return;
        this.throughNext = false;
        const last = this.examples.at(-1)!;
        last.end = Number.POSITIVE_INFINITY;
        this.open = last;
      } else {
        // (Lead-ins on a line already in a zone open no other.)
        while (next < leadIns.length && leadIns[next]! < before + from) next++;
        const leadIn = leadIns[next];
        if (leadIn === undefined) return;
        this.open = { start: leadIn, end: Number.POSITIVE_INFINITY };
        this.examples.push(this.open);
        from = leadIn - before;
      }
    }
  }

  /** How many final-answer markers end at or before `order` (a position in the answer). */
  markersBefore(order: number): number {
    this.catchUp();
    const markers = this.markers;
    let count = 0;
    while (count < markers.length && markers[count]! <= order) count++;
    return count;
  }

  /** Whether a reading at `order` is an example (a reading past the text read is none). */
  isExample(order: number): boolean {
    this.catchUp();
    if (order >= this.length) return false;
    for (let index = this.examples.length - 1; index >= 0; index--) {
      const zone = this.examples[index]!;
      if (zone.start <= order) return order <= zone.end;
    }
    return false;
  }

  /**
   * How a reading at `order` ranks on equal scores: twice the markers before it, plus one unless it is an
   * example. Fixed once the text before the reading has been read (a stream reads it before the reading).
   */
  level(order: number): number {
    return 2 * this.markersBefore(order) + (this.isExample(order) ? 0 : 1);
  }
}

/**
 * Whether a reading at `order` (its position in the answer) with `level` (see `FinalAnswerMarker.level`)
 * beats an equally good one at `bestOrder` with `bestLevel`: the higher level wins (after more markers,
 * or no example where the other is one), else the earlier one; at the same position, the one read last
 * (a finer reading of the same text).
 */
export function earlierOrMarked(order: number, level: number, bestOrder: number, bestLevel: number): boolean {
  if (level !== bestLevel) return level > bestLevel;
  return order <= bestOrder;
}
