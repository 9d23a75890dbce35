import { workMeter } from "../work-meter.js";
import type { ArrayNode, JsonishNode, ObjectNode } from "./jsonish-node.js";
import { readLines, trimmedScalar } from "./read-label-lines.js";
import { type SectionNames, sectionKey } from "./section-names.js";

/**
 * A markdown pipe table (GitHub's tables, what models write when asked for rows) read as a list of a
 * class: a header row, a delimiter row (`|---|:--:|`), then one object per row, keyed by the header's
 * cells. Only a header naming at least one declared field (`SectionNames`, matched as section names
 * are: case, spacing and punctuation aside) opens a table; its other columns are extra keys (flagged by
 * the class's coercer, as extra JSON keys are). Text before the header is passed over; the table ends at
 * the first line that is not a row. A row's empty cell is no value (a required field then fails), and a
 * cell is read as a label's value is (`scalar`: numbers, bools, null, quotes as syntax).
 *
 * Read line by line as the text arrives: each finished row once. A row shows once its line ends; at the
 * end of the text, the last line too.
 */
export class MarkdownTable {
  private line = "";
  /** The row before the line being read, while it may be a header (its cells). */
  private header: string[] | undefined;
  /** The header's keys, once the delimiter row under it was read. */
  private columns: string[] | undefined;
  /** The table ended (a line that is no row after its rows). */
  private ended = false;
  /**
   * The rows read so far: one node for the whole table, grown in place as rows finish (a finished row stays
   * the same node, so a stream's list coercer keeps it: each row is coerced once).
   */
  private readonly list: ArrayNode = { kind: "array", items: [], complete: false };

  constructor(private readonly names: SectionNames) {}

  push(text: string): void {
    if (this.ended) return;
    this.line = readLines(this.line, text, (line) => this.read(line), this.passProse);
    // (A line being written that cannot become a row is not kept: a long line of prose or JSON is passed;
    // one character that starts no row stands for it until its line ends.)
    if (this.columns === undefined && this.header === undefined && !mayBeRow(this.line)) this.line = "-";
  }

  end(): void {
    const line = this.line;
    this.line = "";
    if (!this.ended && line.trim() !== "") this.read(line);
    this.list.complete = true;
  }

  /** The rows so far, once a header and its delimiter row were read; else undefined. */
  node(): ArrayNode | undefined {
    return this.columns === undefined ? undefined : this.list;
  }

  /**
   * Where the next line that may be a row starts, from `from` (`readLines`): before a header, lines not
   * starting with a pipe are passed by without being cut out of the text (a long JSON answer costs a search
   * for `|`, not a string per line).
   */
  private readonly passProse = (text: string, from: number): number => {
    if (this.columns !== undefined || this.header !== undefined) return from;
    // (Each line is looked at once: from its first pipe back to its start, then on from its end.)
    for (let at = from; at < text.length; ) {
      const pipe = text.indexOf("|", at);
      if (pipe < 0) break;
      const start = text.lastIndexOf("\n", pipe - 1) + 1;
      if (text.slice(start, pipe).trim() === "") return start;
      const end = text.indexOf("\n", pipe);
      if (end < 0) break;
      at = end + 1;
    }
    return Math.max(from, text.lastIndexOf("\n") + 1);
  };

  private read(line: string): void {
    if (this.ended) return;
    // (A step per character of a line that may be a row: other lines are passed at the first character.)
    if (mayBeRow(line)) workMeter.steps += line.length;
    const columns = this.columns;
    if (columns !== undefined) {
      const cells = rowCells(line);
      if (cells === undefined) {
        this.ended = true;
        this.list.complete = true;
        return;
      }
      this.list.items.push(rowObject(columns, cells));
      return;
    }
    const header = this.header;
    if (header !== undefined && DELIMITER_ROW.test(line) && rowCells(line)?.length === header.length) {
      const keys = header.map((cell) => this.names.fields.get(sectionKey(cell))?.key);
      if (keys.some((key) => key !== undefined)) {
        this.columns = header.map((cell, at) => keys[at] ?? cell);
        this.header = undefined;
        return;
      }
    }
    this.header = rowCells(line);
  }
}

/** `| a | b |` or `| a | b` (a leading pipe is required): the cells, trimmed; a `\|` is a pipe in a cell. */
function rowCells(line: string): string[] | undefined {
  const text = line.trim();
  if (text.length < 2 || text.charCodeAt(0) !== 124 /* | */) return undefined;
  const closed = text.endsWith("|") && !text.endsWith("\\|");
  const inner = text.slice(1, closed ? -1 : undefined);
  if (!inner.includes("\\|")) return inner.split("|").map((cell) => cell.trim());
  // (An escaped pipe stands in as a character no cell holds while the row is split.)
  return inner
    .replace(/\\\|/g, "\u0000")
    .split("|")
    .map((cell) => cell.replace(/\u0000/g, "|").trim());
}

/** A delimiter row: `|---|:---:|---:|` (dashes, with optional alignment colons, between pipes). */
const DELIMITER_ROW = /^\s*\|(?:\s*:?-+:?\s*\|)*\s*:?-+:?\s*\|?\s*$/;

/** Whether a line being written may still become a row (blanks, then a pipe, or nothing yet). */
function mayBeRow(line: string): boolean {
  if (line.charCodeAt(0) === 124 /* | */) return true;
  const text = line.trimStart();
  return text === "" || text[0] === "|";
}

function rowObject(columns: string[], cells: string[]): ObjectNode {
  let count = 0;
  for (let at = 0; at < columns.length && at < cells.length; at++) {
    const cell = cells[at]!;
    // (Cells are trimmed: `scalar` without its trim.)
    if (cell !== "") rowEntries[count++] = [columns[at]!, trimmedScalar(cell, cell[0], cell.at(-1))];
  }
  return { kind: "object", entries: rowEntries.slice(0, count), complete: true };
}

/**
 * A row's entries are gathered here and copied out at their count: an array pushed from empty has room for
 * 16, and every row of a long table is kept to the end of the answer. (Written over from the start for each
 * row, never emptied: setting an array's length costs more than the rest of a short row.)
 */
const rowEntries: [string, JsonishNode][] = [];

/** A section's content that is a markdown table under `names` (whole, for a list field's section). */
export function readMarkdownTable(
  content: string,
  names: SectionNames,
  complete: boolean,
): ArrayNode | undefined {
  const table = new MarkdownTable(names);
  table.push(content);
  if (complete) table.end();
  return table.node();
}
