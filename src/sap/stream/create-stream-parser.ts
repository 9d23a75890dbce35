import type { Ir, IrIndex, Type } from "../../ir/index.js";
import type { ConstraintEvaluator } from "../coerce/coerce-context.js";
import type { Flag } from "../flags.js";
import type { ParseResult } from "../parse-value.js";
import { finalAsPartial } from "./check-partial-value.js";
import { endChange } from "./end-change.js";
import { indexOf } from "./index-of.js";
import { PartialReader } from "./partial-reader.js";
import { partialType } from "./partial-type.js";
import { samePartial } from "./same-partial.js";
import { stepBack } from "./step-back.js";

export interface StreamParserOptions {
  /** Evaluates `@check`/`@assert` expressions; required when the type has any. */
  constraintEvaluator?: ConstraintEvaluator;
}

/** A read of the partial value: whether it changed since the previous read, and the partial value now. */
export interface StreamPush {
  /** False when the partial equals the one of the previous read (nothing new to show). */
  changed: boolean;
  /** The partial value so far (`null`, or `[]`/`{}` for lists and maps, while nothing usable is written). */
  value: unknown;
  /**
   * Set only when another reading of the answer won with this chunk (a later fence over an earlier
   * draft, say), or a key was written again (its value starts over, as the last key wins):
   * `[ReadingSwitch]`, the one case where a partial may drop what the previous one showed.
   */
  flags?: readonly Flag[];
}

/**
 * An incremental parser of one streamed answer; see `createStreamParser`. Two ways to use it: `push` after
 * every chunk (a partial per chunk, the convenience), or `append` for every chunk and `read` only when a
 * partial is wanted (the cheap path: appending only advances the parser, so a consumer that reads at its
 * own pace pays for the partials it reads, not for one per chunk).
 */
export interface StreamParser {
  /**
   * Feed the next chunk of the answer (any split: inside escapes, surrogate pairs, numbers, `true`) and
   * read the partial: `append(chunk)` then `read()`.
   */
  push(chunk: string): StreamPush;
  /**
   * Feed the next chunk: only kept (constant time), no parsing and no partial value until `read`, which
   * catches the parser up on everything appended since the previous read.
   */
  append(chunk: string): void;
  /**
   * The partial value of the answer so far: the parser catches up on the chunks appended since the last
   * read (in one piece: a fence that opened and closed in between, holding valid JSON of the type, is
   * read with `JSON.parse` as final mode reads it), then builds the partial from its state (only the part
   * that changed since the last read); `changed` compares it with the previous read. Reading twice with no
   * chunk in between returns the same value (same identity) with `changed: false`. A partial handed out
   * is never mutated afterwards.
   */
  read(): StreamPush;
  /**
   * The answer is complete: the reader settles what only the end decides (a number or string still
   * open, a fence's last line, a union undecided) and final mode's choice runs over the readings it
   * built, with no second parse of the text. Gives what `parseValue(wholeText, type, ir)` gives; throws
   * `SapParseError` when the answer does not hold a value of the type, as `parseValue` does. Called once.
   * One flag more where the final value replaces what the last partial showed rather than adding to
   * it (docs/sap.md, *What a partial may show and the final may change*): `ReadingSwitch` at the path
   * replaced, so a consumer replaces what it showed instead of merging.
   */
  finish(): ParseResult;
  /** The whole answer received so far. */
  readonly text: string;
}

const SWITCHED: readonly Flag[] = Object.freeze([
  Object.freeze({
    kind: "ReadingSwitch" as const,
    path: "$",
    detail: "another reading of the answer won with this chunk",
  }),
]);

/**
 * An incremental parser for answers that arrive in chunks. Each `push` resumes scanning where the previous
 * one stopped (fences, prose and JSON alike; nothing is scanned twice), coerces each finished subtree once
 * and re-coerces only the value still being written, so a whole stream costs time linear in its length.
 * Partial values follow `parsePartial`'s semantics and equal `parsePartial(textSoFar)` whenever read;
 * an unchanged partial keeps its identity and reports `changed: false`. A partial is built only when read
 * (`read`, or `push`, which reads after appending), and the text is parsed only then: a stream appended
 * chunk by chunk and read once costs one scan of its text (fences of valid JSON read by `JSON.parse`)
 * plus one partial.
 */
export function createStreamParser(
  type: Type,
  ir: Ir | IrIndex,
  options: StreamParserOptions = {},
): StreamParser {
  return new ChunkedAnswer(type, indexOf(ir), options);
}

/**
 * `createStreamParser`'s parser. Its state lives in fields, its methods on the prototype: a parser kept in
 * one closure scope shared by its methods stayed alive past young collections after `finish()`, and a
 * stream read once at its end spent twice as long in the collector as `parseValue`.
 */
class ChunkedAnswer implements StreamParser {
  /** (Read by `endsUnsettled` too.) */
  readonly reader: PartialReader;
  /**
   * The answer so far: the pieces the reader was given (joined only when asked for: `finish`, `text`),
   * then what was appended since the last read (`pending`).
   */
  private readonly taken: string[] = [];
  /**
   * The text appended since the last read: `append` only adds to it, `read` hands it to the reader in one
   * piece (a reader catching up over a whole fence reads it with `JSON.parse`, as final mode does). Built
   * with `+=`: V8 keeps the pieces as a rope and copies them once, when the reader first reads the text,
   * which costs less than keeping them in an array and joining it.
   */
  private pending = "";
  /** Whether a chunk arrived since the last read: without one, a read is the cached partial. */
  private fresh = true;
  private last: unknown = null;
  /** What `finish` gave (asked again, it gives the same). */
  private ended: { result: ParseResult } | { error: unknown } | undefined;

  constructor(
    private readonly type: Type,
    private readonly index: IrIndex,
    private readonly options: StreamParserOptions,
  ) {
    this.reader = new PartialReader(type, index, {
      constraintEvaluator: options.constraintEvaluator,
      collectFlags: false,
    });
  }

  push(chunk: string): StreamPush {
    this.append(chunk);
    return this.read();
  }

  append(chunk: string): void {
    if (this.ended !== undefined)
      throw new Error("StreamParser.push after finish(): create a new parser for a new answer.");
    if (chunk === "") return;
    this.pending += chunk;
    this.fresh = true;
  }

  read(): StreamPush {
    if (!this.fresh) return { changed: false, value: this.last };
    this.fresh = false;
    const text = this.pending;
    this.pending = "";
    this.taken.push(text);
    const reader = this.reader;
    reader.push(text);
    const reading = reader.read();
    const value = reading ? reading.value : reader.nothingYet();
    const changed = reader.changed || !samePartial(value, this.last);
    // An equal partial from another reading is not news: keep handing out the previous one.
    if (!changed) return { changed: false, value: this.last };
    const shown = this.last;
    this.last = value;
    // Another reading won: announced where it takes back what was shown (`stepBack`); one that only
    // adds to it (fills, grows, appends) is news like any other.
    return reader.switched && stepBack(shown, value) !== undefined
      ? { changed, value, flags: SWITCHED }
      : { changed, value };
  }

  finish(): ParseResult {
    if (!this.ended) {
      // The chunks not read yet go to the reader as the answer's last (no partial is built), then the
      // reader ends, once.
      if (this.pending !== "") {
        this.taken.push(this.pending);
        this.reader.pushLast(this.pending);
        this.pending = "";
      }
      try {
        this.ended = { result: this.announced(this.reader.end(this.joined(), this.options)) };
      } catch (error) {
        this.ended = { error };
      }
    }
    if ("error" in this.ended) throw this.ended.error;
    return this.ended.result;
  }

  get text(): string {
    return this.joined();
  }

  private joined(): string {
    const taken = this.taken;
    if (taken.length > 1) taken.splice(0, taken.length, taken.join(""));
    return (taken[0] ?? "") + this.pending;
  }

  /**
   * The end replaced what the last partial showed (not only added to it, `endChange`): announced on the
   * result, as a push announces another reading winning (decision 0039).
   */
  private announced(result: ParseResult): ParseResult {
    const last = this.last;
    if (last === null) return result;
    const final = finalAsPartial(result.value, partialType(this.type, this.index), this.index);
    const change = endChange(last, final, result.flags);
    if (change.kind !== "replaces" && change.kind !== "drops") return result;
    // (undefined: a field or item the final does not have.)
    const show = (value: unknown) => (value === undefined ? "nothing" : JSON.stringify(value).slice(0, 80));
    const flag: Flag = {
      kind: "ReadingSwitch",
      path: change.path,
      detail:
        change.kind === "drops"
          ? `the end of the answer dropped an item or entry the last partial showed: ${show(change.shown)}`
          : `the end of the answer replaced what the last partial showed: ${show(change.shown)} → ${show(change.final)}`,
    };
    return { ...result, flags: [...result.flags, flag] };
  }
}

/**
 * Whether the answer given to `parser` so far ends inside something unfinished that only the end of the
 * answer settles (see `PartialReader.openAtEnd`): where it does not, the last partial is the final value
 * as a partial. Ask before `finish()`, which settles everything. For the agreement checks of tests and
 * the fuzz run; not part of the public API.
 */
export function endsUnsettled(parser: StreamParser): boolean {
  if (!(parser instanceof ChunkedAnswer))
    throw new Error("endsUnsettled: not a parser from createStreamParser");
  parser.read();
  return parser.reader.openAtEnd();
}
