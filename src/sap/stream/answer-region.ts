import { QuotedAnswer } from "../kinds/primitive/quoted-answer.js";
import { ScalarAnswer } from "../kinds/primitive/scalar-answer.js";
import { FixingParser, type ParsedRoot } from "../lenient/fixing-parser.js";
import type { ArrayNode, ObjectNode } from "../lenient/jsonish-node.js";
import { parseStrictJson, type StrictJson } from "../lenient/parse-strict-json.js";
import { FenceLabelLines } from "../lenient/read-label-lines.js";
import { workMeter } from "../work-meter.js";

/**
 * Reads a `JSON.parse` value read out of a whole fence: its partial value when it is exactly a value of
 * the target type (see `exactPartial`), else undefined.
 */
export type WholeReader = (value: unknown) => { value: unknown } | undefined;

/**
 * A stretch of the answer as the `AnswerScanner` cuts it: prose around fences, or a fence's content.
 * Each region is read by its own resumable `FixingParser`, except a fence whose whole content arrived at
 * once (a consumer that reads after a long stretch of chunks, or a one-shot partial parse) and is valid
 * JSON exactly of the target type: as final mode's fast path does, `JSON.parse` reads it and the value is
 * kept (`whole`); the fixing parser runs over the text only if a reader asks for its nodes (objects
 * gathered into a list). Its one root is the root the fixing parser gives for that text (valid JSON: one
 * container, no repair), and a text read in one push or in any split leaves the parser with the same
 * roots.
 */
export class AnswerRegion {
  /** The fence's info string (`json`), for fences. */
  tag = "";
  /** The fence's content so far, for fences, when the scanner keeps it (plain-text targets read it). */
  content = "";
  /**
   * `content` without the blanks around it, as `trim` gives it, built as the content arrives: trimming
   * `content` at every read would copy the whole of it each time (quadratic over a long fence).
   */
  trimmed = "";
  /** Blanks after the last other character of the content, held until more text follows them. */
  private blanks = "";
  /**
   * For fences whose content is kept: that content read as one quoted string, while it may be one (final
   * mode reads a fence holding `"OFF"` as `OFF`, as it reads a whole answer that is one quoted string).
   */
  readonly quoted = new QuotedAnswer();
  /** For fences whose content is kept: whether that content may still be one JSON scalar (`1`, `nul`). */
  readonly scalar = new ScalarAnswer();
  /**
   * For fences: where the content starts in the scanner's text (after the info line; -1 while that line
   * is being written), and where it ends (the closing run, or the end of the answer; -1 while open).
   */
  contentStart = -1;
  contentEnd = -1;
  /** How many characters of content the fence has received (counted whether or not it is kept). */
  contentLength = 0;
  /** The region will receive no more text. */
  ended = false;
  /** For fences: the closing backticks were seen. */
  closed = false;
  /**
   * A fence read whole, valid JSON exactly of the type: its partial value (see the class header), looked
   * at only when a reader asks (a stream read once at its end never does).
   */
  get whole(): { value: unknown } | undefined {
    const read = this.readWhole;
    if (read !== undefined) {
      this.readWhole = undefined;
      this.wholeValue = read(this.strict!.value);
    }
    return this.wholeValue;
  }
  /**
   * For fences given their whole content at once and read as JSON (`pushWhole`): that reading (undefined:
   * not valid JSON); unset when the content was not read so (the end reads it then).
   */
  strictContent: { strict: StrictJson | undefined } | undefined;
  private readWhole: WholeReader | undefined;
  private wholeValue: { value: unknown } | undefined;
  private strict: StrictJson | undefined;
  /** For fences: the content as `key: value` lines, read as it arrives while it holds no container. */
  readonly labels: FenceLabelLines | undefined;
  private reader: FixingParser | undefined = counted(new FixingParser());
  /** The text of a fence read whole, until its parser is asked for. */
  private wholeText = "";
  private wholeRoots: ParsedRoot[] | undefined;

  constructor(
    readonly kind: "prose" | "fence",
    /** Offset of the region in the answer (for fences, of the opening backticks). */
    readonly start: number,
  ) {
    this.labels = kind === "fence" ? new FenceLabelLines() : undefined;
  }

  /** Reads this region's text; ended when the region is (a fence opened, or the fence closed). */
  get parser(): FixingParser {
    if (this.reader === undefined) {
      // A fence read whole: its nodes are wanted after all. The same roots as chunk by chunk.
      this.reader = counted(new FixingParser());
      this.reader.push(this.wholeText);
      this.reader.end();
      this.wholeText = "";
    }
    return this.reader;
  }

  /**
   * The containers found in the region so far (live, as `FixingParser.roots`). For a fence read whole
   * as valid JSON: its one root, whose node is parsed only when asked for.
   */
  get roots(): ParsedRoot[] {
    return this.wholeRoots ?? this.parser.roots;
  }

  /** Give the region text. */
  push(text: string): void {
    const parser = this.parser;
    parser.push(text);
    this.labels?.push(text, parser.roots.length);
  }

  /** Keep a fence's content as it arrives, and read it as one quoted string or scalar while it may be. */
  keep(text: string): void {
    this.content += text;
    this.quoted.push(text);
    this.scalar.push(text);
    workMeter.steps += text.length;
    const first = text.search(NOT_BLANK);
    if (first < 0) {
      if (this.trimmed !== "") this.blanks += text;
      return;
    }
    let end = text.length;
    while (BLANK.test(text[end - 1]!)) end--;
    this.trimmed += this.trimmed === "" ? text.slice(first, end) : this.blanks + text.slice(0, end);
    this.blanks = text.slice(end);
  }

  /**
   * Give a fence its whole content at once, just before it closes: kept as `readWhole` reads it when it
   * is valid JSON holding a container exactly of the type, else read by the fixing parser as any text is
   * (`parsed`: the text already parsed as valid JSON by the caller).
   */
  pushWhole(text: string, readWhole: WholeReader, parsed?: StrictJson): void {
    // `\b` and `\f` before a letter are LaTeX to the fixing parser (`\beta`), escapes to `JSON.parse`.
    const readable =
      parsed !== undefined || (this.contentLength === 0 && !text.includes("\\b") && !text.includes("\\f"));
    const strict = parsed ?? (readable ? parseStrictJson(text) : undefined);
    if (readable) this.strictContent = { strict };
    const value = strict?.value;
    if (typeof value !== "object" || value === null) {
      this.push(text);
      return;
    }
    // Valid JSON holding a container: one root, the one the fixing parser gives for that text (it skips
    // the blanks before the value and reads the rest as one container), parsed only when its nodes are
    // asked for; whether it is exactly of the type is asked of `readWhole` only when a read wants it.
    const trimmed = text.trim();
    const start = text.indexOf(trimmed[0]!);
    const node = (): ObjectNode | ArrayNode => this.parser.roots[0]!.node;
    this.strict = strict;
    this.readWhole = readWhole;
    this.reader = undefined;
    this.wholeText = text;
    // (A fence of JSON holds a container: it is not read as label lines.)
    this.labels?.push(text, 1);
    this.wholeRoots = [
      {
        get node() {
          return node();
        },
        start,
        end: start + trimmed.length,
        repairs: [],
      },
    ];
  }

  /** No more text: the region's readers resolve what they were waiting for. */
  end(): void {
    this.ended = true;
    if (this.reader !== undefined) this.reader.end();
    this.labels?.end();
  }
}

/** What `String.prototype.trim` removes, and anything else. */
const BLANK = /\s/;
const NOT_BLANK = /\S/;

/** The parser's steps count in `workMeter`, as every streaming reader's work does. */
function counted(parser: FixingParser): FixingParser {
  parser.work = workMeter;
  return parser;
}
