import { workMeter } from "../work-meter.js";
import { FixingParser } from "./fixing-parser.js";
import { type ArrayNode, forOneRead, type JsonishNode, type ObjectNode } from "./jsonish-node.js";
import {
  BULLET,
  LABEL_DECIDED,
  LABEL_LINE,
  overFiveWords,
  pendingLabel,
  readLines,
  scalar,
  showsAsWritten,
  trimmedScalar,
} from "./read-label-lines.js";
import { MarkdownTable, readMarkdownTable } from "./read-markdown-table.js";
import {
  type AnswerLines,
  type BlockHeader,
  BlockText,
  blockScalarHeader,
  blockScalarText,
  indentOf,
  readYamlBlock,
  yamlScalar,
} from "./read-yaml-block.js";
import { type SectionField, type SectionNames, sectionKey } from "./section-names.js";
import { lineOf, WrittenLine } from "./written-line.js";
import { YamlUnits } from "./yaml-units.js";

/**
 * An answer written in sections named by the target class's fields, read as one object: each section's
 * content becomes its field's value, read as JSON, a fence, a list of bullets, YAML or a scalar. What
 * opens a section, on a line of its own (only names the class declares, or their `@alias`):
 * - `Name: value`, `**Name:** value`, `- Name: value` (label lines): the value may go on over the next
 *   lines, up to a blank line followed by a line not indented under the key; `Name: |` / `Name: >` start
 *   a YAML block scalar, and a key with nothing after it takes the YAML block (or the list) under it;
 * - `[[ ## name ## ]]` (DSPy's ChatAdapter): up to the next marker; `[[ ## completed ## ]]` ends the answer;
 * - `<name>` … `</name>` (tags, on one line or several; entities decoded; nested tags for nested classes,
 *   repeated tags as list items); a tag naming the class itself (`<Address>` … `</Address>`, as BAML's XML
 *   format wraps a class value) wraps the sections and is dropped, opening none;
 * - `# Name` … `###### Name` (markdown headings): up to the next section.
 * Lines of undeclared DSPy markers and of undeclared tags on a line of their own (`<scratchpad>`) are
 * skipped with their content; other text outside sections is prose, never a value. Code fences inside a
 * section are its content (nothing in them opens a section).
 *
 * Like `LabelLines`, the rule reads a growing text line by line (final mode pushes the whole answer and
 * calls `end`): the object's entries are only appended, and the open section's value is read as its
 * content grows: from the lines added since the last read when it is plain text, bullets, a YAML block
 * scalar or a YAML sequence or mapping under an empty key (`PlainContent`, `BlockContent`, `YamlUnits`:
 * a stream's reads cost what arrived), else again from all of its content; a section that closes is read
 * whole, once. A line being written is held back while it may
 * still open a section.
 */
export function readSections(text: string, names: SectionNames): ObjectNode | ArrayNode | undefined {
  const sections = new Sections(names);
  sections.push(text);
  sections.end();
  return sections.node();
}

/** Characters `[start, end)` of a text. */
export interface TextRange {
  start: number;
  end: number;
}

type Form = "label" | "dspy" | "heading" | "tag";

interface Opener {
  form: Form;
  /** The field (made up for an undeclared label or marker: `undeclared`), or undefined: content skipped. */
  field: SectionField | undefined;
  /** The key as written. */
  written: string;
  /** The rest of the opening line (a label's value, the text after an opening tag). */
  header: string;
  indent: number;
  /** A bulleted label's key column (after `- `): a line there being written may yet be a key. */
  column?: number | undefined;
  /** A TOON table's header (`rows[2]{title,year}:`): its columns and delimiter; its lines are rows. */
  table?: { columns: string[]; delimiter: string };
  /** What is known of `header` without reading it, when it is a long line's (`Sections.lineOpener`). */
  value?: WrittenLine;
}

interface Section extends Opener {
  /** Content lines after the opening one. */
  lines: string[];
  /** Where each of `lines` starts in the text (-1: not as written there: `AnswerLines`). */
  lineStarts: number[];
  /** A code fence is open in the content. */
  inFence: boolean;
  /** A blank line followed some content (a label's value then ends at an unindented line). */
  blankAfterContent: boolean;
  /** The object's entry for this section, once its content reads as something. */
  entry: [string, JsonishNode] | undefined;
  /** Its content read line by line as it arrives, while it is of a kind read so (see `plainValue`). */
  plain: PlainContent | BlockContent | YamlUnits | JsonContent | undefined | false;
  /** Where its content starts in the text: after the opening line. */
  contentAt: number;
  /** Its header is blank (asked at every read: a long header is not trimmed again each time). */
  blankHeader: boolean;
}

const DSPY = /^\s*\[\[\s*##\s*([^#\]]+?)\s*##\s*\]\]\s*$/;
const HEADING = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/;
const TAG = /^\s*<([\p{L}_][\p{L}\p{N}_.-]*)\s*>(.*)$/u;
/** `TAG`'s opening tag alone (a line being written is not matched to its end at every chunk). */
const TAG_START = /^\s*<([\p{L}_][\p{L}\p{N}_.-]*)\s*>/u;
const FENCE = /^\s*(```|~~~)/;
/**
 * A TOON key of a list (toon-format's spec): `name[N]:`, with a delimiter (`[N|]`, `[N\t]`) and the
 * fields of a table's rows (`name[N]{a,b}:`). The key, the delimiter, the fields, the rest of the line.
 */
const TOON_KEY =
  /^\s*(?:[-*•]\s+)?([\p{L}\p{N}_][\p{L}\p{N}_ -]{0,40}?)\[\s*#?\d*\s*([,|\t])?\s*\](?:\{([^}]*)\})?\s*:(?!\/\/)\s*(.*)$/u;
/** What starts a line that `FENCE` matches, and one that may close a JSON container. */
const FENCE_MARKS = ["```", "~~~"];
const CLOSERS = ["}", "]"];
/** A line being written that may still become a bullet (its marker, with nothing after it yet). */
const PENDING_BULLET = /^\s*(?:[-*•+]|\d{1,3}[.)]?)\s*$/;
const BLANK = /\s/;
/** A line whose key (before its first colon) has a quote at either end. */
const QUOTED_KEY = /^\s*"|^[^:]*["']\s*(?:\*\*)?\s*:|^[\s>*#\-•]*'/;

export class Sections {
  private readonly object: ObjectNode = { kind: "object", entries: [], complete: false };
  private open: Section | undefined;
  /** Declared sections opened so far. */
  private declared = 0;
  /** `[[ ## completed ## ]]` was read: nothing after it is read. */
  private completed = false;
  /** The class's own tags opened so far (`wrapper`); a second one is another object: no reading. */
  private wrapped = 0;
  /** The indentation of a JSON container's opening line outside any section, while it is open. */
  private container: number | undefined;
  /** A code fence outside any section is open. */
  private fenced = false;
  private line = "";
  /** What is known of `line` without reading it (see `WrittenLine`). */
  private readonly written = new WrittenLine();
  /** The open section's text at the last two reads, the second made by adding to the first (`grewText`). */
  private grown: { from: string; to: string } | undefined;
  /** So for the value a label line being written shows, and that value at the last read (see `node`). */
  private grownLabel: { from: string; to: string } | undefined;
  private labelShown: { value: string; line: number } | undefined;
  /** Lines started so far (the line being written is told apart from the one before by it). */
  private lineId = 0;
  /**
   * The line being written's last characters (from about `CLOSING_TAG_REACH` before the part searched
   * before): where a closing tag is looked for (`closeTagsOnLine`, `mayOpen`), never in the line itself.
   */
  private tail = "";
  /** The opening tag the line being written starts with (`TAG_START`), once known; null: none, for good. */
  private lineTag: RegExpExecArray | null | undefined;
  /** The line being written with its entities decoded (a tag's content), from what each push adds. */
  private readonly decoded = new DecodedLine();
  /** How much of the line being written was searched for a closing tag (`closeTagsOnLine`). */
  private searched = 0;
  /**
   * The line being written is what was left of one after a tag closed on it (`closeTagsOnLine`): blanks
   * alone there end no line of a section's content, as a line read whole reads none (`readInTag`).
   */
  private restOfLine = false;
  /**
   * What the line being written opens, decided once it is long (`lineOpener`; a label's or a tag's value
   * then followed by `written.value`); forgotten when another line starts.
   */
  private decided: { open: Section | undefined; opener: Opener | "wrapper" | undefined } | undefined;
  /** The list or map `node` gave last for a list or map target. */
  private shownTags: ArrayNode | ObjectNode | undefined;
  /** The object `node` gave last, and `changes` then. */
  private shown: ObjectNode | undefined;
  private shownAt = -1;
  /** Changes whenever `node` may have (a line read, or text added to an open section's last line). */
  changes = 0;
  /**
   * How many times a section's value was replaced by one that does not extend it (its content read again
   * as something else: a block that stopped being a mapping, a string a later quote cut short). A stream
   * announces each as a restart (`ReadingSwitch`), as any value that starts over is.
   */
  regressions = 0;

  /**
   * A list or map target's answer so far (`SectionNames.items`, `entries`): read whole as item or entry
   * tags at each read.
   */
  private listed: string | undefined;
  /** The target is a list or a map: its answer is read as tags only (`listed`), never as sections. */
  private readonly tagsOnly: boolean;

  /** A list of a class's answer may be a markdown table of its items (read beside the tags). */
  private readonly table: MarkdownTable | undefined;
  /** Characters pushed before the last push; where the line being read starts, and where the next does. */
  private pushed = 0;
  private lineAt = 0;
  private nextLineAt = 0;
  /**
   * Where the content of each section closed so far whose value is the YAML block under its key is
   * (`key:` then indented lines, read by `readYamlBlock`): a flow list or map on those lines is a part of
   * that value, not a reading of the whole answer (the end of a read drops such prose roots, `inYamlBlocks`).
   */
  readonly yamlBlocks: TextRange[] = [];
  /** Where the line being read (`read`) starts in the text; -1 when it is not the text's line as written. */
  private lineStart = -1;

  /**
   * `readRoot`: the container the answer's prose reading read whole over exactly `[start, end)` of the
   * text, if any (`AnswerLines.root`; given by the stream reader, whose scanner reads each chunk first).
   */
  constructor(
    private readonly names: SectionNames,
    private readonly readRoot?: AnswerLines["root"],
  ) {
    this.tagsOnly = names.items !== undefined || names.entries !== undefined;
    if (this.tagsOnly) this.listed = "";
    const rows = names.items?.list === false ? names.items.inner : undefined;
    if (rows !== undefined) this.table = new MarkdownTable(rows);
  }

  /**
   * Whether text `next` is known to start with text `shown` without comparing them: the open section's
   * last two values, the one made by adding to the other (a stream compares what it showed with what it
   * shows, and a long section's text compared whole at every read would cost the square of its length).
   */
  grewText(shown: string, next: string): boolean {
    const grown = this.grown;
    if (grown !== undefined && next === grown.to && shown === grown.from) return true;
    const label = this.grownLabel;
    return label !== undefined && next === label.to && shown === label.from;
  }

  /** A section is open or a line is being written: the end of the answer may still change the object. */
  get lineOpen(): boolean {
    return this.open !== undefined || this.written.trimmed !== "";
  }

  push(text: string): void {
    this.table?.push(text);
    if (this.listed !== undefined) {
      // (Kept only while the answer may be tags: one that starts otherwise is not read so.)
      const next = this.listed + text;
      this.listed = /^\s*[^\s<]/.test(next) ? undefined : next;
      this.changes++;
      return;
    }
    if (this.tagsOnly) {
      if (this.table !== undefined) this.changes++;
      return;
    }
    workMeter.steps += text.length;
    let restarted = this.line === "";
    this.line = readLines(
      this.line,
      text,
      (line, end) => {
        this.line = "";
        restarted = true;
        this.nextLineAt = this.pushed + end + 1;
        // (Blanks left after a tag closed on the line are nothing, as a line read whole reads them.)
        this.lineStart = this.restOfLine ? -1 : this.lineAt;
        if (!this.restOfLine || line.trim()) this.read(line);
        this.restOfLine = false;
        this.lineAt = this.nextLineAt;
      },
      this.passQuietLines,
    );
    this.pushed += text.length;
    if (restarted) this.startLine(this.line);
    else {
      this.written.add(text);
      this.decoded.add(text);
      this.tail += text;
    }
    // A tag closed on the line being written is closed now (the rest of the line is read on).
    this.closeTagsOnLine();
    if (!this.completed) this.changes++;
  }

  /**
   * Where the next line that may change anything starts, from the line starting at `from`: after
   * `[[ ## completed ## ]]`, inside a fence outside any section, or inside a JSON container outside any
   * section, `read` does nothing with a line unless it may end that state (a fence line; a line starting
   * with a closer), so the lines before such a line are passed by without being cut out of the text: an
   * answer that is one long fenced or bare JSON value costs a line search, not a string per line.
   */
  private readonly passQuietLines = (text: string, from: number): number => {
    let next: number | undefined;
    if (this.completed) next = undefined;
    else if (this.fenced) next = lineStartingWith(text, from, FENCE_MARKS, Number.POSITIVE_INFINITY);
    else if (this.container !== undefined) next = lineStartingWith(text, from, CLOSERS, this.container);
    else return from;
    // (No such line: every whole line is passed by; the last one, maybe still being written, is not.)
    const start = next ?? Math.max(from, text.lastIndexOf("\n") + 1);
    // (A line passed by changes nothing, but counts as read for whoever watches `changes`.)
    if (start !== from) this.changes++;
    this.lineAt = this.pushed + start;
    return start;
  };

  /** Tags opened and closed on the line being written are read now, each as soon as it closes. */
  private closeTagsOnLine(): void {
    while (!this.completed && !this.fenced && this.container === undefined) {
      const open = this.open;
      const line = this.line;
      // (Searched from near the end of the part searched before, in `tail`, not from the line's start: a
      // closing tag that ends in what was just added starts there, unless it holds over a hundred blanks;
      // the whole line is searched again once it ends, by `readInTag`.)
      const tail = this.tail;
      const tailAt = line.length - tail.length;
      const from = Math.max(tailAt, this.searched - CLOSING_TAG_REACH);
      workMeter.steps += line.length - from;
      this.searched = line.length;
      if (tail.length > CLOSING_TAG_REACH) this.tail = tail.slice(-CLOSING_TAG_REACH);
      if (open?.form === "tag") {
        const close = closingTag(tail, open.written, from - tailAt);
        if (close === undefined) return;
        open.lines.push(line.slice(0, tailAt + close.start));
        this.close(open);
        this.open = undefined;
        this.setLine(line.slice(tailAt + close.end));
        this.restOfLine = true;
        continue;
      }
      if (open !== undefined) return;
      const tag = this.openingTag(line);
      const close =
        tag === null ? undefined : closingTag(tail, tag[1]!, Math.max(from, tag[0].length) - tailAt);
      if (close === undefined) return;
      this.setLine(line.slice(tailAt + close.end));
      this.restOfLine = true;
      this.lineStart = -1;
      this.read(line.slice(0, tailAt + close.end));
    }
  }

  /**
   * The opening tag `line` (the line being written) starts with, or null: matched until it is known (a
   * tag matched stays so as the line grows; a line that starts otherwise, or is long, never will).
   */
  private openingTag(line: string): RegExpExecArray | null {
    if (this.lineTag !== undefined) return this.lineTag;
    const first = this.written.first;
    if (first === "") return null;
    const tag = first === "<" ? TAG_START.exec(line) : null;
    if (tag !== null || first !== "<" || line.length > LABEL_DECIDED) this.lineTag = tag;
    return tag;
  }

  /** The line being written is `line` now, not what it was grown by. */
  private setLine(line: string): void {
    this.line = line;
    this.startLine(line);
    this.searched = 0;
    this.decided = undefined;
  }

  /** What is kept of the line being written starts again, from `line`. */
  private startLine(line: string): void {
    this.lineId++;
    this.written.reset(line);
    this.decoded.reset(line);
    this.tail = line;
    this.lineTag = undefined;
  }

  /** The text is complete: its last line is read, the open section closed, and the object complete. */
  end(): void {
    this.changes++;
    if (this.tagsOnly) {
      this.table?.end();
      this.object.complete = true;
      return;
    }
    const line = this.line;
    this.setLine("");
    // (A text ending in a line break has no last line to read: no blank line is made up at the end.)
    this.nextLineAt = this.pushed;
    this.lineStart = this.restOfLine ? -1 : this.lineAt;
    if (line !== "") this.read(line);
    this.lineAt = this.pushed;
    if (this.open) this.close(this.open);
    this.open = undefined;
    this.object.complete = true;
  }

  /**
   * The object, once a declared section has opened; else undefined. While the text arrives, a new object
   * each time it may have changed (the open section's value is a new node at each read, never one handed
   * out before grown in place; the entries before it are the same nodes).
   */
  node(): ObjectNode | ArrayNode | undefined {
    if (this.tagsOnly) {
      if (this.listed === undefined) return this.table?.node();
      if (this.shownAt !== this.changes) {
        this.shownAt = this.changes;
        workMeter.steps += this.listed.length;
        const { items, entries } = this.names;
        this.shownTags =
          items !== undefined
            ? readListTags(this.listed, items, this.object.complete)
            : entryTags(this.listed, this.object.complete, entries);
      }
      return this.shownTags;
    }
    if (this.object.complete) return this.declared === 0 || this.wrapped > 1 ? undefined : this.object;
    if (this.wrapped > 1) return undefined;
    if (this.shownAt === this.changes) return this.shown;
    this.shownAt = this.changes;
    const open = this.open;
    // A label line being written whose key is declared: its value so far shows (the key is settled).
    const opener =
      this.completed ||
      this.fenced ||
      this.container !== undefined ||
      this.line === "" ||
      open?.form === "tag" ||
      open?.inFence
        ? undefined
        : this.lineOpener(open);
    const header =
      opener !== undefined &&
      opener !== "completed" &&
      opener !== "wrapper" &&
      opener.form === "label" &&
      !UNDECLARED.has(opener.field!)
        ? (opener.value ?? lineOf(opener.header))
        : undefined;
    if (this.declared === 0 && header === undefined) {
      this.shown = undefined;
      return undefined;
    }
    // The open section's value so far, with the line being written unless it may still open a section;
    // when that line opens one already, the open section is as good as closed.
    if (open !== undefined) {
      let partial = this.line === "" || this.mayOpen(open) ? undefined : this.line;
      // (A tag's content is read with its entities decoded.)
      let written = open.form === "tag" ? this.decoded.line : this.written;
      // The open tag's closing tag being written: the line before it shows (no entity reaches over a `<`,
      // so it is decoded for good; a line is cut so only at the few reads its closing tag is written at).
      const closing = open.form === "tag" && partial === undefined ? this.closingTagAt(open) : undefined;
      if (closing !== undefined && closing > 0) {
        partial = this.line.slice(0, closing);
        written = lineOf(decodeEntities(partial));
      }
      const value = sectionValue(open, partial, opener !== undefined, written, this.readRoot);
      this.place(open, value === undefined ? undefined : forOneRead(value));
    }
    const entries = [...this.object.entries];
    // (Only a plain value: a quote, bracket, bold marker or block header is settled by what follows. Its
    // value is read only then: a long line's quoted value being written is not read at every chunk.)
    const pending =
      header !== undefined && typeof opener === "object"
        ? pendingLabel(opener.written, header, entries, (value) =>
            incomplete(labelValue(value, opener.field!)),
          )
        : undefined;
    if (pending !== undefined) {
      forOneRead(pending[1]);
      entries.push(pending);
    }
    this.labelGrew(pending?.[1], header);
    this.shown = forOneRead({ kind: "object", entries, complete: false });
    return this.shown;
  }

  /**
   * The label line being written shows `node` (its value so far, `header`): known to have grown from the
   * one it showed at the last read when both are the plain text of the same line (`showsAsWritten`: the
   * text as written, or without a last comma), so a stream does not compare the two (`grewText`).
   */
  private labelGrew(node: JsonishNode | undefined, header: WrittenLine | undefined): void {
    const value = node?.kind === "string" && showsAsWritten(header!.first) ? node.value : undefined;
    const before = this.labelShown;
    if (value !== undefined && before?.line === this.lineId)
      this.grownLabel = { from: before.value, to: value };
    this.labelShown = value === undefined ? undefined : { value, line: this.lineId };
  }

  private read(line: string): void {
    this.changes++;
    this.decided = undefined;
    this.searched = 0;
    if (this.completed) return;
    if (this.fenced) {
      // A code fence outside any section is a reading of its own (its lines are not sections).
      if (FENCE.test(line)) this.fenced = false;
      return;
    }
    if (this.container !== undefined) {
      // A JSON container written outside any section: its lines are its own, not sections.
      if (/^\s*[}\]]/.test(line) && indentOf(line) <= this.container) this.container = undefined;
      return;
    }
    const open = this.open;
    if (open?.form === "tag") {
      this.readInTag(line, open);
      return;
    }
    if (open?.inFence) {
      if (FENCE.test(line)) open.inFence = false;
      open.lines.push(line);
      open.lineStarts.push(this.lineStart);
      return;
    }
    const opener = this.opener(line, open);
    if (opener === "wrapper") {
      // The class's own tag: dropped, and what follows it on the line read on (its closing tag is no
      // section's and is passed over as prose is). A second one holds another object: which one the
      // answer means is not known, so the answer is not read as one object (nothing after is read).
      this.wrapped++;
      if (this.wrapped > 1) {
        if (open) this.close(open);
        this.open = undefined;
        this.completed = true;
        return;
      }
      const rest = line.replace(TAG, "$2");
      this.lineStart = -1;
      if (rest.trim() !== "") this.read(rest);
      return;
    }
    if (opener === "completed") {
      if (open) this.close(open);
      this.open = undefined;
      this.completed = true;
      return;
    }
    if (opener !== undefined) {
      if (open) this.close(open);
      this.start(opener);
      return;
    }
    if (open === undefined) {
      if (FENCE.test(line)) this.fenced = true;
      else if (/[{[]\s*$/.test(line) && !/[}\]]/.test(line)) this.container = indentOf(line);
      return;
    }
    // (Blank: `indentOf` reads the line without making a trimmed copy of it.)
    if (indentOf(line) === line.length) {
      if (hasContent(open)) open.blankAfterContent = true;
      open.lines.push(line);
      open.lineStarts.push(this.lineStart);
      return;
    }
    if (open.form === "label" && this.labelEnds(open, line)) {
      this.close(open);
      this.open = undefined;
      this.read(line);
      return;
    }
    if (FENCE.test(line)) open.inFence = true;
    open.lines.push(line);
    open.lineStarts.push(this.lineStart);
  }

  /** Whether a label's value ends before `line` (not blank): the rule of `Sections`' doc. */
  private labelEnds(open: Section, line: string): boolean {
    const indent = indentOf(line);
    if (blockScalarHeader(open.header) !== undefined) return indent <= open.indent;
    // Text runs over blank lines: only the next section (or the end of the answer) ends it.
    if (open.field?.text) return false;
    if (indent > open.indent) return false;
    // (A sequence at the key's own indentation goes on over blank lines, as YAML reads it.)
    if (open.blankHeader && indent === open.indent && /^\s*-(?:\s|$)/.test(line)) return false;
    return open.blankAfterContent;
  }

  private readInTag(line: string, open: Section): void {
    const close = closingTag(line, open.written);
    if (close === undefined) {
      open.lines.push(line);
      return;
    }
    open.lines.push(line.slice(0, close.start));
    this.close(open);
    this.open = undefined;
    const rest = line.slice(close.end);
    if (rest.trim() !== "") this.read(rest);
  }

  private start(opener: Opener): void {
    const section: Section = {
      ...opener,
      lines: [],
      lineStarts: [],
      inFence: false,
      blankAfterContent: false,
      entry: undefined,
      plain: undefined,
      contentAt: this.nextLineAt,
      blankHeader: opener.form === "tag" || opener.header.trim() === "",
    };
    if (opener.field !== undefined && !UNDECLARED.has(opener.field)) this.declared++;
    this.open = section;
    if (opener.form === "tag") {
      // `<answer>4</answer>` on one line: the rest of the line is the tag's first content line.
      const header = opener.header;
      section.header = "";
      if (header !== "") this.readInTag(header, section);
    } else if (FENCE.test(opener.header)) section.inFence = true;
  }

  private close(section: Section): void {
    if (section.field === undefined) return;
    const value = sectionValue(section, undefined, true, undefined, this.readRoot);
    if (value !== undefined && YAML_BLOCK.has(value))
      this.yamlBlocks.push({ start: section.contentAt, end: this.lineAt });
    this.place(section, value);
  }

  /** The section's value into the object: its entry, added once it has one (repeated tags gather as items). */
  private place(section: Section, value: JsonishNode | undefined): void {
    const field = section.field;
    if (value === undefined || field === undefined) return;
    if (section.entry !== undefined) {
      const shown = section.entry[1];
      if (shown !== value) {
        if (!extendsNode(shown, value)) this.regressions++;
        if (GROWN.get(value) === shown && shown.kind === "string" && value.kind === "string")
          this.grown = { from: shown.value, to: value.value };
        section.entry[1] = value;
      }
      return;
    }
    const entry: [string, JsonishNode] = [field.implied ? field.key : section.written, value];
    section.entry = entry;
    this.object.entries.push(entry);
  }

  /**
   * What the line being written opens (`opener`), decided once the line is long: past `LABEL_DECIDED`
   * characters an opener's marks (a label's key and colon, a tag) are settled and only its value grows, so
   * the line is not matched again at every read (a long line would cost the square of its length); the
   * value is then known by its ends (`WrittenLine`), never read whole.
   */
  private lineOpener(open: Section | undefined): Opener | "completed" | "wrapper" | undefined {
    const line = this.line;
    const decided = this.decided;
    if (decided !== undefined && decided.open === open) {
      workMeter.steps++;
      const opener = decided.opener;
      const value = this.written.value;
      return typeof opener === "object" && value !== undefined
        ? { ...opener, header: value.text, value }
        : opener;
    }
    workMeter.steps += Math.min(line.length, LABEL_DECIDED);
    const opener = this.opener(line, open);
    // (A line that opens nothing this long never will: an opener's marks are in its first characters. The
    // line is read whole when it ends, so only what a partial shows of it meanwhile rests on this.)
    if (line.length > LABEL_DECIDED && opener !== "completed") {
      this.decided = { open, opener };
      if (typeof opener === "object" && (opener.form === "label" || opener.form === "tag"))
        this.written.follow(opener.header);
    }
    return opener;
  }

  /**
   * What `line` (whole) opens, given the section open now; "completed" for DSPy's end marker, "wrapper"
   * for the class's own tag outside any section.
   */
  private opener(line: string, open: Section | undefined): Opener | "completed" | "wrapper" | undefined {
    const names = this.names;
    const indent = indentOf(line);
    // (Each form below begins with its own character after the blanks: most lines try none of them.)
    const lead = line[indent];
    const dspy = lead === "[" ? DSPY.exec(line) : null;
    if (dspy !== null) {
      const key = sectionKey(dspy[1]!);
      if (key === "completed" && !names.fields.has(key)) return "completed";
      const field = names.fields.get(key) ?? undeclared(dspy[1]!);
      return { form: "dspy", field, written: dspy[1]!, header: "", indent };
    }
    const heading = lead === "#" ? HEADING.exec(line) : null;
    if (heading !== null) {
      const written = heading[1]!
        .replace(/^\*\*(.*)\*\*$/, "$1")
        .replace(/:$/, "")
        .trim();
      const field = names.fields.get(sectionKey(written));
      if (field !== undefined) return { form: "heading", field, written, header: "", indent };
      return undefined;
    }
    const tag = lead === "<" ? TAG.exec(line) : null;
    if (tag !== null) {
      const key = sectionKey(tag[1]!);
      const written = tag[1]!;
      const field = names.fields.get(key);
      const wraps = field === undefined || (names.classNames.has(written) && field.key !== written);
      if (wraps && open === undefined && names.wrappers.has(key)) return "wrapper";
      // An undeclared tag on a line of its own is a block to skip (`<scratchpad>`); in prose or in a
      // label's text it is text.
      if (field !== undefined || (tag[2]!.trim() === "" && !isText(open)))
        return { form: "tag", field, written, header: tag[2]!, indent };
      return undefined;
    }
    // Label lines open a section outside DSPy sections, and in a label's block only at its own indentation.
    if (open !== undefined && open.form === "dspy") return undefined;
    if (open !== undefined && open.form === "label" && indent > open.indent) return undefined;
    if (open !== undefined && open.form === "label" && open.blankHeader && /^\s*-\s/.test(line))
      return undefined;
    // TOON's keys of lists (`tags[2]: a,b`, `rows[2]{title,year}:` then one row a line) name their field.
    const toon = TOON_KEY.exec(line);
    const toonField = toon === null ? undefined : names.fields.get(sectionKey(toon[1]!));
    if (toon !== null && toonField !== undefined) {
      const written = toon[1]!.trim();
      const delimiter = toon[2] ?? ",";
      const columns = toon[3]?.split(delimiter).map((column) => column.trim().replace(/^"(.*)"$/, "$1"));
      const table = columns === undefined ? undefined : { columns, delimiter };
      return { form: "label", field: toonField, written, header: toon[4]!, indent, table };
    }
    // (A quoted key is JSON written without its braces, not a label; so is a key with a quote on one
    // side, `'name':` or `name":`, as `SectionNames.mayOpen` reads lines in final mode.)
    const label = LABEL_LINE.exec(line);
    if (label === null || QUOTED_KEY.test(line)) return undefined;
    const written = label[1]!.trim();
    if (overFiveWords(written)) return undefined;
    const field = names.fields.get(sectionKey(written));
    // An undeclared label ends a label's value, and its own is an extra key (flagged, as in JSON); in text
    // that went on past its label's line (`**Step 2:**` in a multi-paragraph answer) it is text.
    if (field === undefined && (open?.form !== "label" || (isText(open) && wentOn(open)))) return undefined;
    // (A bulleted label's key column: `- name: Ann⏎  age` may be a key beside `name` being written.)
    const column = /^\s*[-*•]\s+/.exec(line)?.[0].length;
    return { form: "label", field: field ?? undeclared(written), written, header: label[2]!, indent, column };
  }

  /**
   * Where in the line being written the open tag's closing tag is being written (its start, `</na`),
   * else undefined. (Looked for in the line's last characters, `tail`: a closing tag being written with
   * over a hundred blanks in it is not.)
   */
  private closingTagAt(open: Section): number | undefined {
    const tail = this.tail;
    const at = tail.lastIndexOf("<");
    if (at < 0 || !`</${open.written}>`.startsWith(tail.slice(at).replace(/\s+$/, ""))) return undefined;
    return this.line.length - tail.length + at;
  }

  /**
   * Whether the line being written may still open a section (or close the open tag), so its text is not
   * shown as the open section's yet: it opens one already, or it is short and begins like an opener.
   */
  private mayOpen(open: Section): boolean {
    const line = this.line;
    if (open.form === "tag") return this.closingTagAt(open) !== undefined;
    if (open.inFence) return FENCE.test(line) || /^\s*[`~]{1,2}$/.test(line);
    // (The line itself is not read here, only what is known of it: see `WrittenLine`.)
    const { lead, first, last, opening } = this.written;
    if (first === "") return true;
    // (No section opens with a closing bracket: `}` ending a JSON value under a label shows at once.)
    if (first === "}" || first === "]") return false;
    if (this.lineOpener(open) !== undefined) return true;
    // An unindented line under a label may yet be a label (ending the value): shown once it is not.
    const indent = lead.length;
    if (open.form === "label" && indent <= open.indent && line.length <= 45 && !line.includes(":"))
      return true;
    if (open.form === "label" && indent > open.indent && !(indent <= (open.column ?? -1))) {
      // A line of a YAML block under an empty key may still become a key or an item: shown once whole,
      // or once its flow or quoted value has closed.
      return open.blankHeader && !"]}\"'".includes(last);
    }
    if (line.length - indent > this.names.longest + 24) return false;
    if (first === "`" || first === "~") return true;
    if (opening.startsWith("[[")) return true;
    const trimmed = line.trimStart();
    const words = sectionKey(trimmed.replace(/^(?:\[\[\s*|#+\s*|<|\*\*|[-*•]\s+)*/, ""));
    if (words === "") return true;
    for (const key of this.names.fields.keys()) {
      if (key.startsWith(words) || words.startsWith(key)) return true;
    }
    return false;
  }
}

/**
 * The start of the first line of `text` at or after `from` (a line's start) whose first character after
 * blanks (`\s`) begins one of `marks`, with at most `indent` blanks before it; undefined when no line
 * does. Found by searching for the marks, not by reading line by line: a long fenced value holds few.
 */
function lineStartingWith(
  text: string,
  from: number,
  marks: readonly string[],
  indent: number,
): number | undefined {
  const hits = marks.map((mark) => text.indexOf(mark, from));
  for (;;) {
    let which = -1;
    for (let at = 0; at < hits.length; at++) {
      if (hits[at]! >= 0 && (which < 0 || hits[at]! < hits[which]!)) which = at;
    }
    if (which < 0) return undefined;
    const hit = hits[which]!;
    let start = hit;
    while (start > from && isBlankAt(text, start - 1)) start--;
    const lineStart = start === from || text[start - 1] === "\n";
    if (lineStart && hit - start <= indent) return start;
    hits[which] = text.indexOf(marks[which]!, hit + 1);
  }
}

/** The open section is a label whose field holds text: its value goes on over blank lines and labels. */
function isText(open: Section | undefined): boolean {
  return open?.form === "label" && open.field?.text === true;
}

/** A label's value went on past its label's line (or its label has no value on its line). */
function wentOn(open: Section): boolean {
  return open.lines.length > 0 || open.blankHeader;
}

function hasContent(section: Section): boolean {
  return !section.blankHeader || section.lines.some((line) => line.trim() !== "");
}

/** Whether `text[at]` is a blank within a line (`\s` but a line break), spaces and tabs decided first. */
function isBlankAt(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code === 32 || code === 9) return true;
  return code !== 10 && BLANK.test(text[at]!);
}

/** A field of no declared shape: an XML map entry's value, read as a scalar, JSON or lines. */
const UNTYPED: SectionField = { key: "value", list: false, text: false, inner: undefined };

/** The fields made up for sections of undeclared names: their values are extra keys. */
const UNDECLARED = new WeakSet<SectionField>();

function undeclared(key: string): SectionField {
  const field: SectionField = { key, list: false, text: false, inner: undefined };
  UNDECLARED.add(field);
  return field;
}

/** How far back a closing tag being written is looked for in the part of a line searched before. */
const CLOSING_TAG_REACH = 128;

/** Where `</name>` (any case) is in `line`, from `from` on. */
function closingTag(line: string, name: string, from = 0): { start: number; end: number } | undefined {
  const pattern = new RegExp(`</\\s*${name.replace(/[.-]/g, "\\$&")}\\s*>`, "gi");
  pattern.lastIndex = from;
  const match = pattern.exec(line);
  return match === null ? undefined : { start: match.index, end: match.index + match[0].length };
}

/**
 * A section's value from its content (`partial`: the line being written, when shown); `complete`: the
 * section has closed. Undefined while it reads as nothing yet.
 */
function sectionValue(
  section: Section,
  partial: string | undefined,
  complete: boolean,
  written?: WrittenLine,
  root?: AnswerLines["root"],
): JsonishNode | undefined {
  if (!complete) {
    const plain = plainValue(section, partial, written);
    if (plain !== undefined) return plain;
  }
  const lines = partial === undefined ? section.lines : [...section.lines, partial];
  // (The whole content is read again: a step per character, so a stream shows when it does so each time.)
  for (const line of lines) workMeter.steps += line.length + 1;
  const node = readSectionContent(section, lines, complete, root);
  if (node === undefined || complete) return node;
  return incomplete(node);
}

/**
 * The value of a section still being written whose content is plain text or bullets, read from the lines
 * added since the last read (and the line being written), not from the whole content again: what
 * `readSectionContent` would give, at a cost growing with what changed. Undefined when the content is
 * not of that kind (a fence, JSON, nested sections, YAML under a key, a list of tags): read whole.
 */
function plainValue(
  section: Section,
  partial: string | undefined,
  written: WrittenLine | undefined,
): JsonishNode | undefined {
  if (section.plain === false) return undefined;
  const field = section.field;
  if (field === undefined) return undefined;
  if (section.plain === undefined) {
    // Which content `readSectionContent` reads as `readContent` or as a block scalar, line for line.
    const header = section.header.trim();
    const block = section.form === "label" ? blockScalarHeader(header) : undefined;
    const plain =
      field.inner === undefined &&
      !field.implied &&
      (section.form === "dspy" ||
        section.form === "heading" ||
        section.form === "tag" ||
        (section.form === "label" && header !== "" && block === undefined));
    if (block !== undefined) section.plain = new BlockContent(block, section.indent);
    else if (section.form === "label" && header === "" && !field.text && !field.implied && !section.table)
      section.plain = new YamlUnits(section.indent, incomplete);
    else if (!plain) {
      section.plain = false;
      return undefined;
    } else {
      // (A list's tag may hold its items as tags: content opening with one is read whole.)
      const tags = section.form === "tag" && field.list;
      const indent = section.form === "label" ? section.indent : undefined;
      section.plain = new PlainContent(field.text, indent, false, tags);
      if (section.form === "label") section.plain.add(header);
    }
  }
  const plain = section.plain;
  const decode = section.form === "tag";
  for (let at = plain.fed; at < section.lines.length; at++) {
    const line = section.lines[at]!;
    plain.add(decode ? decodeEntities(line) : line);
  }
  plain.fed = section.lines.length;
  if (plain.gaveUp) {
    // Content opening with a fence or JSON (not under a label) is read as such, line by line too.
    const opened = plain instanceof PlainContent && section.form !== "label" ? plain.opened : undefined;
    section.plain =
      opened === "fence"
        ? new PlainContent(field.text, undefined, true, field.list && section.form === "tag")
        : opened === "json"
          ? new JsonContent()
          : false;
    return section.plain === false ? undefined : plainValue(section, partial, written);
  }
  // (`written`: what is known of the line being written; for a tag's content, what of it is decoded for
  // good, `DecodedLine`.)
  const value =
    plain instanceof PlainContent && written !== undefined
      ? plain.value(partial === undefined ? undefined : decode ? written.text : partial, written)
      : plain.value(partial === undefined ? undefined : decode ? decodeEntities(partial) : partial);
  // Bullets with a colon under a list of scalars are lines of text (`mappingItems`), which the whole
  // read gives: read whole from here on.
  if (plain instanceof YamlUnits && value !== undefined && mappingItems(value, field)) {
    section.plain = false;
    return undefined;
  }
  return value;
}

/**
 * A section's content that is one JSON value (its first line opens it), read as a stream delivers it:
 * one fixing parser fed the lines as they arrive (and what the line being written grew by), whose
 * nodes grow in place as a JSON answer's do, so the coercers read each finished part once. Gives up
 * (the section is read whole) once text follows the value or a second one begins: `readContent` then
 * reads the content as text or lines.
 */
class JsonContent {
  fed = 0;
  gaveUp = false;
  private readonly parser = new FixingParser();
  /** What of the line being written the parser was given. */
  private pushed = 0;
  /** Where the text given to the parser ends, and where its last character that is not blank ends. */
  private length = 0;
  private written = 0;

  add(line: string): void {
    workMeter.steps += line.length + 1 - this.pushed;
    if (this.gaveUp) return;
    this.give(`${line.slice(this.pushed)}\n`);
    this.pushed = 0;
    this.gaveUp = !this.single();
  }

  value(partial: string | undefined): JsonishNode | undefined {
    if (this.gaveUp) return undefined;
    if (partial !== undefined && partial.length > this.pushed) {
      workMeter.steps += partial.length - this.pushed;
      this.give(partial.slice(this.pushed));
      this.pushed = partial.length;
    }
    if (!this.single()) return undefined;
    return this.parser.roots[0]?.node;
  }

  private give(text: string): void {
    this.parser.push(text);
    const end = text.trimEnd().length;
    if (end > 0) this.written = this.length + end;
    this.length += text.length;
  }

  /** The text given so far is one JSON value, with nothing but blanks after it once it has closed. */
  private single(): boolean {
    const roots = this.parser.roots;
    if (roots.length > 1) return false;
    const root = roots[0];
    return root === undefined || !root.node.complete || root.end >= this.written;
  }
}

/**
 * Content read line by line as `readContent` reads it whole when it is neither a fence, nor JSON, nor
 * nested sections: its trimmed text (a scalar when one line), or a list when every line is a bullet.
 * Lines are only added; each value handed out is a new node, but for the list of bullets: one node
 * whose items only grow (the item being written replaced at the end), as a JSON list being written is.
 */
class PlainContent {
  /** Lines of `lines` read so far. */
  fed = 0;
  /** "other": the content is not plain (its first line opens a fence or JSON); "empty": no text yet. */
  kind: "empty" | "plain" | "other" = "empty";
  /** The trimmed content before `last`, with the line break after it. */
  private head = "";
  /** The last line that is not blank (the first one trimmed at its start). */
  private last = "";
  /** Lines of the content up to `last`. */
  private count = 0;
  /** Blank lines after `last`, each with its line break. */
  private gap = "";
  /** Every line up to `last` (excluded) is a bullet; their items. */
  private bullets = true;
  private readonly items: JsonishNode[] = [];
  /** The list of `items` handed out (with the item being written last): the same node at every read. */
  private readonly list: ArrayNode = { kind: "array", items: [], complete: false };
  /** The first items of `list` that are `items` (the ones after them change from read to read). */
  private listed = 0;
  /** The length of the line being written at the last read (`value`): 0 when none was shown. */
  private shownLength = 0;
  /** The value given at the last read, and whether lines were added since. */
  private previous: JsonishNode | undefined;
  private added = false;
  /** The line being written is in the value given at the last read. */
  private shownNow = false;
  /** The content's first character. */
  private opening: string | undefined;
  /** A line not indented under its label (a label's value then is not one YAML scalar). */
  private unindented = false;

  /** The content is not plain: read whole from now on. */
  get gaveUp(): boolean {
    return this.kind === "other";
  }

  /** What the first line opened, when the content is not plain: a fence or JSON. */
  opened: "fence" | "json" | undefined;
  /** In fenced mode, the fence's marker (its opening line read), and whether its closing line came. */
  private fenceMark: string | undefined;
  private fenceClosed = false;

  /**
   * `indent`: a label's indentation (its value's lines are checked against it); `text`: a text field;
   * `inFence`: the content is one fenced block (its first line opens it), read as its content.
   */
  constructor(
    private readonly text: boolean,
    private readonly indent: number | undefined,
    private readonly inFence = false,
    private readonly tagItems = false,
  ) {}

  add(line: string): void {
    workMeter.steps += line.length + 1;
    this.shownLength = 0;
    this.added = true;
    if (line.trim() === "") {
      if (this.kind !== "empty") this.gap += `${line}\n`;
      return;
    }
    if (this.inFence && this.fenceLine(line)) return;
    if (this.indent !== undefined && this.count > 0 && indentOf(line) <= this.indent) this.unindented = true;
    if (this.kind === "empty") {
      const first = line.trimStart();
      if (this.opensOther(first)) {
        this.kind = "other";
        return;
      }
      this.kind = "plain";
      this.opening = first[0];
      this.last = first;
      this.count = 1;
      return;
    }
    if (this.kind === "other") return;
    this.head += `${this.last}\n${this.gap}`;
    this.count += 1 + countLines(this.gap);
    this.gap = "";
    this.pushBullet(this.last);
    this.last = line;
  }

  /**
   * The content's value with `partial` (the line being written) after it; undefined: read it whole.
   * `written`: what is known of `partial`, read instead of it (a long line is not read whole per chunk);
   * of a tag's content, the part decoded for good (`DecodedLine`), which only grows.
   */
  value(partial: string | undefined, written?: WrittenLine): JsonishNode | undefined {
    const shownBefore = this.shownNow;
    this.shownNow = false;
    const line = partial === undefined ? undefined : (written ?? lineOf(partial));
    const node = this.read(partial, line);
    // A text made by adding to the last one (not a line shown then held back, not an unquoted value).
    const previous = this.previous;
    const opening = this.kind === "plain" ? this.opening : line?.first;
    if (
      node?.kind === "string" &&
      previous?.kind === "string" &&
      // (A tag's line being written shows none of an entity still being written, `&lt`, so it grows too.)
      (this.added || !shownBefore || this.shownNow) &&
      opening !== '"' &&
      opening !== "'"
    )
      grew(node, previous);
    this.previous = node;
    this.added = false;
    return node;
  }

  private read(partial: string | undefined, line: WrittenLine | undefined): JsonishNode | undefined {
    if (this.kind === "other") return undefined;
    let shown = partial !== undefined && line!.first !== "" ? partial : undefined;
    // (The line being written only grows until it is added: what it grew by is what is read of it, its
    // value being made from its ends: a long line costs its length once, not once per read.)
    if (shown !== undefined) {
      workMeter.steps += 1 + Math.max(0, shown.length - this.shownLength);
      this.shownLength = shown.length;
    }
    if (this.inFence && (this.fenceMark === undefined || this.fenceClosed)) {
      // (Before the fence's first line: nothing yet; after its last: the line being written ends it or not.)
      if (this.fenceMark === undefined || shown !== undefined) return undefined;
    } else if (this.kind === "empty") {
      // Nothing but the line being written: a value of its own unless it opens a fence or JSON.
      if (shown === undefined || this.indent !== undefined || /^(?:```|~~~)/.test(line!.opening))
        return undefined;
      const { first, last, trimmed, beforeComma } = line!;
      if (!this.text && (first === "{" || first === "[")) return undefined;
      if (this.tagItems && first === "<") return undefined;
      this.shownNow = true;
      // (One line: a scalar, told from its ends.)
      return this.inFence
        ? { kind: "string", value: trimmed, complete: false }
        : incomplete(trimmedScalar(trimmed, first, last, beforeComma));
    }
    if (this.kind === "empty") return undefined;
    // (The marker of the next bullet being typed, `-` or `3.`, is not text ending the list: not shown.)
    if (shown !== undefined && this.listSoFar() && line!.trimmed.length <= 4 && PENDING_BULLET.test(shown))
      shown = undefined;
    this.shownNow = shown !== undefined;
    if (this.indent !== undefined) {
      // (A label with no line after its own reads as its one-line value; one whose lines are all
      // indented under it, as a YAML scalar: both are read whole.)
      const unindented = this.unindented || (shown !== undefined && line!.lead.length <= this.indent);
      if ((this.count === 1 && shown === undefined) || !unindented) return undefined;
    }
    if (shown === undefined) return this.node(this.count, `${this.head}${this.last.trimEnd()}`, this.last);
    const count = this.count + countLines(this.gap) + 1;
    const end = `${line!.lead}${line!.trimmed}`;
    return this.node(count, `${this.head}${this.last}\n${this.gap}${end}`, end, this.last);
  }

  /** Every line so far is a bullet (the content is a list, not text). */
  private listSoFar(): boolean {
    return !this.text && this.bullets && this.count > 0 && BULLET.test(this.last.trimEnd());
  }

  /**
   * The content's first line (trimmed at its start) opens a fence, or JSON (for other than text), or
   * (for a list's tag) the tag of an item.
   */
  private opensOther(first: string): boolean {
    const fence = /^(?:```|~~~)/.test(first);
    const json = !this.text && (first[0] === "{" || first[0] === "[");
    // (A fence's content that is JSON is read whole: not a fence again.)
    if (!this.inFence) this.opened = fence ? "fence" : json ? "json" : undefined;
    return fence || json || (this.tagItems && first[0] === "<");
  }

  /**
   * In fenced mode, whether `line` (not blank) is the fence's and not content: its opening line, its
   * closing one, or anything after that (the content is then not one fenced block: read whole).
   */
  private fenceLine(line: string): boolean {
    const trimmed = line.trimStart();
    if (this.fenceMark === undefined) {
      this.fenceMark = trimmed.slice(0, 3);
      return true;
    }
    if (this.fenceClosed || /^(?:```|~~~)/.test(trimmed)) {
      if (this.fenceClosed || !trimmed.startsWith(this.fenceMark)) this.kind = "other";
      this.fenceClosed = true;
      return true;
    }
    return false;
  }

  private node(count: number, content: string, lastLine: string, before?: string): JsonishNode {
    // (A fence's one line is text as written: `readContent`'s rule.)
    if (count === 1)
      return this.inFence ? { kind: "string", value: content, complete: false } : incomplete(scalar(content));
    if (!this.text && this.bullets) {
      const lastItem = BULLET.exec(lastLine.trimEnd());
      const middle = before === undefined ? null : BULLET.exec(before);
      if (lastItem !== null && (before === undefined || middle !== null)) {
        // One node for the whole list, grown in place: its finished items stay the same nodes, so the
        // list's coercer keeps them (each is coerced once) and only the items after them change.
        const items = this.list.items;
        items.length = this.listed;
        workMeter.steps += this.items.length - this.listed + 2;
        for (let at = this.listed; at < this.items.length; at++) items.push(this.items[at]!);
        this.listed = this.items.length;
        if (middle !== null) items.push(scalar(middle[1]!));
        items.push(incomplete(scalar(lastItem[1]!)));
        return this.list;
      }
    }
    return { kind: "string", value: content, complete: false };
  }

  private pushBullet(line: string): void {
    if (!this.bullets) return;
    const bullet = BULLET.exec(line);
    if (bullet === null) this.bullets = false;
    else this.items.push(scalar(bullet[1]!));
  }
}

/**
 * A YAML block scalar under a label (`Name: |`, `Name: >-`) read line by line as it arrives, as
 * `blockScalarText` reads it whole: while it is being written its trailing line breaks are not known
 * yet, so none is shown (the header's chomping applies once the section closes, read whole).
 */
class BlockContent {
  /** Lines of `lines` read so far. */
  fed = 0;
  /** A line not indented under the key is in the block (in a fence): read whole from now on. */
  gaveUp = false;
  private readonly body: BlockText;
  /** The content's indentation: the header's indicator, else the first line's that is not blank. */
  private contentIndent: number | undefined;
  /** The value given at the last read. */
  private previous: JsonishNode | undefined;

  constructor(
    header: BlockHeader,
    private readonly keyIndent: number,
  ) {
    this.body = new BlockText(header.folded);
    this.contentIndent = header.indent === undefined ? undefined : keyIndent + header.indent;
  }

  add(line: string): void {
    workMeter.steps += line.length + 1;
    if (line.trim() === "") {
      this.body.add("");
      return;
    }
    if (indentOf(line) <= this.keyIndent) {
      this.gaveUp = true;
      return;
    }
    this.contentIndent ??= indentOf(line);
    this.body.add(line.slice(this.contentIndent));
  }

  /** The block's text with `partial` (the line being written) after it; undefined: read it whole. */
  value(partial: string | undefined): JsonishNode | undefined {
    if (this.gaveUp) return undefined;
    let body = this.body;
    // (A line not indented under the key ends the block: it is not the block's.)
    if (partial !== undefined && partial.trim() !== "" && indentOf(partial) > this.keyIndent) {
      if (this.contentIndent === undefined) return undefined;
      workMeter.steps += partial.length;
      body = body.copy();
      body.add(partial.slice(this.contentIndent));
    }
    // (The block's text is only added to, and the line being written only grows: each value starts
    // with the last one.)
    const node: JsonishNode = { kind: "string", value: body.chomped("strip"), complete: false };
    if (this.previous !== undefined) grew(node, this.previous);
    this.previous = node;
    return node;
  }
}

function countLines(blankLines: string): number {
  let count = 0;
  for (let at = blankLines.indexOf("\n"); at >= 0; at = blankLines.indexOf("\n", at + 1)) count++;
  return count;
}

/**
 * JSON (or YAML flow) containers whose closing bracket was read: their leaves cannot grow any more, only
 * the text after them (so a stream shows `{"days": 3}` ending a label's line whole, as final mode does).
 */
const CLOSED = new WeakSet<JsonishNode>();

function closed(node: JsonishNode): JsonishNode {
  if (node.kind === "object" || node.kind === "array") CLOSED.add(node);
  return node;
}

/** A value read from content still being written: its last leaf may still grow (not in a closed container). */
function incomplete(node: JsonishNode): JsonishNode {
  if (CLOSED.has(node)) return { ...node, complete: false };
  if (node.kind === "object" && node.entries.length > 0) {
    const entries = [...node.entries];
    const [key, last] = entries.at(-1)!;
    entries[entries.length - 1] = [key, incomplete(last)];
    return { ...node, entries, complete: false };
  }
  if (node.kind === "array" && node.items.length > 0) {
    const items = [...node.items];
    items[items.length - 1] = incomplete(items.at(-1)!);
    return { ...node, items, complete: false };
  }
  return { ...node, complete: false };
}

/** Values read as the YAML block under a key with nothing after it (`Sections.yamlBlocks`). */
const YAML_BLOCK = new WeakSet<JsonishNode>();

function readSectionContent(
  section: Section,
  lines: string[],
  complete: boolean,
  root: AnswerLines["root"],
): JsonishNode | undefined {
  const field = section.field;
  if (field === undefined) return undefined;
  // (`Action Input: {"query": …}` is the whole object, read as JSON in the prose, not the field's value.)
  if (field.implied && field.inner === undefined && /^\s*\{/.test(section.header || (lines[0] ?? "")))
    return undefined;
  if (section.form === "tag") return readTagContent(lines.join("\n"), field, complete);
  if (section.form !== "label") return readContent(lines.join("\n"), field, complete);
  if (section.table !== undefined && section.header.trim() === "") return tableRows(lines, section.table);
  const header = section.header.trim();
  const written = blockScalarHeader(header);
  // (While the block is being written its trailing line breaks are not known yet: none is shown.)
  const block = written === undefined || complete ? written : { ...written, chomping: "strip" as const };
  if (block !== undefined) {
    let end = lines.length;
    while (end > 0 && lines[end - 1]!.trim() !== "" && indentOf(lines[end - 1]!) <= section.indent) end--;
    return {
      kind: "string",
      value: blockScalarText(lines.slice(0, end), section.indent, block),
      complete: true,
    };
  }
  const content = trimBlankEnd(lines);
  if (header === "") {
    // (Blank lines at the end too: a `|+` block at the end of the mapping keeps them.)
    const yaml = readYamlBlock(lines, section.indent, { starts: section.lineStarts, root });
    if (yaml !== undefined && !(field.text && isContainer(yaml)) && !mappingItems(yaml, field)) {
      YAML_BLOCK.add(yaml);
      return yaml;
    }
    return readContent(content.join("\n"), field, complete);
  }
  if (content.length === 0) return labelValue(lineOf(header), field);
  // A value over several lines indented under its key is one YAML scalar (folded); else text as written.
  if (content.every((line) => line.trim() === "" || indentOf(line) > section.indent)) {
    const yaml = readYamlBlock([`${" ".repeat(section.indent)}x: ${header}`, ...content], section.indent - 1);
    const entry = yaml?.kind === "object" ? yaml.entries[0]?.[1] : undefined;
    if (entry !== undefined && !(field.text && isContainer(entry))) return entry;
  }
  return readContent([header, ...content].join("\n"), field, complete);
}

/**
 * A TOON table's rows (one a line, cells split at the delimiter outside double quotes), each an object
 * keyed by the table's fields; a row of another width is read as far as it has cells or fields.
 */
function tableRows(lines: readonly string[], table: { columns: string[]; delimiter: string }): JsonishNode {
  const items: JsonishNode[] = [];
  for (const line of lines) {
    if (line.trim() === "") continue;
    const cells = splitCells(line.trim(), table.delimiter);
    const entries: [string, JsonishNode][] = [];
    table.columns.forEach((column, at) => {
      const cell = cells[at];
      if (cell !== undefined) entries.push([column, scalar(cell)]);
    });
    items.push({ kind: "object", entries, complete: true });
  }
  return { kind: "array", items, complete: true };
}

function splitCells(row: string, delimiter: string): string[] {
  const cells: string[] = [];
  let start = 0;
  let quoted = false;
  for (let at = 0; at < row.length; at++) {
    const char = row[at];
    if (char === '"' && row[at - 1] !== "\\") quoted = !quoted;
    else if (char === delimiter && !quoted) {
      cells.push(row.slice(start, at));
      start = at + 1;
    }
  }
  cells.push(row.slice(start));
  return cells;
}

function trimBlankEnd(lines: string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1]!.trim() === "") end--;
  return end === lines.length ? lines : lines.slice(0, end);
}

/**
 * A YAML sequence with mappings for items, under a field that holds a list of scalars: the items are
 * lines of text with a colon in them (`- Step 1: Preheat.`), not objects whose JSON would be the item.
 */
function mappingItems(yaml: JsonishNode, field: SectionField): boolean {
  return (
    field.list &&
    field.inner === undefined &&
    yaml.kind === "array" &&
    yaml.items.some((item) => item.kind === "object")
  );
}

function isContainer(node: JsonishNode): boolean {
  return node.kind === "object" || node.kind === "array";
}

/**
 * A label's one-line value: quoted or flow YAML as such (for a text field, quoted only: `{name}` is its
 * text), else as `LabelLines` reads a value. Told from its ends when it is plain text (a label line being
 * written is read at every chunk: see `WrittenLine`).
 */
function labelValue(value: WrittenLine, field: SectionField): JsonishNode {
  const { trimmed: header, first, last, beforeComma } = value;
  if (first === '"' || first === "'" || (!field.text && (first === "[" || first === "{"))) {
    const yaml = yamlScalar(header.replace(/,$/, ""));
    if (yaml !== undefined) return closed(yaml);
  }
  if (/^(?:```|~~~)/.test(value.opening)) return readContent(header, field, true) ?? scalar(header);
  return trimmedScalar(header, first, last, beforeComma);
}

/** A fence's content: the whole content when it is one fenced block (its tag line dropped). */
const WHOLE_FENCE = /^(```|~~~)[^\n]*\n([\s\S]*?)\n?\s*\1\s*$/;
/** A fence still open at the end of content being written: its content so far. */
const OPEN_FENCE = /^(```|~~~)[^\n]*(?:\n([\s\S]*))?$/;

/**
 * A section's content read by the usual rules, short of a whole parse: a fenced block is its content, a
 * class field's content may hold nested sections, a JSON container is itself, lines of bullets are a list,
 * one line is a scalar, and anything else is its text. A text field's content is never a container or a
 * list: brackets, braces and numbered lines are its text as written.
 */
function readContent(text: string, field: SectionField, complete: boolean): JsonishNode | undefined {
  let content = text.trim();
  if (content === "") return undefined;
  const fence = WHOLE_FENCE.exec(content) ?? (complete ? null : OPEN_FENCE.exec(content));
  if (fence !== null) {
    content = (fence[2] ?? "").trim();
    if (content === "") return undefined;
  }
  const inner = field.inner;
  if (inner !== undefined && field.list && content[0] === "|") {
    const table = readMarkdownTable(content, inner, complete);
    if (table !== undefined) return table;
  }
  if (inner !== undefined) {
    const node = nestedSections(content, inner, complete);
    if (node !== undefined) return node;
  }
  const first = content[0];
  if (!field.text && (first === "{" || first === "[")) {
    const parser = new FixingParser();
    parser.push(content);
    const roots = parser.end();
    const root = roots[0];
    if (
      roots.length === 1 &&
      root !== undefined &&
      (root.node.complete || !complete) &&
      root.end >= content.length
    )
      return root.node.complete ? closed(root.node) : root.node;
  }
  const lines = content.split("\n");
  if (lines.length === 1)
    return fence === null ? scalar(content) : { kind: "string", value: content, complete: true };
  const bullets = lines.filter((line) => line.trim() !== "").map((line) => BULLET.exec(line));
  if (!field.text && bullets.every((bullet) => bullet !== null))
    return { kind: "array", items: bullets.map((bullet) => scalar(bullet![1]!)), complete: true };
  return { kind: "string", value: content, complete: true };
}

/** A tag's content: nested tags for a class or a list, else its text with entities decoded. */
function readTagContent(text: string, field: SectionField, complete: boolean): JsonishNode | undefined {
  if (field.list) {
    // (An empty item of a list of lists, `<item></item>`, is an empty list.)
    if (complete && text.trim() === "") return { kind: "array", items: [], complete: true };
    const items = repeatedTags(text, complete, field.inner?.wrappers);
    // (A list of tags being written shows its finished items only.)
    if (items === undefined && !complete && /^\s*<\/?[\p{L}_]*$/u.test(text))
      return { kind: "array", items: [], complete: false };
    if (items !== undefined) {
      const itemField: SectionField = { ...field, list: false };
      const nodes = items.map(
        (item) =>
          readTagContent(item, itemField, true) ?? { kind: "string" as const, value: "", complete: true },
      );
      return { kind: "array", items: nodes, complete: true };
    }
  }
  if (field.inner !== undefined && /<[\p{L}_]/u.test(text)) {
    const node = nestedSections(text, field.inner, complete);
    if (node !== undefined) return node;
  }
  const map = field.text ? undefined : entryTags(text, complete, field.values);
  if (map !== undefined) return map;
  // (Tags a class does not declare are an object of those keys, which the class's coercer judges: never
  // their text, which a one-field class would take as its field.)
  const tags = field.inner !== undefined && complete ? siblingTags(text, true) : undefined;
  if (tags !== undefined && tags.length > 0) {
    const entries = tags.map((tag): [string, JsonishNode] => [tag.name, untypedTagValue(tag.content)]);
    return { kind: "object", entries, complete: true };
  }
  return readContent(decodeEntities(text), { ...field, inner: undefined }, complete);
}

/**
 * A list target's answer written as tags: one tag around repeated item tags (`<list><item>a</item>…
 * </list>`), or repeated item tags alone (`<item>` may be one), each item's content read as `item`'s.
 * Undefined for any other text. Read whole (a stream reads it again at each read).
 */
function readListTags(text: string, item: SectionField, complete: boolean): ArrayNode | undefined {
  const open = TAG_START.exec(text);
  if (open === null) {
    // (A tag whose name is being written may open the list: nothing shows yet.)
    const opening = !complete && /^\s*<[\p{L}_]?[\p{L}\p{N}_.-]*$/u.test(text);
    return opening ? { kind: "array", items: [], complete: false } : undefined;
  }
  const name = open[1]!;
  const wrappers = item.inner?.wrappers;
  let contents = itemTags(text, complete, wrappers);
  const single = contents !== undefined && contents.length < 2 && name.toLowerCase() !== "item";
  if ((contents === undefined || single) && item.inner?.wrappers.has(sectionKey(name)) !== true) {
    // (One tag around the items: its content, up to its closing tag, or while it is written. Prose after
    // the closing tag is not the list's; a tag after it (another list, a stray closer) is: no reading.)
    const rest = text.slice(open[0].length);
    const close = new RegExp(`</\\s*${name.replace(/[.-]/g, "\\$&")}\\s*>`, "i").exec(rest);
    if (close !== null) {
      const after = rest.slice(close.index + close[0].length);
      contents = /<\/?[\p{L}_]/u.test(after)
        ? undefined
        : itemTags(rest.slice(0, close.index), true, wrappers);
    } else if (!complete) contents = itemTags(rest, false, wrappers);
    else if (single) contents = undefined;
  }
  // (While the first item is written, the list shows empty: not the tags' text as an item.)
  if (contents === undefined || (complete && contents.length === 0)) return undefined;
  const items = contents.map(
    (content) =>
      readTagContent(content, item, true) ?? { kind: "string" as const, value: "", complete: true },
  );
  return { kind: "array", items, complete };
}

/**
 * `<x>…</x><x>…</x>` (one name, repeated, nothing else but blanks): the tags' contents. Tags naming the
 * item classes (`wrappers`: `<Cat>…</Cat><Dog>…</Dog>`, a list of a union's classes) may differ from
 * one item to the next; each such item is the whole tag, so its content is read inside its class's tag.
 */
function itemTags(
  text: string,
  complete: boolean,
  wrappers: ReadonlySet<string> | undefined,
): string[] | undefined {
  const tags = siblingTags(text, complete);
  if (tags === undefined || tags.length === 0) return tags === undefined || complete ? undefined : [];
  const name = tags[0]!.name.toLowerCase();
  if (tags.every((tag) => tag.name.toLowerCase() === name)) return tags.map((tag) => tag.content);
  if (wrappers !== undefined && tags.every((tag) => wrappers.has(sectionKey(tag.name))))
    return tags.map((tag) => `<${tag.name}>${tag.content}</${tag.name}>`);
  return undefined;
}

/**
 * A map written as XML (`<entry><key>k</key><value>v</value></entry>`, one per entry, as BAML's XML
 * output format writes one, maybe inside one tag such as `<map>`): an object of those keys; undefined
 * when the content is not only such entries. A value is read as `values` (the map's value field: its
 * class's tags, a list's item tags), else as a scalar, JSON or lines (then a value written as tags is its
 * text).
 */
function entryTags(text: string, complete: boolean, values?: SectionField): ObjectNode | undefined {
  const wrapped = !/^\s*<entry\s*>/i.test(text);
  if (wrapped && !/^\s*<[\p{L}_][\p{L}\p{N}_.-]*\s*>\s*<entry\s*>/iu.test(text)) return undefined;
  const tags = siblingTags(text, complete);
  if (wrapped && tags?.length === 0 && !complete) {
    // (One tag around the entries still open while they are written: the entries so far.)
    const open = TAG_START.exec(text)!;
    return entryTags(text.slice(open[0].length), false, values);
  }
  if (tags === undefined || tags.length === 0) return undefined;
  // (One tag around the entries, `<map>`, holds them.)
  if (wrapped) return tags.length === 1 ? entryTags(tags[0]!.content, complete, values) : undefined;
  const entries: [string, JsonishNode][] = [];
  for (const tag of tags) {
    if (tag.name.toLowerCase() !== "entry") return undefined;
    const parts = siblingTags(tag.content, true);
    const key = parts?.find((part) => part.name.toLowerCase() === "key");
    const value = parts?.find((part) => part.name.toLowerCase() === "value");
    if (parts?.length !== 2 || key === undefined || value === undefined) return undefined;
    const node =
      values === undefined
        ? untypedTagValue(value.content)
        : (readTagContent(value.content, values, true) ?? emptyText());
    entries.push([decodeEntities(key.content.trim()), node]);
  }
  return { kind: "object", entries, complete };
}

/** An empty text (a node of its own each time: a stream keeps state per node). */
const emptyText = (): JsonishNode => ({ kind: "string", value: "", complete: true });

/** A tag's content read for no declared type: a scalar, JSON or lines, entities decoded; empty, `""`. */
function untypedTagValue(content: string): JsonishNode {
  return readContent(decodeEntities(content), UNTYPED, true) ?? emptyText();
}

/** A class field's content read as sections of its own (still being written unless `complete`). */
function nestedSections(text: string, names: SectionNames, complete: boolean): ObjectNode | undefined {
  const nested = new Sections(names);
  nested.push(text);
  if (complete) nested.end();
  const node = nested.node();
  return node?.kind === "object" ? node : undefined;
}

/**
 * `<x>…</x><x>…</x>` (one name, repeated, nothing else but blanks): the items' contents. Tags naming the
 * item classes (`wrappers`: `<Cat>…</Cat><Dog>…</Dog>`) may differ from one item to the next; a single
 * tag of another name around such items (`<list>`, `<AddressList>`) is a container of them.
 */
function repeatedTags(
  text: string,
  complete: boolean,
  wrappers: ReadonlySet<string> | undefined,
): string[] | undefined {
  if (!/^\s*<[\p{L}_]/u.test(text)) return undefined;
  const tags = siblingTags(text, complete);
  if (tags === undefined || tags.length === 0) return tags === undefined ? undefined : [];
  const named = (tag: { name: string }) => wrappers?.has(sectionKey(tag.name)) === true;
  const first = tags[0]!;
  if (tags.length === 1 && !named(first)) {
    const inner = siblingTags(first.content, complete);
    if (inner !== undefined && inner.length > 0 && inner.every(named)) return inner.map((tag) => tag.content);
  }
  const same = (tag: { name: string }) => tag.name.toLowerCase() === first.name.toLowerCase();
  return tags.every(same) || tags.every(named) ? tags.map((tag) => tag.content) : undefined;
}

/** The start of a tag whose name is still being written (`<`, `</ite`, `<item`), after blanks. */
const TAG_BEING_WRITTEN = /^\s*<\/?[\p{L}_]?[\p{L}\p{N}_.-]*\s*$/u;

/** `<a>…</a><b>…</b>` (nothing else but blanks): each tag's name and content; undefined otherwise. */
function siblingTags(text: string, complete: boolean): { name: string; content: string }[] | undefined {
  const item = /\s*<([\p{L}_][\p{L}\p{N}_.-]*)\s*>/uy;
  const tags: { name: string; content: string }[] = [];
  let at = 0;
  while (at < text.length) {
    item.lastIndex = at;
    const open = item.exec(text);
    if (open === null) {
      if (text.slice(at).trim() === "") break;
      // (While the content is being written, a tag still being written is not one yet; text that can no
      // longer become one, `</it{`, is none.)
      if (!complete && TAG_BEING_WRITTEN.test(text.slice(at))) break;
      return undefined;
    }
    // (Searched from the opening tag on, not in a copy of the rest: the items cost the text's length. A
    // tag of the same name inside it, `<item><item>1</item></item>` in a list of lists, nests.)
    const name = open[1]!.replace(/[.-]/g, "\\$&");
    const mark = new RegExp(`<(/?)\\s*${name}\\s*>`, "gi");
    mark.lastIndex = item.lastIndex;
    let closed: RegExpExecArray | null = null;
    for (let depth = 1; depth > 0; ) {
      closed = mark.exec(text);
      if (closed === null) break;
      depth += closed[1] === "/" ? -1 : 1;
    }
    if (closed === null) {
      if (!complete) break;
      return undefined;
    }
    tags.push({ name: open[1]!, content: text.slice(item.lastIndex, closed.index) });
    at = closed.index + closed[0].length;
  }
  return tags;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };
/**
 * The start of an entity `decodeEntities` may still decode once more characters come (`&am`, `&#3`,
 * `&#x2`): its forms, with no `;` yet, and a name no longer than `ENTITIES`' longest could be.
 */
const ENTITY_BEING_WRITTEN = /^&(?:#\d{0,7}|#[xX][0-9a-fA-F]{0,6}|[a-zA-Z]{0,8})$/;

/**
 * The line being written with its entities decoded, as `decodeEntities` decodes the whole line, from what
 * each push adds: `line`, decoded up to its last `&` when the characters after it may still become an
 * entity (`carry`, not shown yet: `&lt` shown, then `<`, would not grow). No entity reaches over a `&`,
 * so the parts decode apart: a long line is never decoded again whole at each read.
 */
class DecodedLine {
  readonly line = new WrittenLine();
  private carry = "";

  reset(text: string): void {
    this.line.reset("");
    this.carry = "";
    this.add(text);
  }

  add(text: string): void {
    let next = this.carry + text;
    this.carry = "";
    const at = next.lastIndexOf("&");
    if (at >= 0 && ENTITY_BEING_WRITTEN.test(next.slice(at))) {
      this.carry = next.slice(at);
      next = next.slice(0, at);
    }
    if (next !== "") this.line.add(decodeEntities(next));
  }
}

/** `&amp;`, `&lt;`, `&#39;`, `&#x27;` decoded; a bare `&` or an unknown name stays as written. */
function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(
    /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]+));/g,
    (whole, decimal, hex, name) => {
      if (name !== undefined) return ENTITIES[name as string] ?? whole;
      const code = decimal !== undefined ? Number(decimal) : Number.parseInt(hex as string, 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    },
  );
}

/**
 * Strings a section's content reader made by adding to the one it made before (`PlainContent`,
 * `BlockContent`): each maps to that one, which it is known to start with, without comparing them.
 */
const GROWN = new WeakMap<JsonishNode, JsonishNode>();

/**
 * `next` was made by adding to `shown`, the value given before it. Only that last link is kept: each
 * value linked to the one before would keep every value a stream showed alive (a long line's text once
 * per chunk), and collecting them would cost the square of its length.
 */
function grew(next: JsonishNode, shown: JsonishNode): void {
  GROWN.delete(shown);
  GROWN.set(next, shown);
}

/** Whether `next` shows everything `shown` showed (a stream may replace the one by the other silently). */
function extendsNode(shown: JsonishNode, next: JsonishNode): boolean {
  if (shown.kind === "null" || GROWN.get(next) === shown) return true;
  switch (shown.kind) {
    case "string":
      return next.kind === "string" && next.value.startsWith(shown.value);
    case "number":
      return next.kind === "number" && next.text.startsWith(shown.text);
    case "bool":
      return next.kind === "bool" && next.value === shown.value;
    case "object": {
      if (next.kind !== "object" || next.entries.length < shown.entries.length) return false;
      return shown.entries.every(
        ([key, value], at) => next.entries[at]![0] === key && extendsNode(value, next.entries[at]![1]),
      );
    }
    case "array": {
      if (next.kind !== "array" || next.items.length < shown.items.length) return false;
      return shown.items.every((item, at) => extendsNode(item, next.items[at]!));
    }
  }
}
