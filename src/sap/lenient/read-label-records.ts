import type { ArrayNode, JsonishNode, ObjectNode } from "./jsonish-node.js";
import { indentOf } from "./read-yaml-block.js";

/** What reads one record's lines (`LabelLines`, with one label enough to show an object). */
export interface RecordReader {
  push(text: string): void;
  end(): void;
  node(): JsonishNode | undefined;
  /** Label lines read whole so far. */
  readonly labelCount: number;
}

/** Past this many characters a line's start is decided (as `LabelLines` decides a label). */
const DECIDED = 200;
const NOT_BLANK = /\S/;
/** A bullet or a list number (`1.`, `2)`) opening a line, and the blank after it. */
const RULE = /^\s*(?:-{3,}|\*{3,}|_{3,})\s*$/;
const MARKER = /^\s*(?:[-*•]|\d{1,3}[.)])\s/;

interface Start {
  /** `bullet`: `- key:` (or `1. key:`) at `indent`; `block`: a label with no bullet at `indent`. */
  form: "bullet" | "block";
  indent: number;
  key: string;
  /** The key's column (after a bullet). */
  column: number;
  /** A label with no bullet inside a bullet's record, at its key's column (`- name: Ann⏎  age: 31⏎  name: Bob`). */
  inner?: boolean;
}

/**
 * Label lines that are a list of records (YAML's sequence of mappings, or blocks of label lines apart):
 * `- name: Ann⏎  age: 31⏎- name: Bob⏎  age: 45`, or `name: Ann⏎age: 31⏎⏎name: Bob⏎age: 45`. A record
 * starts where a first record of at least two labels started: a bullet label (or list number) at its
 * bullet's column, or, after a blank line (or a `---` line), a label with no bullet at its indentation
 * writing its first key again; inside a bullet's record of two labels, its first key written again at its
 * key's column starts the next record too (`- name: Ann⏎  age: 31⏎  name: Bob⏎  age: 45`). Each record's
 * lines (its bullet read as a blank) are read by a `RecordReader` of their own, so a key written again in
 * the next record starts that record instead of replacing the first one's value (the last key winning, in
 * one object, would drop every record but the last without a word). Lines before the first record are a
 * lead-in; a line that is not the last record's (not indented under its bullet, or a block starting with
 * another key) ends the list.
 *
 * The text grows: each line's start is decided once (at its first colon, its end, or past `DECIDED`
 * characters), and its text then goes to its record as it arrives, so a stream shows each record as it is
 * written, and the list only grows (records are appended; once a second one starts, the list stays).
 */
export class LabelRecords {
  private readonly list: ArrayNode = { kind: "array", items: [], complete: false };
  /** The records read: while fewer than two, only a candidate first record (`first`). */
  private readonly records: RecordReader[] = [];
  private first: Start | undefined;
  /** The key the last record started with (in lower case). */
  private lastKey: string | undefined;
  /** Where the line being written goes: a record, `null` (nowhere), `undefined` (not decided yet). */
  private target: RecordReader | null | undefined;
  /** The line being written starts a record (its bullet reads as a blank). */
  private starts = false;
  /** The line being written, while its start is not decided. */
  private held = "";
  /** The previous line was blank (or there was none yet). */
  private blankBefore = true;
  /** The line being written has a non-blank character. */
  private lineHasText = false;
  /** A line that is not the last record's was read after the second record: nothing more is read. */
  private done = false;
  /** Changes whenever `node` may have. */
  changes = 0;

  /**
   * `reader`: a new record's reader; `labelKey`: the key of a label line (`LabelLines`' rule), else
   * undefined; `repeated`: records start where the first key is written again, with no blank line or
   * bullet needed (`name: Ann⏎age: 31⏎name: Bob⏎age: 45`; a second reading of the lines, beside one
   * object, since a key written again may as well be a correction: see `LabelLines.repeats`).
   */
  constructor(
    private readonly reader: () => RecordReader,
    private readonly labelKey: (line: string) => string | undefined,
    private readonly repeated = false,
  ) {}

  /** The key every record starts with (in lower case), once a first record started. */
  get firstKey(): string | undefined {
    return this.first?.key;
  }

  /** Label lines read whole in the last record. */
  get lastLabels(): number {
    return this.last?.labelCount ?? 0;
  }

  /** How many records started (a first candidate counts). */
  get recordCount(): number {
    return this.records.length;
  }

  /** Two records started: the answer is a list of them. */
  get active(): boolean {
    return this.records.length >= 2;
  }

  push(text: string): void {
    let from = 0;
    while (from < text.length) {
      const lineEnd = text.indexOf("\n", from);
      const end = lineEnd < 0 ? text.length : lineEnd + 1;
      this.add(text.slice(from, end), lineEnd >= 0);
      from = end;
    }
  }

  end(): void {
    if (this.target === undefined && this.held !== "") this.decide(true);
    this.last?.end();
    this.list.complete = true;
    this.changes++;
  }

  /** The list, once two records started (items appended as their objects show); else undefined. */
  node(): ArrayNode | undefined {
    if (!this.active) return undefined;
    const items = this.list.items;
    const shown = items.length;
    for (let at = shown; at < this.records.length; at++) {
      const node = this.records[at]!.node();
      if (node === undefined) break;
      items.push(node);
    }
    // (The last record shown before shows its line being written, in place: see `LabelLines.node`.)
    if (shown === this.records.length) this.last?.node();
    return this.list;
  }

  /** A piece of one line (`ends`: with its line break). */
  private add(piece: string, ends: boolean): void {
    if (this.done) return;
    if (!this.lineHasText && NOT_BLANK.test(piece)) this.lineHasText = true;
    if (this.target === undefined) {
      this.held += piece;
      if (ends || this.held.includes(":") || this.held.length > DECIDED) this.decide(ends);
    } else if (this.target !== null) {
      this.target.push(piece);
      this.changes++;
    }
    if (!ends) return;
    this.blankBefore = !this.lineHasText;
    this.lineHasText = false;
    this.target = undefined;
  }

  /** The held line's start is decided (`whole`: the line ended): where it goes. */
  private decide(whole: boolean): void {
    const line = this.held;
    // (`key:` or `key:/` at the end may yet be `key://…`, which is no label.)
    if (!whole && line.length <= DECIDED && /:\/?$/.test(line)) return;
    this.held = "";
    // (Its line break is no part of the line as a label reads it.)
    this.target = this.route(whole ? withoutBreak(line) : line);
    if (this.target !== null) {
      // (A bullet starting a record reads as a blank: its label is at the record's indentation.)
      this.target.push(this.starts ? unbulleted(line) : line);
      this.changes++;
    }
  }

  private get last(): RecordReader | undefined {
    return this.records.at(-1);
  }

  /** Where a line goes: the last record, a new one, or nowhere (`null`). */
  private route(line: string): RecordReader | null {
    // (A rule line, `---`, parts records as a blank line does.)
    const text = NOT_BLANK.test(line) && !RULE.test(line);
    if (!text) this.lineHasText = false;
    const start = text ? this.startOf(line) : undefined;
    const first = this.first;
    const last = this.last;
    this.starts = false;
    if (first !== undefined && last !== undefined && start !== undefined && this.startsRecord(start, first))
      return this.started(start);
    // A lone label with no value before the first record (`Here are the people:`) is a lead-in.
    if (this.repeated && start !== undefined && this.records.length === 1 && leadIn(last!)) {
      this.records.length = 0;
      this.first = start;
      return this.started(start);
    }
    if (last !== undefined && (!text || this.continues(line, first!, start))) return last;
    if (this.active) {
      this.done = true;
      return null;
    }
    // A first record starts (again): the earlier candidate, if any, had no second one. (Emptied only when
    // there is one: V8 sets an array's length in the runtime, and most lines of prose come here.)
    if (last) this.records.length = 0;
    this.first = start;
    return start === undefined ? null : this.started(start);
  }

  private started(start: Start): RecordReader {
    this.lastKey = start.key;
    // The record before is finished: no more lines go to it (a stream ranks a finished item as whole).
    this.last?.end();
    const record = new HeldRecord(this.reader);
    this.records.push(record);
    this.starts = true;
    return record;
  }

  /** A line that may start a record: a bullet label, or a label with no bullet first in its block. */
  private startOf(line: string): Start | undefined {
    // (Whether it may start one at all first: a line with no colon has no label, and most lines of a block
    // may not, and need no key.)
    if (!line.includes(":")) return undefined;
    const bullet = MARKER.test(line);
    const first = this.first;
    // (Inside a bullet's record, a label at its key's column may write the first key again.)
    const inner = !this.repeated && !bullet && first?.form === "bullet" && indentOf(line) === first.column;
    if (!inner && !this.repeated && !bullet && !this.blankBefore) return undefined;
    const bare = unbulleted(line);
    const key = this.labelKey(bare);
    if (key === undefined) return undefined;
    // (Read for repeated keys, a bullet is no mark of a record: `- name: Ann⏎- age: 31⏎- name: Bob`.)
    const form = (bullet && !this.repeated) || inner ? "bullet" : "block";
    const indent = inner ? first!.indent : indentOf(line);
    return { form, indent, key: key.toLowerCase(), column: indentOf(bare), inner };
  }

  /**
   * Whether `start` starts a record: a bullet label at the first one's column, or the first key written
   * again (with no bullet at the first's indentation), or inside a bullet's record, at its key's column,
   * the key that record started with, once the first record (inside a bullet: this one) has two labels.
   */
  private startsRecord(start: Start, first: Start): boolean {
    if (start.form !== first.form || start.indent !== first.indent) return false;
    if (start.inner) return start.key === this.lastKey && this.last!.labelCount >= 2;
    if (this.records[0]!.labelCount < 2) return false;
    return start.form === "bullet" || start.key === first.key;
  }

  /**
   * Whether a line with text (`start`: the record it may start) is the last record's. Before a second
   * record, a bullet label after a first record with no bullet starts a candidate of its own (a lead-in
   * such as `Here are the people:` is a label too).
   */
  private continues(line: string, first: Start, start: Start | undefined): boolean {
    if (first.form === "bullet") return indentOf(line) > first.indent;
    if (this.repeated) return true;
    if (!this.active && start?.form === "bullet") return false;
    return !this.blankBefore;
  }
}

/** A line with its opening bullet or list number (see `MARKER`) read as blanks, as wide. */
function unbulleted(line: string): string {
  const marker = MARKER.exec(line)?.[0];
  return marker === undefined ? line : marker.replace(/\S/g, " ") + line.slice(marker.length);
}

/** A line without the line break (`\n` or `\r\n`) at its end. */
function withoutBreak(line: string): string {
  if (!line.endsWith("\n")) return line;
  return line.slice(0, line.endsWith("\r\n") ? -2 : -1);
}

/**
 * A record's reader made when first asked about the record (its labels, its object): until then its text
 * is only kept. The first record of most label lines is all of them, and no second record ever starts:
 * they were read twice, once as the answer and once as that record, though the record is never asked for.
 */
class HeldRecord implements RecordReader {
  private reader: RecordReader | undefined;
  private held = "";
  private ended = false;

  constructor(private readonly make: () => RecordReader) {}

  push(text: string): void {
    if (this.reader !== undefined) this.reader.push(text);
    else this.held += text;
  }

  end(): void {
    this.ended = true;
    this.reader?.end();
  }

  node(): JsonishNode | undefined {
    return this.read().node();
  }

  get labelCount(): number {
    return this.read().labelCount;
  }

  private read(): RecordReader {
    if (this.reader === undefined) {
      this.reader = this.make();
      this.reader.push(this.held);
      this.held = "";
      if (this.ended) this.reader.end();
    }
    return this.reader;
  }
}

/** A record of one label that has no value (nothing after its colon, no bullet under it yet). */
function leadIn(record: RecordReader): boolean {
  if (record.labelCount !== 1) return false;
  const node = record.node();
  if (node?.kind !== "object" || node.entries.length !== 1) return false;
  const value = node.entries[0]![1];
  return value.kind === "null" || (value.kind === "array" && value.items.length === 0);
}

/**
 * Whether a sections reading (one object) writes a key again where label lines read the same text as a
 * list of records (`labels`: its node an array) or as an object that lost a record to a key written again
 * (`overwritten`): its last key would win over every record but the last, so it is no reading of the
 * answer (final mode and streams both ask).
 */
export function sectionsOverRecords(
  sections: ObjectNode | ArrayNode,
  labels: { node: JsonishNode; overwritten: string | undefined } | undefined,
): boolean {
  if (labels === undefined || sections.kind !== "object") return false;
  if (labels.node.kind !== "array" && labels.overwritten === undefined) return false;
  const first = firstKeyOf(labels.node);
  const keys = new Set<string>();
  for (const [key, value] of sections.entries) {
    const folded = key.toLowerCase();
    if (keys.has(folded) || (folded === first && runsOver(value, first))) return true;
    keys.add(folded);
  }
  return false;
}

/** The first key (in lower case) of a list of records' first record. */
function firstKeyOf(node: JsonishNode): string | undefined {
  const record = node.kind === "array" ? node.items[0] : undefined;
  return record?.kind === "object" ? record.entries[0]?.[0].toLowerCase() : undefined;
}

/**
 * A sections value that runs over a later `key:` (a bullet's records read as the first key's text, its
 * lines folded: `- name: Ann⏎  age: 31⏎  name: Bob` → `Ann age: 31 name: Bob`).
 */
function runsOver(value: JsonishNode, key: string): boolean {
  return value.kind === "string" && /\s/.test(value.value) && value.value.toLowerCase().includes(` ${key}:`);
}
