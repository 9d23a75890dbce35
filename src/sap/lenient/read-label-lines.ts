import { workMeter } from "../work-meter.js";
import type { ArrayNode, JsonishNode, ObjectNode, StringNode } from "./jsonish-node.js";
import { LabelRecords } from "./read-label-records.js";
import { type BlockHeader, blockScalarHeader, blockScalarText, indentOf } from "./read-yaml-block.js";
import { lineOf, WrittenLine } from "./written-line.js";

/** `key: value` (optionally bulleted or bold), the key one to five words. */
export const LABEL_LINE =
  /^\s*(?:[-*•]\s+)?(?:\*\*)?["']?([\p{L}\p{N}_][\p{L}\p{N}_ -]{0,40}?)["']?(?:\*\*)?\s*:(?!\/\/)(?:\*\*)?\s*([^\n\r]*)$/u;
export const BULLET = /^\s*(?:[-*•+]|\d{1,3}[.)])\s+(.*)$/;
/** Beyond this many characters a line's label (`LABEL_LINE`'s key, markers and colon) is decided. */
export const LABEL_DECIDED = 200;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * An answer written as `key: value` lines instead of JSON (YAML-ish, or "Name: Ann" prose), read as one
 * object. A key with nothing after its colon collects the bullet lines under it as a list. Returns
 * undefined unless at least two lines are labels, so a lone "Note: …" in prose is not taken for data.
 * The rule lives in `LabelLines`, which streams read line by line.
 */
export function readLabelLines(text: string): ObjectNode | ArrayNode | undefined {
  return readLabelReading(text)?.node;
}

/** What label lines read (`LabelLines` ended): the object or list, and the records a repeated key starts. */
export interface LabelReading {
  node: ObjectNode | ArrayNode;
  repeats: ArrayNode | undefined;
  overwritten: string | undefined;
}

/** The readings of `text` as label lines (see `LabelReading`), or undefined (fewer than two labels). */
export function readLabelReading(text: string): LabelReading | undefined {
  const lines = new LabelLines();
  lines.push(text);
  lines.end();
  return labelReading(lines);
}

/** What `lines` read so far (see `LabelReading`), or undefined while it reads no object. */
export function labelReading(lines: LabelLines | undefined): LabelReading | undefined {
  const node = lines?.node();
  if (node === undefined) return undefined;
  return { node, repeats: lines!.repeats(), overwritten: lines!.overwritten };
}

/**
 * A fence's content read as `key: value` lines (a ```yaml block): `FenceLabelLines` over the whole
 * content, as final mode reads each fence (`containers`: how many containers the fence holds).
 */
export function readFenceLabelLines(content: string, containers: number): LabelReading | undefined {
  const lines = new FenceLabelLines();
  lines.push(content, containers);
  lines.end();
  return lines.reading();
}

/**
 * Label lines in a fence, the one rule final mode (`readFenceLabelLines`) and a stream's fence regions
 * (`AnswerRegion`, fed as its content arrives) follow: a fence's content is read as label lines only
 * while it holds no container. JSON in a fence is read as JSON, never as labels; once a container has
 * opened in the fence, its lines are not read any more.
 */
export class FenceLabelLines {
  private lines: LabelLines | undefined = new LabelLines();

  /** The fence's next text; `containers`: how many containers the fence holds, this text read. */
  push(text: string, containers: number): void {
    if (containers > 0) this.lines = undefined;
    this.lines?.push(text);
  }

  /** The fence closed: its last line is read, and the object is complete. */
  end(): void {
    this.lines?.end();
  }

  /** The object, once two lines are labels and while the fence holds no container; else undefined. */
  node(): ObjectNode | ArrayNode | undefined {
    return this.lines?.node();
  }

  /** The readings of the fence's lines (see `LabelReading`), while it holds no container. */
  reading(): LabelReading | undefined {
    return labelReading(this.lines);
  }

  /**
   * A number that changes whenever the object `node` gives may have (0 while there is none), so a
   * stream re-reads the fence only then, not on every line of a fence that is not label lines.
   */
  get changes(): number {
    const lines = this.lines;
    return lines?.node() ? lines.changes * 2 + 1 : 0;
  }
}

/**
 * `readLabelLines` over a growing text: each line is read once, when it ends (a line break, or `end`).
 * The object grows in place, as the fixing parser's nodes do: entries are only appended, and a list
 * under a key is complete once a line that is not one of its bullets follows. While the answer is still
 * arriving the object is incomplete, and the line being written counts toward the two labels it takes.
 * A label line being written whose key was written before starts that key's value over at once, as
 * `Sections` shows it (`pendingLabel`): the last key wins, so what the earlier one showed goes now, not
 * when the line ends (the sections reading of the same lines shows it so; final mode reads the line whole).
 * Lines that are a list of records (`LabelRecords`: `- name: Ann⏎  age: 31⏎- name: Bob⏎…`) are that list
 * once a second record starts, not one object whose last key wins.
 */
/** The lines of one record (`LabelLines.records`). */
const recordLines = (): LabelLines => new LabelLines({ records: false, minLabels: 1 });
/** The lines of one record of `LabelLines.repeated`: it starts at a key the object shows as it is written. */
const repeatedRecordLines = (): LabelLines =>
  new LabelLines({ records: false, minLabels: 1, showOpen: true });

export class LabelLines {
  private readonly object: ObjectNode = { kind: "object", entries: [], complete: false };
  private openList: ArrayNode | undefined;
  /** A YAML block scalar (`key: |`) being read: its header, key's indentation, lines and node. */
  private block: { header: BlockHeader; indent: number; lines: string[]; node: StringNode } | undefined;
  private labels = 0;
  /** The same lines read as a list of records (not for a record's own lines). */
  private readonly records: LabelRecords | undefined;
  /** The same lines read as records that start where the first key is written again (`repeats`). */
  private readonly repeated: LabelRecords | undefined;
  /** The keys read so far, in lower case. */
  private readonly keys = new Set<string>();
  /** The line being written, whether it has a non-blank character, and (once long) whether it is a label. */
  private line = "";
  /** What is known of `line` without reading it (see `WrittenLine`); its `value`, a long label's value. */
  private readonly written = new WrittenLine();
  private lineHasText = false;
  private lineIsLabel: boolean | undefined;
  /** The key of the line being written, once long (null: not a label), and whether it is a bullet. */
  private lineKey: string | null | undefined;
  private lineBullet: boolean | undefined;
  /** How many lines were read. */
  lines = 0;
  /** Changes whenever `node` may have: a line read, or text added to a line that writes a key again. */
  changes = 0;
  /** The entry of the line being written, in the object while that line writes a key again, and `changes` then. */
  private pending: [string, JsonishNode] | undefined;
  private shownAt = -1;

  /**
   * `records`: also read the lines as a list of records; `minLabels`: how many label lines make an
   * object (one, for a record's lines).
   */
  constructor(options: { records?: boolean; minLabels?: number; showOpen?: boolean } = {}) {
    this.minLabels = options.minLabels ?? 2;
    this.showOpen = options.showOpen ?? false;
    if (options.records !== false) {
      this.records = new LabelRecords(recordLines, labelKey);
      this.repeated = new LabelRecords(repeatedRecordLines, labelKey, true);
    }
  }

  private readonly minLabels: number;
  /** Show the label line being written whatever its key (else only a key written again; see `openKey`). */
  private readonly showOpen: boolean;

  /** Label lines read whole so far. */
  get labelCount(): number {
    return this.labels;
  }

  /** The last line has text and no line break yet: its value may still go on. */
  get lineOpen(): boolean {
    return this.lineHasText;
  }

  push(text: string): void {
    workMeter.steps += text.length;
    const rest = text.slice(text.lastIndexOf("\n") + 1);
    let restarted = this.line === "";
    this.line = readLines(this.line, text, (line) => {
      this.line = "";
      restarted = true;
      this.lineHasText = false;
      this.lineIsLabel = undefined;
      this.lineKey = undefined;
      this.lineBullet = undefined;
      this.read(line);
    });
    if (restarted) this.written.reset(this.line);
    else this.written.add(text);
    if (!this.lineHasText && rest.trim() !== "") this.lineHasText = true;
    if (this.lineHasText && this.openKey() !== undefined) this.changes++;
    for (const records of [this.records, this.repeated]) {
      if (records === undefined) continue;
      const before = records.changes;
      records.push(text);
      if (records.active && records.changes !== before) this.changes++;
    }
  }

  /** The text is complete: its last line is read, and the object is complete. */
  end(): void {
    const line = this.line;
    this.line = "";
    // (A text ending in a line break has no last line to read: no blank line is made up at the end.)
    this.lineHasText = false;
    if (line !== "" || this.block === undefined) this.read(line);
    this.endBlock();
    this.object.complete = true;
    this.closeList();
    this.records?.end();
    this.repeated?.end();
  }

  /**
   * The lines as a list of records that start where the first key is written again, with no blank line
   * or bullet between them (`name: Ann⏎age: 31⏎name: Bob⏎age: 45`), once a second record starts: a second
   * reading beside the one object `node` gives (where the key written again replaces the first value),
   * since a key written again may be a correction as well as a new record. The choice between readings
   * decides: a list of classes fits the records, one class or a map the object (flagged: see
   * `overwritten`). Undefined while `node` is itself a list of records.
   */
  repeats(): ArrayNode | undefined {
    if (this.records?.active) return undefined;
    return this.repeated?.node();
  }

  /**
   * The key (in lower case) that the object `node` gives writes again with a whole record after it (two
   * labels or more, so not a lone correction such as `a: again`), or writes again twice or more
   * (`r: 1⏎u: x⏎r: 2⏎r: 3`): the object kept the last values and lost a record's, which a reading of it
   * flags (`KeyCollision`). Undefined when no record was lost.
   */
  get overwritten(): string | undefined {
    const repeated = this.repeated;
    if (repeated === undefined || this.records?.active || !repeated.active) return undefined;
    if (repeated.lastLabels >= 2) return repeated.firstKey;
    // A key written again twice or more (the line being written counts) starts records, not a correction.
    let records = repeated.recordCount;
    if (this.lineHasText && this.openKey()?.toLowerCase() === repeated.firstKey) records++;
    return records >= 3 ? repeated.firstKey : undefined;
  }

  /**
   * The list under a key ends. A key that got no bullet under it wrote no value: null, not an empty list
   * (`Plan:` followed by a sentence and then bullets, or by another label, is no empty plan).
   */
  private closeList(): void {
    const list = this.openList;
    if (list === undefined) return;
    this.openList = undefined;
    if (list.items.length === 0) becomes(list, { kind: "null", complete: true });
    else list.complete = true;
  }

  /**
   * The object, once two lines are labels (the line being written counts); else undefined. While a line
   * writes a key again, its entry (`pendingLabel`) is the object's last, its node changing in place as
   * the line grows, as the fixing parser's nodes do (so the key starts over once, not on every chunk).
   */
  node(): ObjectNode | ArrayNode | undefined {
    const records = this.records?.node();
    if (records !== undefined) return records;
    let pending = 0;
    if (this.lineHasText) {
      // A label's key is in its first few dozen characters: past them, the answer is known for good.
      const isLabelLine = this.lineIsLabel ?? labelKey(this.line) !== undefined;
      if (this.line.length > LABEL_DECIDED) this.lineIsLabel = isLabelLine;
      pending = isLabelLine ? 1 : 0;
    }
    if (this.labels + pending < this.minLabels) return undefined;
    const key = this.lineHasText ? this.openKey() : undefined;
    if (key !== undefined && this.shownAt !== this.changes) {
      this.shownAt = this.changes;
      // (With `showOpen`, a new key whose value shows nothing yet, a quote still open say, is null so far.
      // A long line's value is known by its ends, `WrittenLine`, not read again.)
      const header = this.written.value ?? lineOf(LABEL_LINE.exec(this.line)![2]!);
      const entry =
        pendingLabel(key, header, this.object.entries) ??
        (this.showOpen ? [key, { kind: "null", complete: false }] : undefined);
      if (entry !== undefined && this.pending === undefined) {
        this.pending = entry;
        this.object.entries.push(entry);
      } else if (entry !== undefined) becomes(this.pending![1], entry[1]);
    }
    return this.object;
  }

  /**
   * The key of the line being written (it has text) when it is a label writing a key read before (or any
   * key, with `showOpen`).
   */
  private openKey(): string | undefined {
    const block = this.block;
    // (Past `LABEL_DECIDED` characters, what the line starts with is known for good: not read again.)
    const decided = this.line.length > LABEL_DECIDED;
    if (block !== undefined && this.written.lead.length > block.indent) return undefined;
    if (this.openList !== undefined) {
      const bullet = this.lineBullet ?? BULLET.test(this.line);
      if (decided) this.lineBullet = bullet;
      if (bullet) return undefined;
    }
    // (`key:` or `key:/` at the end may yet be `key://…`, which is not a label.)
    if (this.lineKey === undefined && /:\/?$/.test(this.line)) return undefined;
    let key = this.lineKey;
    if (key === undefined) {
      const label = LABEL_LINE.exec(this.line);
      const written = label === null ? undefined : label[1]!.trim();
      key = written !== undefined && !overFiveWords(written) ? written : null;
      if (decided) {
        this.lineKey = key;
        if (key !== null) this.written.follow(label![2]!);
      }
    }
    return key !== null && (this.showOpen || this.keys.has(key.toLowerCase())) ? key : undefined;
  }

  /** The block scalar read so far ends: its node gets its text. */
  private endBlock(): void {
    const block = this.block;
    if (block === undefined) return;
    this.block = undefined;
    block.node.value = blockScalarText(block.lines, block.indent, block.header);
    block.node.complete = true;
  }

  private read(line: string): void {
    this.lines++;
    this.changes++;
    const block = this.block;
    if (block !== undefined) {
      if (line.trim() === "" || indentOf(line) > block.indent) {
        block.lines.push(line);
        return;
      }
      this.endBlock();
    }
    if (line.trim() === "") return;
    const bullet = this.openList ? BULLET.exec(line) : null;
    if (bullet && this.openList) {
      this.openList.items.push(scalar(bullet[1]!));
      return;
    }
    this.closeList();
    const label = LABEL_LINE.exec(line);
    if (label === null) return;
    const key = label[1]!.trim();
    if (overFiveWords(key)) return;
    this.labels++;
    this.keys.add(key.toLowerCase());
    const value = label[2]!.trim();
    const header = blockScalarHeader(value);
    if (header !== undefined) {
      // `key: |` (or `>`): the text is in the indented lines below (YAML's block scalar), not the `|`.
      const node = this.place(key, { kind: "string", value: "", complete: false }) as StringNode;
      this.block = { header, indent: indentOf(line), lines: [], node };
    } else if (value === "") {
      this.openList = this.place(key, { kind: "array", items: [], complete: false }) as ArrayNode;
    } else {
      this.place(key, scalar(value));
    }
  }

  /**
   * A label line's entry into the object: appended, or, when the line showed an entry while it was
   * written (see `node`), that entry's node becomes this one in place (the entries are only appended).
   */
  private place(key: string, node: JsonishNode): JsonishNode {
    const pending = this.pending;
    if (pending === undefined) {
      this.object.entries.push([key, node]);
      return node;
    }
    this.pending = undefined;
    becomes(pending[1], node);
    return pending[1];
  }
}

/** `target` takes `source`'s place: the same object, now with its kind and contents. */
function becomes(target: JsonishNode, source: JsonishNode): void {
  for (const property of Object.keys(target)) delete (target as unknown as Record<string, unknown>)[property];
  Object.assign(target, source);
}

/**
 * The entry a label line being written shows (`key`: as written; `header`: its value so far), the rule
 * label lines and sections share: a plain value (not a quote, bracket, bold marker, block header or fence
 * still open) shows as written so far (`shown`: read as the rule reads a value, incomplete: a number or
 * literal waits for its line to end); a key written again (case aside) whose value shows nothing yet
 * starts over as null, not written yet: the last key wins, so what the earlier one showed goes now, not
 * when the line ends. Else the line shows nothing yet.
 */
export function pendingLabel(
  key: string,
  header: WrittenLine,
  entries: readonly (readonly [string, JsonishNode])[],
  shown: (header: WrittenLine) => JsonishNode = ({ trimmed, first, last, beforeComma }) => ({
    ...trimmedScalar(trimmed, first, last, beforeComma),
    complete: false,
  }),
): [string, JsonishNode] | undefined {
  if (settled(header)) return [key, shown(header)];
  const folded = key.toLowerCase();
  if (!entries.some(([written]) => written.toLowerCase() === folded)) return undefined;
  return [key, { kind: "null", complete: false }];
}

/**
 * A label's value as written so far shows: plain text, or a closed flow list, map or quoted string. (Told
 * by its first character, and read whole only when its ends may close a list, map or string.)
 */
function settled({ trimmed, first, last }: WrittenLine): boolean {
  if (showsAsWritten(first)) return true;
  const closes =
    (first === "[" && last === "]") || (first === "{" && last === "}") || (first === '"' && last === '"');
  return closes && /^(?:\[.*\]|\{.*\}|"(?:[^"\\]|\\.)*")$/.test(trimmed);
}

/**
 * Whether a label's value whose first character (after blanks) is `first` is plain text, shown as written
 * so far: not a quote, bracket, bold marker, block header or fence, which what follows settles. Such a
 * value only grows as its line does.
 */
export function showsAsWritten(first: string): boolean {
  return first !== "" && !"*|>\"'[{`~".includes(first);
}

/** The key of a label line (`LABEL_LINE`, the key one to five words), else undefined. */
function labelKey(line: string): string | undefined {
  const key = LABEL_LINE.exec(line)?.[1]?.trim();
  return key === undefined || overFiveWords(key) ? undefined : key;
}

/**
 * A label's key (trimmed) of more than five words: a sentence with a colon, not a label. (Counted by its
 * runs of blanks, as `\s` has them, without splitting it: asked of every line of label lines.)
 */
export function overFiveWords(key: string): boolean {
  let runs = 0;
  let blankBefore = false;
  for (let at = 0; at < key.length; at++) {
    const code = key.charCodeAt(at);
    const blank = code === 32 || (code >= 9 && code <= 13) || (code > 127 && /\s/.test(key[at]!));
    if (blank && !blankBefore && ++runs >= 5) return true;
    blankBefore = blank;
  }
  return false;
}

/** A value as written: a number, a JSON/Python/YAML literal, a quoted string (unquoted), or plain text. */
export function scalar(written: string): JsonishNode {
  const text = written.trim();
  return trimmedScalar(text, text[0], text.at(-1));
}

/**
 * `scalar` of a text with no blanks at either end, given its first and last characters (and, when it ends
 * with a comma, the text before it, `WrittenLine.beforeComma`): a long text is looked at by those only (a
 * line being written is read at every chunk, and reading any character of a string grown by concatenation
 * copies it whole).
 */
export function trimmedScalar(
  trimmed: string,
  first: string | undefined,
  last: string | undefined,
  beforeComma?: { text: string; last: string },
): JsonishNode {
  let text = trimmed;
  if (last === "," && beforeComma !== undefined) {
    text = beforeComma.text;
    first = text === "" ? undefined : first;
    last = text === "" ? undefined : beforeComma.last;
  } else if (last === ",") {
    text = text.slice(0, -1).trim();
    first = text[0];
    last = text.at(-1);
  }
  if (text.length <= 5) {
    const lower = text.toLowerCase();
    if (lower === "true" || lower === "false")
      return { kind: "bool", value: lower === "true", complete: true };
    if (lower === "null" || lower === "none" || lower === "~") return { kind: "null", complete: true };
  }
  if (first !== undefined && NUMBER_START.includes(first) && NUMBER.test(text))
    return { kind: "number", value: Number(text), text, complete: true };
  const quoted = (first === '"' || first === "'") && last === first && /^(["'])(.*)\1$/.exec(text);
  return { kind: "string", value: quoted ? quoted[2]! : text, complete: true };
}

/** The characters `NUMBER` may start with. */
const NUMBER_START = "+-.0123456789";

/**
 * Hands `read` each whole line that `text` completes after `pending` (the line being written before it),
 * without its line break (`\n` or `\r\n`); returns the line being written after it. Line rules that read
 * a growing text (label lines, sections) share it. `pass`, when given, is asked at the start of each line
 * (with nothing pending) where the next line `read` must see starts: the whole lines before it are passed
 * by unread, never cut out of the text (a rule skipping a fence's lines costs no string per line).
 */
export function readLines(
  pending: string,
  text: string,
  read: (line: string, end: number) => void,
  pass?: (text: string, from: number) => number,
): string {
  let line = pending;
  let from = line === "" && pass !== undefined ? pass(text, 0) : 0;
  for (let index = text.indexOf("\n", from); index >= 0; index = text.indexOf("\n", from)) {
    const whole = line + text.slice(from, index);
    line = "";
    read(whole.endsWith("\r") ? whole.slice(0, -1) : whole, index);
    from = index + 1;
    if (pass !== undefined) from = pass(text, from);
  }
  return line + text.slice(from);
}
