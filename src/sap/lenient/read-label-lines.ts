import { workMeter } from "../work-meter.js";
import type { ArrayNode, JsonishNode, ObjectNode, StringNode } from "./jsonish-node.js";
import { type BlockHeader, blockScalarHeader, blockScalarText, indentOf } from "./read-yaml-block.js";

/** `key: value` (optionally bulleted or bold), the key one to five words. */
export const LABEL_LINE =
  /^\s*(?:[-*•]\s+)?(?:\*\*)?["']?([\p{L}\p{N}_][\p{L}\p{N}_ -]{0,40}?)["']?(?:\*\*)?\s*:(?!\/\/)(?:\*\*)?\s*(.*)$/u;
export const BULLET = /^\s*(?:[-*•+]|\d{1,3}[.)])\s+(.*)$/;
/** Beyond this many characters a line's label (`LABEL_LINE`'s key, markers and colon) is decided. */
const LABEL_DECIDED = 200;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * An answer written as `key: value` lines instead of JSON (YAML-ish, or "Name: Ann" prose), read as one
 * object. A key with nothing after its colon collects the bullet lines under it as a list. Returns
 * undefined unless at least two lines are labels, so a lone "Note: …" in prose is not taken for data.
 * The rule lives in `LabelLines`, which streams read line by line.
 */
export function readLabelLines(text: string): ObjectNode | undefined {
  const lines = new LabelLines();
  lines.push(text);
  lines.end();
  return lines.node();
}

/**
 * A fence's content read as `key: value` lines (a ```yaml block): `FenceLabelLines` over the whole
 * content, as final mode reads each fence (`containers`: how many containers the fence holds).
 */
export function readFenceLabelLines(content: string, containers: number): ObjectNode | undefined {
  const lines = new FenceLabelLines();
  lines.push(content, containers);
  lines.end();
  return lines.node();
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
  node(): ObjectNode | undefined {
    return this.lines?.node();
  }

  /**
   * A number that changes whenever the object `node` gives may have (0 while there is none), so a
   * stream re-reads the fence only then, not on every line of a fence that is not label lines.
   */
  get changes(): number {
    const lines = this.lines;
    return lines?.node() ? lines.lines * 2 + 1 : 0;
  }
}

/**
 * `readLabelLines` over a growing text: each line is read once, when it ends (a line break, or `end`).
 * The object grows in place, as the fixing parser's nodes do: entries are only appended, and a list
 * under a key is complete once a line that is not one of its bullets follows. While the answer is still
 * arriving the object is incomplete, and the line being written counts toward the two labels it takes
 * (its value appears when its line ends).
 */
export class LabelLines {
  private readonly object: ObjectNode = { kind: "object", entries: [], complete: false };
  private openList: ArrayNode | undefined;
  /** A YAML block scalar (`key: |`) being read: its header, key's indentation, lines and node. */
  private block: { header: BlockHeader; indent: number; lines: string[]; node: StringNode } | undefined;
  private labels = 0;
  /** The line being written, whether it has a non-blank character, and (once long) whether it is a label. */
  private line = "";
  private lineHasText = false;
  private lineIsLabel: boolean | undefined;
  /** How many lines were read (changes whenever the object may have). */
  lines = 0;

  /** The last line has text and no line break yet: its value may still go on. */
  get lineOpen(): boolean {
    return this.lineHasText;
  }

  push(text: string): void {
    workMeter.steps += text.length;
    const rest = text.slice(text.lastIndexOf("\n") + 1);
    this.line = readLines(this.line, text, (line) => {
      this.line = "";
      this.lineHasText = false;
      this.lineIsLabel = undefined;
      this.read(line);
    });
    if (!this.lineHasText && rest.trim() !== "") this.lineHasText = true;
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
    if (this.openList) this.openList.complete = true;
  }

  /** The object, once two lines are labels (the line being written counts); else undefined. */
  node(): ObjectNode | undefined {
    let pending = 0;
    if (this.lineHasText) {
      // A label's key is in its first few dozen characters: past them, the answer is known for good.
      const isLabelLine = this.lineIsLabel ?? isLabel(this.line);
      if (this.line.length > LABEL_DECIDED) this.lineIsLabel = isLabelLine;
      pending = isLabelLine ? 1 : 0;
    }
    return this.labels + pending >= 2 ? this.object : undefined;
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
    if (this.openList) this.openList.complete = true;
    this.openList = undefined;
    const label = LABEL_LINE.exec(line);
    if (!label || label[1]!.trim().split(/\s+/).length > 5) return;
    this.labels++;
    const value = label[2]!.trim();
    const header = blockScalarHeader(value);
    if (header !== undefined) {
      // `key: |` (or `>`): the text is in the indented lines below (YAML's block scalar), not the `|`.
      const node: StringNode = { kind: "string", value: "", complete: false };
      this.block = { header, indent: indentOf(line), lines: [], node };
      this.object.entries.push([label[1]!.trim(), node]);
    } else if (value === "") {
      this.openList = { kind: "array", items: [], complete: false };
      this.object.entries.push([label[1]!.trim(), this.openList]);
    } else {
      this.object.entries.push([label[1]!.trim(), scalar(value)]);
    }
  }
}

function isLabel(line: string): boolean {
  const label = LABEL_LINE.exec(line);
  return label !== null && label[1]!.trim().split(/\s+/).length <= 5;
}

/** A value as written: a number, a JSON/Python/YAML literal, a quoted string (unquoted), or plain text. */
export function scalar(written: string): JsonishNode {
  const text = written.trim().replace(/,$/, "").trim();
  const lower = text.toLowerCase();
  if (lower === "true" || lower === "false") return { kind: "bool", value: lower === "true", complete: true };
  if (lower === "null" || lower === "none" || lower === "~") return { kind: "null", complete: true };
  if (NUMBER.test(text)) return { kind: "number", value: Number(text), text, complete: true };
  const quoted = /^(["'])(.*)\1$/.exec(text);
  return { kind: "string", value: quoted ? quoted[2]! : text, complete: true };
}

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
  read: (line: string) => void,
  pass?: (text: string, from: number) => number,
): string {
  let line = pending;
  let from = line === "" && pass !== undefined ? pass(text, 0) : 0;
  for (let index = text.indexOf("\n", from); index >= 0; index = text.indexOf("\n", from)) {
    const whole = line + text.slice(from, index);
    line = "";
    read(whole.endsWith("\r") ? whole.slice(0, -1) : whole);
    from = index + 1;
    if (pass !== undefined) from = pass(text, from);
  }
  return line + text.slice(from);
}
