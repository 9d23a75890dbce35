import type { IrIndex, Type } from "../../ir/index.js";
import { type Candidate, ORIGIN_RANK } from "../choose/candidate.js";
import { type Placing, pick, preferable, showsNothing } from "../choose/rank-readings.js";
import { chooseReading, type QuickAnswer, quickAnswer } from "../choose/settle-answer.js";
import type { ConstraintEvaluator, PlainTextUse } from "../coerce/coerce-context.js";
import type { CoerceResult, CoerceSuccess } from "../coerce/coerce-result.js";
import { TooDeep, withKnownNames } from "../coerce/create-coerce-context.js";
import { gatheredScore } from "../coerce/gathered-score.js";
import { NOT_EXACT } from "../coerce/read-exact.js";
import { FLAG_PENALTIES } from "../flags.js";
import { QuotedAnswer } from "../kinds/primitive/quoted-answer.js";
import { ScalarAnswer } from "../kinds/primitive/scalar-answer.js";
import { leadInIsOneLine } from "../lenient/fence-is-the-answer.js";
import { FinalAnswerMarker } from "../lenient/final-answer-marker.js";
import type { ParsedRoot } from "../lenient/fixing-parser.js";
import {
  type ArrayNode,
  type JsonishNode,
  lastChild,
  nodeFromJson,
  type ObjectNode,
  type StringNode,
} from "../lenient/jsonish-node.js";
import { parseJsonInString, parseStrictJson, type StrictJson } from "../lenient/parse-strict-json.js";
import { LabelLines, type LabelReading, labelReading } from "../lenient/read-label-lines.js";
import { sectionsOverRecords } from "../lenient/read-label-records.js";
import { Sections } from "../lenient/read-sections.js";
import { ReasoningBlocks } from "../lenient/reasoning-blocks.js";
import { sectionNamesOf } from "../lenient/section-names.js";
import type { ParseOptions, ParseResult } from "../parse-value.js";
import { blankBetween, structureBeatsText } from "../structure-beats-text.js";
import { workMeter } from "../work-meter.js";
import { type AnswerRegion, AnswerScanner } from "./answer-scanner.js";
import { candidatesAtEnd, type EndSource, endRereads } from "./end-candidates.js";
import { exactPartial } from "./exact-partial.js";
import { grewFrom, samePartial } from "./same-partial.js";
import { patchSpine, type SpineTrail, traceSpine } from "./spine-trail.js";
import {
  createStreamCoerceContext,
  plainTextUse,
  type StreamCoerceContext,
  withoutHalfPair,
} from "./stream-coerce-context.js";
import { pendingOf } from "./stream-of.js";

/** One reading of the answer so far, coerced to the target type. */
export interface PartialReading extends Placing {
  value: unknown;
  result: CoerceSuccess;
  /** Score plus the fields still to come: how far this reading is from a whole, exact value. */
  distance: number;
  /** The reading shows nothing yet (every field null or empty); computed when readings are compared. */
  empty: boolean | undefined;
  /** Its text is finished (a closed container or fence). */
  complete: boolean;
  /** As in final mode: a fence beats prose, which beats plain text. */
  rank: number;
  nested: boolean;
  /** Position in the answer; the earlier wins a tie, unless the later follows a final-answer marker. */
  order: number;
  /** How it ranks by final-answer markers and example lead-ins before it (`FinalAnswerMarker.level`). */
  level: number;
  /** All objects gathered into one list, or a reading of the whole text: no value written at one place. */
  combined: boolean;
  /** Where the reading came from, for the flags of a one-shot partial parse. */
  source: ReadingSource;
}

/** The region and container a reading was read from (none: the whole text; no root: a fence's text). */
export interface ReadingSource {
  region?: AnswerRegion;
  root?: ParsedRoot;
  /** A finished container inside an unclosed root, read on its own (see `openChildren`). */
  child?: JsonishNode;
  combined?: boolean;
  /** Read as `key: value` lines (an answer with no JSON at all, or a fence's text with no container). */
  labels?: boolean;
  /** Read as sections named by the target's fields (`Sections`). */
  sections?: boolean;
  /** Label lines read as the records a first key written again starts (`LabelLines.repeats`). */
  repeats?: boolean;
}

export interface PartialReaderOptions {
  constraintEvaluator?: ConstraintEvaluator | undefined;
  collectFlags: boolean;
  /** Reads the text after the last reasoning block (see `PartialReader.answer`): looks for none itself. */
  afterReasoning?: boolean;
  /** See `StreamCoerceOptions.finishedWhole` (default true; off when flags are collected). */
  finishedWhole?: boolean;
}

const COMBINED_ORDER = Number.MAX_SAFE_INTEGER - 1;
const TEXT_ORDER = Number.MAX_SAFE_INTEGER;
/** Where the spine's nodes start in the shape list (`compareShape`). */
const SPINE_START = 5;

/**
 * Reads the prefix of an answer into the best partial value, keeping everything between chunks. Readings
 * are the ones final mode considers (each fence, each container in the prose, all objects as one list,
 * the text itself for plain-text targets). A reading whose text is finished is *frozen*: coerced once and
 * folded into a running best, in answer order; only the reading still being written (at most one
 * container, the open fence's text, the combined list and the whole text) is coerced again per chunk, and
 * that coercion itself only redoes the open right-hand spine.
 *
 * Choosing: a reading that shows something beats one that shows nothing; then the lower score plus
 * fields still to come; then a finished reading beats one being written (a complete draft is kept until
 * the final answer has caught up); then fence over prose; then the later one.
 */
export class PartialReader {
  private readonly scanner: AnswerScanner;
  /** The coerce context of reads (`context`): made at the first read (a reader read once at its end needs none). */
  private streamContext: StreamCoerceContext | undefined;
  /** The answer so far has a `\u` escape (`StreamCoerceContext.escapes`). */
  private escapes = false;
  private readonly plainText: PlainTextUse;
  private text = "";
  private readonly textNode: StringNode = { kind: "string", value: "", complete: false };
  /**
   * Reasoning blocks (`<think>…</think>`), as in final mode: the text after the last closed block is the
   * answer, read on its own by `answer` (a reader of that text alone, a new one each time a block closes),
   * and this reader's readings of the whole text are a fallback, for while the answer shows nothing. (A
   * container opened in the reasoning may run on over the closing tag: the answer is read apart.)
   */
  private readonly reasoning: ReasoningBlocks | undefined;
  private answer: PartialReader | undefined;
  /** The answer's reader whose reading the last read showed (a block closing later starts another). */
  private shownAnswer: PartialReader | undefined;
  /** Where `answer`'s text starts in the whole text, and how much text this reader was given. */
  private answerStart = 0;
  private length = 0;
  /** The last read chose `answer`'s reading; `base` is where the text of that reading starts. */
  private fromAnswer = false;
  base = 0;
  /** The answer as one JSON string, decoded (final mode reads `"solo"` as `solo`), while it may be one. */
  private readonly quoted = new QuotedAnswer();
  /** Final-answer markers and example lead-ins: they rank readings on equal scores (`earlierOrMarked`). */
  private readonly marker = new FinalAnswerMarker();
  private readonly quotedNode: StringNode = { kind: "string", value: "", complete: false };
  /** Whether the answer so far may be one JSON scalar (final mode reads `1`, `null` as such, not as text). */
  private readonly scalar = new ScalarAnswer();
  /**
   * The answer as `key: value` lines, while it may be read so (final mode: when it has no JSON at all).
   * A fence's content is read so by its own region (`AnswerRegion.labels`).
   */
  private readonly labels = new LabelLines();
  /** The last read tried the answer's text as a reading, and it did not fit yet (see `openAtEnd`). */
  private textWaits = false;
  /** The answer as sections named by the target class's fields (final mode's `readSections`). */
  private readonly sections: Sections | undefined;
  private labelsOpen = true;
  /** `sections.regressions` at the last read (see `choose`). */
  private sectionRegressions = 0;
  /** The value the sections reading gave at the last read (see `read`). */
  private sectionsShown: { value: unknown } | undefined;
  /** Some region has a container; regions before `rootScan` have none (see `hasRoots`). */
  private rootsSeen = false;
  private rootScan = 0;
  /** Each fence's text as one node, updated in place (see `textNode`). */
  private fenceNodes: WeakMap<AnswerRegion, StringNode> | undefined;
  /** Each fence's content as one quoted string, decoded (see `AnswerRegion.quoted`), updated in place. */
  private fenceQuotedNodes: WeakMap<AnswerRegion, StringNode> | undefined;
  /**
   * The answer's fences are only part of it (`fenceIsTheAnswer`): two fences, more than a line of lead-in
   * before one, or text after it. Once true it stays true; `fenceScan` is the next region to look at,
   * `soleFence` the one fence seen so far, and `blankTo` how far the text after it is known blank.
   */
  private fencesInProse = false;
  private fenceScan = 0;
  private soleFence: AnswerRegion | undefined;
  private blankTo = 0;
  /** Something other than blanks and backticks was written (the plain-text reading has something). */
  private sawText = false;
  /** The text so far ends in a backslash (a `\u` escape may be cut in two). */
  private endsInBackslash = false;
  /** A trailing high surrogate held back until its pair arrives. */
  private carry = "";
  /** Frozen readings are folded in order; these point at the next root to look at. */
  private regionCursor = 0;
  private rootCursor = 0;
  private frozenBest: PartialReading | undefined;
  /**
   * Finished fences read as text, folded apart: for a list of scalars, text is a reading only while the
   * answer has no container (`textAllowed`), and a container may come after them.
   */
  private frozenText: PartialReading | undefined;
  /** Readings abandoned for nesting deeper than final mode reads (`TooDeep`), by their node. */
  private tooDeep: WeakSet<JsonishNode> | undefined;
  /** The reading chosen at the last read, and the shape of the answer then (see `compareShape`). */
  private choice: PartialReading | undefined;
  private shape: number[] = [];
  private nextShape: number[] = [];
  /** How much of `shape` is this read's (-1 before the first read). */
  private shapeLength = -1;
  /** The nodes of the open spine at the last read (root first), and where they sit in the partial. */
  private spineNodes: JsonishNode[] = [];
  private spineLength = 0;
  private trail: SpineTrail | undefined;
  private readonly collectFlags: boolean;
  /**
   * The last `read` patched a value into the partial that differs from the one there before, so the
   * partial differs from the previous one (false: it may or may not; compare them).
   */
  changed = false;
  /** The last `read` chose another reading than the one before (see `StreamPush.flags`). */
  switched = false;
  /**
   * All object roots as one list (the "combined" reading): the roots, and their nodes as a list built
   * when read, a new one each time a root was added, so a list once complete (its last object closed)
   * never changes; and where the roots seen so far end.
   */
  private readonly combinedRoots: ParsedRoot[] = [];
  private combined: ArrayNode = { kind: "array", items: [], complete: false };
  /** The finished containers inside the open root read so far (see `openChildren`). */
  private childrenOf: ParsedRoot | undefined;
  private childCursor = 0;
  private childrenBest: PartialReading | undefined;
  private combinedRegion = 0;
  private combinedRoot = 0;

  constructor(
    private readonly type: Type,
    private readonly index: IrIndex,
    private readonly options: PartialReaderOptions,
  ) {
    this.plainText = plainTextUse(type, index);
    const names = sectionNamesOf(type, index);
    this.reasoning = options.afterReasoning ? undefined : new ReasoningBlocks(names?.fields);
    // (The scanner reads each chunk before the sections do: a YAML block's flow lists are its roots.)
    this.sections =
      names === undefined ? undefined : new Sections(names, (start, end) => this.scanner.rootAt(start, end));
    this.collectFlags = options.collectFlags;
    // A fence that arrives whole and is exactly of the type is read as final mode reads it (JSON.parse).
    this.scanner = new AnswerScanner(this.plainText !== "never", (value) => {
      const exact = exactPartial(type, value, index);
      return exact === NOT_EXACT ? undefined : { value: exact };
    });
  }

  private get context(): StreamCoerceContext {
    if (this.streamContext === undefined) {
      const context = createStreamCoerceContext(this.index, this.options);
      context.wholeText.add(this.textNode);
      context.escapes = this.escapes;
      this.streamContext = context;
    }
    return this.streamContext;
  }

  /**
   * Append a chunk. A chunk ending in the first half of a surrogate pair keeps that half back until its
   * second half arrives, so no partial string ever ends in half a character.
   */
  push(chunk: string): void {
    let text = this.carry + chunk;
    this.carry = "";
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.carry = text.slice(-1);
      text = text.slice(0, -1);
    }
    if (text !== "") this.feed(text, false);
  }

  /**
   * Append the last chunk of the answer (`end` comes next, and no `read` before it): what the scanner
   * would hold back for more text (backticks at the end, a fence's closing run) is decided at once, as
   * at the end, so a fence closed at the very end is read whole (`JSON.parse`) rather than by the fixing
   * parser. `parseValue` gives the whole answer so.
   */
  pushLast(chunk: string): void {
    const text = this.carry + chunk;
    this.carry = "";
    if (text !== "") this.feed(text, true);
  }

  /**
   * The answer is complete (`text`: all of it, as pushed): every reader settles what only the end
   * decides (a character held back, a fence's info or closing line, a number or string left open, a
   * union undecided), and final mode's choice runs over the readings built from this reader's state:
   * the regions, roots and label lines it read (`candidatesAtEnd`), not a second parse of the text.
   * Returns what `parseValue(text)` returns; throws its `SapParseError` when nothing fits.
   */
  end(
    text: string,
    options: ParseOptions,
    quick: QuickAnswer = quickAnswer(text, this.type, this.index, options),
  ): ParseResult {
    // (Valid JSON exactly of the type is that value: `parseValue` looks before it reads, a stream here.)
    if (quick.result) return quick.result;
    const bases = new Map<Candidate, number | undefined>();
    const candidates = this.readings(text, quick.strict, bases);
    const base = (candidate: Candidate) => (bases.has(candidate) ? bases.get(candidate) : 0);
    return chooseReading(text, this.type, this.index, options, candidates, base, this.marker);
  }

  /**
   * The readings `end` chooses from, once every reader has settled (`text`: the whole answer; `strict`:
   * it parsed as JSON, when it is valid JSON): with reasoning blocks, the readings of the answer after the
   * last one first, then those of the whole text. `bases` receives where each reading's node offsets
   * count from (`CandidateBase`).
   */
  readings(
    text: string,
    strict: StrictJson | undefined,
    bases: Map<Candidate, number | undefined>,
  ): Candidate[] {
    this.settleAll();
    const start = strict === undefined ? this.reasoning?.answerStart : undefined;
    if (start === undefined) return candidatesAtEnd(this.endSource(text, 0), strict, bases);
    const afterText = text.slice(start);
    let answer = this.answer;
    if (answer === undefined || this.answerStart !== start) {
      // (Not expected: the answer reader starts where the last block closed.) Read it now.
      endRereads.reasoning++;
      answer = new PartialReader(this.type, this.index, { ...this.options, afterReasoning: true });
      answer.pushLast(afterText);
      answer.settleAll();
    }
    const after = candidatesAtEnd(answer.endSource(afterText, start), parseStrictJson(afterText), bases);
    // The reasoning before it is text around the value (flagged `FromProse`, as any preamble is).
    for (const candidate of after) {
      if (candidate.origin === "json" || candidate.origin === "prose") candidate.surrounded = true;
    }
    const whole = candidatesAtEnd(this.endSource(text, 0), undefined, bases);
    for (const candidate of whole) candidate.reasoning = true;
    return [...after, ...whole];
  }

  /** Give every reader the end of the answer (see `end`). */
  private settleAll(): void {
    if (this.carry !== "") {
      // A lone high surrogate at the very end: no pair is coming, so it is text as final mode reads it.
      const carry = this.carry;
      this.carry = "";
      this.feed(carry, false);
    }
    this.scanner.end();
    this.reasoning?.end();
    if (this.labelsOpen) this.labels.end();
    this.sections?.end();
    this.answer?.settleAll();
  }

  private endSource(text: string, offset: number): EndSource {
    const labels = this.labelsOpen ? labelReading(this.labels) : "unread";
    const sections = this.sections?.node();
    const yamlBlocks = this.sections?.yamlBlocks;
    return { text, offset, regions: this.scanner.regions, labels, quoted: this.quoted, sections, yamlBlocks };
  }

  /** Give the readers text (no half surrogate pair at its end, except at the end of the answer). */
  private feed(text: string, last: boolean): void {
    if (!this.escapes && (text.includes("\\u") || (this.endsInBackslash && text.startsWith("u")))) {
      this.escapes = true;
      if (this.streamContext !== undefined) this.streamContext.escapes = true;
    }
    this.endsInBackslash = text.endsWith("\\");
    if (!this.sawText && /[^\s`]/.test(text)) this.sawText = true;
    const start = this.length;
    this.length += text.length;
    const reasoning = this.reasoning;
    if (reasoning !== undefined) {
      const closed = reasoning.closed;
      reasoning.push(text);
      if (reasoning.closed !== closed) {
        // A block closed: the answer starts over after it.
        this.answerStart = reasoning.lastClosedEnd;
        this.answer = new PartialReader(this.type, this.index, { ...this.options, afterReasoning: true });
        const after = text.slice(this.answerStart - start);
        if (last) this.answer.pushLast(after);
        else this.answer.push(after);
      } else {
        if (last) this.answer?.pushLast(text);
        else this.answer?.push(text);
      }
    }
    // The whole text is a reading only for plain-text targets; others need not keep a copy.
    // (A quoted answer is read for every target: its text may hold the answer as JSON, `parseJsonInString`.)
    this.quoted.push(text);
    this.marker.push(text);
    if (this.plainText !== "never") {
      this.text += text;
      this.scalar.push(text);
    }
    this.scanner.push(text, last);
    this.sections?.push(text);
    if (this.labelsOpen) {
      // Once the answer has JSON or a fence, it is never read as label lines again (as a whole: a
      // fence's own lines are its region's).
      const regions = this.scanner.regions;
      if (regions.length > 1 || regions[0]!.roots.length > 0) this.labelsOpen = false;
      else this.labels.push(text);
    }
  }

  /**
   * Whether the answer so far ends inside something unfinished that only its end would settle: a
   * character held back (half a surrogate pair, a backslash, possible fence backticks), a container, a
   * fence, a quoted answer or a reasoning block still open, a scalar answer or a `key: value` line still
   * being written, the answer's text read as a number, bool, enum or literal (whole only at its end). Then `finish()` may read the answer another way than the last partial (a container
   * never closed fails where a stream still waits for its fields); otherwise the last partial is the
   * final value as a partial. Plain text growing at the end does not count: a partial shows its text so
   * far.
   */
  openAtEnd(): boolean {
    if (this.fromAnswer && this.answer !== undefined) return this.answer.openAtEnd();
    if (this.carry !== "" || this.endsInBackslash || this.scanner.heldLength > 0) return true;
    if (this.reasoning?.unsettled) return true;
    const regions = this.scanner.regions;
    const region = regions[regions.length - 1]!;
    if (region.kind === "fence" && !region.closed) return true;
    const root = region.roots[region.roots.length - 1];
    if (root !== undefined && !root.node.complete) return true;
    if (this.plainText !== "never" && (this.quoted.state === "open" || this.scalar.possible)) return true;
    if (this.textWaits) return true;
    if (this.sections?.lineOpen) return true;
    return this.labelsOpen && this.labels.lineOpen;
  }

  /** What a partial shows before anything fits: `[]` for lists, `{}` for maps, else null. */
  nothingYet(): unknown {
    const fallback = this.context.missing(this.type);
    return fallback?.reason === "empty" ? fallback.value : null;
  }

  /** The best reading of the answer so far, or undefined when nothing fits yet. */
  read(): PartialReading | undefined {
    const restarts = this.context.restarts;
    // (What the last read showed: the answer's reader then, which a block closing since has replaced.)
    const before = this.fromAnswer ? this.shownAnswer?.choice : this.choice;
    const reading = withKnownNames(() => this.choose());
    // A value that started over (a key written again, a union's other option, another split of a
    // string): announced like another reading winning.
    if (this.context.restarts !== restarts) this.switched = true;
    const answer = this.answer;
    if (answer === undefined) return reading;
    // As in final mode: the answer after the reasoning first; the whole text only while it shows nothing.
    const fromAnswer = answer.read();
    const useAnswer =
      fromAnswer !== undefined &&
      (!showsNothing(fromAnswer) || reading === undefined || preferable(fromAnswer, reading));
    const wasAnswer = this.fromAnswer;
    const sameReader = wasAnswer && this.shownAnswer === answer;
    this.fromAnswer = useAnswer;
    this.shownAnswer = useAnswer ? answer : undefined;
    this.base = useAnswer ? this.answerStart : 0;
    if (!useAnswer) {
      if (wasAnswer) {
        this.changed = false;
        this.switched = before !== undefined;
      }
      return reading;
    }
    if (sameReader) {
      // (The answer's reader read it before too: whether its reading changed is its own to say.)
      this.changed = answer.changed;
      this.switched = answer.switched;
    } else {
      // (Another reader's reading: compare the values.)
      this.changed = false;
      this.switched = before !== undefined;
    }
    return fromAnswer;
  }

  private choose(): PartialReading | undefined {
    this.changed = false;
    this.switched = false;
    const first = this.compareShape();
    if (first >= 0) this.textWaits = false;
    // Most chunks change nothing a reading depends on (a key, a number or whitespace being typed).
    if (first < 0) return this.choice;
    // Most of the others change one node on the open spine of the chosen reading: patch it in.
    if (first >= SPINE_START && this.patch((first - SPINE_START) >> 1, first === this.shapeLength - 1)) {
      return this.choice;
    }
    this.trail = undefined;
    this.foldFrozen();
    this.gatherObjects();
    let best =
      this.frozenText !== undefined && this.textAllowed()
        ? pick(this.frozenText, this.frozenBest)
        : this.frozenBest;
    const region = this.scanner.regions[this.regionCursor];
    if (region) {
      const root = region.roots[this.rootCursor];
      if (root) {
        const rank = ORIGIN_RANK[region.kind];
        const order = orderOf(region, root.start);
        const reading = this.evaluate(root.node, rank, order, false, false, 0, { region, root });
        // The containers finished inside an open list compete while none of its items fits (final mode
        // would fail the list so far: `[[1, 2]` for `int[]` is the inner list). An open object keeps the
        // stage while it shows nothing: its fields may still come (`{"meta": {…}, "body": …`).
        best = pick(
          reading === undefined || (root.node.kind === "array" && showsNothing(reading))
            ? pick(this.openChildren(root, rank, order, region), reading)
            : reading,
          best,
        );
      }
      best = pick(this.fenceText(region), best);
      best = pick(this.fenceLabels(region), best);
    }
    const objects = this.combinedRoots.length;
    if (objects > 1 && this.combined.items.length !== objects) {
      this.combined = {
        kind: "array",
        items: this.combinedRoots.map((root) => root.node),
        complete: false,
      };
    }
    const combined = this.combined;
    if (objects > 1) {
      combined.complete = combined.items[combined.items.length - 1]!.complete;
      const penalty = FLAG_PENALTIES.CombinedCandidates;
      const source = { combined: true };
      const reading = this.evaluate(combined, 2, COMBINED_ORDER, false, combined.complete, penalty, source);
      // Ranked by its score per object, as in final mode (`gatheredScore`); so are the fields to come.
      if (reading) reading.distance = gatheredScore(reading.distance, objects);
      best = pick(reading, best);
    }
    const labels = this.labelsOpen ? labelReading(this.labels) : undefined;
    if (labels) best = pick(this.labelReadings(labels, ORIGIN_RANK.prose, 0, false, undefined), best);
    const sections = this.sections?.node();
    // A section's value read again as one that does not extend it starts over: announced.
    if (this.sections !== undefined && this.sections.regressions !== this.sectionRegressions) {
      this.sectionRegressions = this.sections.regressions;
      this.context.restarts++;
    }
    if (sections && !sectionsOverRecords(sections, labels)) {
      // (Ordered before the label lines' reading, as in final mode: it wins a tie.)
      const restarts = this.context.restarts;
      const reading = this.evaluate(sections, ORIGIN_RANK.prose, -1, false, false, 0, { sections: true });
      // The sections' nodes are built afresh on each read, so no coercer remembers what it showed (a key
      // written again would count at every read): a value that did not grow from the last one (a lead-in
      // item dropped once bullets come) starts over here, and only that.
      this.context.restarts = restarts;
      if (reading !== undefined) {
        const shown = this.sectionsShown;
        const grew = (from: string, to: string) => this.sections?.grewText(from, to) === true;
        if (shown !== undefined && !grewFrom(shown.value, reading.value, grew)) this.context.restarts++;
        this.sectionsShown = { value: reading.value };
      }
      best = pick(reading, best);
    }
    // A string read from a fence that is only part of the answer: the answer as text beats it.
    const inProse = this.plainText !== "never" && this.fenceInProse();
    const demoted =
      inProse && best?.source.region?.kind === "fence" && typeof best.value === "string" ? best : undefined;
    // The answer as plain text: not while it is blank, nor while a fence that may be the answer is open
    // (its backticks and info line are not text the model meant; final mode ranks a text cut off in a
    // fence below the fence's text), and without a possible fence marker at its end.
    if (
      this.textAllowed() &&
      this.sawText &&
      // (A list target's item tags being written are its items, not the tags' text as one item.)
      sections?.kind !== "array" &&
      (region?.kind !== "fence" || inProse) &&
      // A reading still missing fields is not known to fit yet (final mode would fail it so far).
      !(best && pendingOf(best.result) === 0 && structureBeatsText(best.value, this.wholeAnswer(best)))
    ) {
      if (!this.scalar.possible && this.quoted.state === "no") {
        // (An answer that may be one JSON scalar is not text yet: final mode reads `1` as a number.)
        const held = this.scanner.heldLength;
        // One node for the whole text, updated in place, so its readings keep their state between chunks.
        this.textNode.value = held === 0 ? this.text : this.text.slice(0, this.text.length - held);
        const text = this.evaluate(this.textNode, ORIGIN_RANK.text, TEXT_ORDER, false, false);
        // (A number, bool, enum or literal read from the text shows only once the answer has ended.)
        this.textWaits = text === undefined;
        best =
          demoted !== undefined && text !== undefined && text.distance <= demoted.distance
            ? text
            : pick(text, best);
      }
    }
    const quoted = this.quoted;
    if (this.plainText !== "never" && (quoted.state === "open" || quoted.state === "closed")) {
      // As in final mode: an answer that is one quoted string is that string (ranked as JSON), and a
      // bracket inside it is text, not a reading. A lone opening quote shows nothing yet.
      const node = this.quotedString(this.quotedNode, quoted);
      best = node && this.evaluate(node, ORIGIN_RANK.json, TEXT_ORDER, false, node.complete);
    } else if (quoted.state === "closed") {
      // A target that does not read text: once closed, the string is one more reading (an object's only
      // field taking it), competing with the containers inside it as final mode's candidates do.
      // (Valid JSON as a whole is only that string, as final mode's one JSON candidate.)
      const node = this.quotedString(this.quotedNode, quoted);
      const reading = node && this.evaluate(node, ORIGIN_RANK.json, TEXT_ORDER, false, true);
      // (The containers inside it shown so far give way to it: announced when that drops what was shown.)
      if (!quoted.repaired && reading === undefined && this.choice !== undefined) this.context.restarts++;
      best = quoted.repaired ? pick(reading, best) : reading;
    }
    // A closed string holding the answer as JSON text is read as that JSON too (final mode's rule).
    const inner = quoted.state === "closed" ? parseJsonInString(quoted.value) : undefined;
    if (inner !== undefined) {
      best = pick(this.evaluate(nodeFromJson(inner.value), ORIGIN_RANK.json, TEXT_ORDER, false, true), best);
    }
    const before = this.choice;
    // Another reading won, or the one shown is offered no more (the answer stopped being one quoted
    // string, a fence opened after plain text, an unclosed list whose item was read closed): announced.
    // A container that stops fitting is not.
    this.switched =
      before !== undefined &&
      (best !== undefined
        ? !sameReading(before, best)
        : before.source.root === undefined || before.source.child !== undefined);
    this.choice = best;
    // Remember the open spine of this partial when the chosen reading is the container being written and
    // no other reading competes with it but finished ones (see `patch`).
    const open = region?.parser.roots[this.rootCursor];
    if (
      best &&
      open &&
      best.source.root === open &&
      best.source.child === undefined &&
      !this.collectFlags &&
      this.plainText === "never" &&
      objects < 2
    ) {
      this.context.active.clear();
      this.trail = traceSpine(this.type, open.node, "$", best.value, this.context);
    }
    return best;
  }

  /** Whether the answer's fences are only part of it (see `fencesInProse`), looked at incrementally. */
  private fenceInProse(): boolean {
    if (this.fencesInProse) return true;
    const regions = this.scanner.regions;
    for (; this.fenceScan < regions.length; this.fenceScan++) {
      const region = regions[this.fenceScan]!;
      if (region.kind !== "fence") continue;
      if (this.soleFence !== undefined || !leadInIsOneLine(this.text, region.start)) {
        this.fencesInProse = true;
        return true;
      }
      this.soleFence = region;
      this.blankTo = -1;
    }
    const fence = this.soleFence;
    if (fence === undefined || !fence.closed) return false;
    // The text after the fence, searched once: anything but blanks there makes it part of the answer.
    // (Not backticks held back at the very end: they may open a fence, which final mode reads as the
    // answer cut off inside a fence, not as text after this one.)
    const after = regions[regions.indexOf(fence) + 1];
    if (after === undefined) return false;
    if (this.blankTo < after.start) this.blankTo = after.start;
    const known = this.text.length - this.scanner.heldLength;
    if (!blankBetween(this.text, this.blankTo, known)) {
      this.fencesInProse = true;
      return true;
    }
    if (known > this.blankTo) this.blankTo = known;
    return false;
  }

  /** The reading is of the whole answer: a fence's value, or a container with only blanks around it. */
  private wholeAnswer(reading: PartialReading): boolean {
    const { region, root, combined } = reading.source;
    if (combined || !region || !root || reading.nested) return false;
    if (region.kind === "fence") return true;
    const start = region.start + root.start;
    const end = root.node.complete ? region.start + root.end : this.text.length;
    return blankBetween(this.text, 0, start) && blankBetween(this.text, end, this.text.length);
  }

  /**
   * The chunk changed the spine node at `level` (and the ones under it) and nothing above: coerce that
   * node again and copy the containers above it with the new value in place (see `SpineTrail`). Only
   * while the chosen reading is the open container with no competitor whose standing could change: a
   * string that only grew changes no reading's score, anything else may, so then there must be no
   * finished reading to compare with. Returns false when the full path must run.
   */
  private patch(level: number, leafOnly: boolean): boolean {
    const trail = this.trail;
    const choice = this.choice;
    if (trail === undefined || choice === undefined || level === 0) return false;
    // A change below the trail's end is inside the node where the trail stops: coerce that one again.
    const depth = Math.min(level, trail.length);
    if (depth === 0) return false;
    const step = trail[depth - 1]!;
    if (depth >= this.spineLength || this.spineNodes[depth] !== step.node) return false;
    const grewString =
      leafOnly && depth === level && step.type.kind === "primitive" && step.type.name === "string";
    if ((this.frozenBest !== undefined || this.frozenText !== undefined) && !grewString) return false;
    const before = (step.container as Record<string | number, unknown>)[step.key];
    let child: unknown;
    if (grewString && step.node.kind === "string") {
      // The string being written grew (most chunks of a long answer): it reads as its text so far.
      child = this.context.escapes ? withoutHalfPair(step.node.value) : step.node.value;
    } else {
      this.context.active.clear();
      let result: CoerceResult;
      try {
        result = this.context.coerce(step.type, step.node, step.path);
      } catch (error) {
        // (Too deep: the full path abandons the reading.)
        if (!(error instanceof TooDeep)) throw error;
        return false;
      }
      if (!result.ok) return false;
      child = result.value;
    }
    // The node reads as before: the partial is the same (an equal value is not news either).
    if (samePartial(child, before)) return true;
    this.changed = true;
    const value = patchSpine(trail, depth, child);
    traceSpine(step.type, step.node, step.path, child, this.context, trail);
    // The reading is the parser's own (handed out only as its value): update it in place.
    choice.value = value;
    choice.empty = undefined;
    return true;
  }

  /**
   * What changed since the last read, as the index of the first difference in a short list of numbers
   * (-1: nothing a reading depends on): the regions, the roots of the last one, its text, and the open
   * right-hand spine of its last root — the only nodes the fixing parser can still change, each open
   * container being the last child of the one around it — two numbers per spine node from `SPINE_START`
   * on (completeness; entries, items or string length). Costs a walk down the spine.
   */
  private compareShape(): number {
    const regions = this.scanner.regions;
    const region = regions[regions.length - 1]!;
    const roots = region.roots;
    const shape = this.nextShape;
    const nodes = this.spineNodes;
    let length = 0;
    shape[length++] = regions.length;
    shape[length++] = roots.length;
    // The fence's text length follows its content; it matters only to plain-text readings (the others
    // read a fence's text only as label lines).
    shape[length++] = this.plainText === "never" ? (region.labels?.changes ?? 0) : region.contentLength;
    shape[length++] =
      this.plainText !== "never"
        ? this.text.length
        : this.labelsOpen
          ? this.labels.changes * 2 + (this.labels.node() ? 1 : 0)
          : -1;
    // A quoted answer closing may make its text a reading of its own (`parseJsonInString`).
    // (And the sections read so far: any change there may change their reading.)
    shape[length++] = (this.quoted.state === "closed" ? 1 : 0) + 2 * (this.sections?.changes ?? 0);
    let node: JsonishNode | undefined = roots[roots.length - 1]?.node;
    let level = 0;
    while (node !== undefined) {
      nodes[level++] = node;
      shape[length++] = node.complete ? 1 : 0;
      if (node.kind === "object") {
        shape[length++] = node.entries.length;
        node = node.entries[node.entries.length - 1]?.[1];
      } else if (node.kind === "array") {
        shape[length++] = node.items.length;
        node = node.items[node.items.length - 1];
      } else {
        shape[length++] = node.kind === "string" ? node.value.length : -1;
        node = undefined;
      }
    }
    // Lengths are kept apart (setting an array's length is a slow path in V8; this runs on every chunk).
    this.spineLength = level;
    const previous = this.shape;
    const previousLength = this.shapeLength;
    this.shape = shape;
    this.nextShape = previous;
    this.shapeLength = length;
    if (previousLength < 0) return 0;
    const common = Math.min(previousLength, length);
    for (let index = 0; index < common; index++) {
      if (previous[index] !== shape[index]) return index;
    }
    return previousLength === length ? -1 : common;
  }

  /** Fold every reading whose text is finished into the running best, once, in answer order. */
  private foldFrozen(): void {
    const regions = this.scanner.regions;
    while (this.regionCursor < regions.length) {
      const region = regions[this.regionCursor]!;
      const roots = region.roots;
      while (this.rootCursor < roots.length) {
        const root = roots[this.rootCursor]!;
        const rank = ORIGIN_RANK[region.kind];
        const order = orderOf(region, root.start);
        if (region.whole !== undefined) {
          // A fence that arrived whole, valid JSON exactly of the type: its value, as final mode reads it.
          const result = { ok: true as const, value: region.whole.value, flags: [], score: 0, checks: [] };
          this.fold(this.readingOf(result, rank, order, false, true, 0, { region, root }));
          this.rootCursor++;
          continue;
        }
        if (!root.node.complete && !region.ended) return;
        // (Its text is finished: a container left open in a region that ended never closes.)
        if (!root.node.complete) this.settle(root.node);
        const reading = this.evaluate(root.node, rank, order, false, true, 0, { region, root });
        this.fold(reading);
        // An unclosed container (a stray bracket) also offers the finished containers inside it, tried
        // when it does not fit itself (as while it is open: see `choose`; lacking fields, it never will).
        if (
          !root.node.complete &&
          (reading === undefined ||
            pendingOf(reading.result) > 0 ||
            (root.node.kind === "array" && showsNothing(reading)))
        ) {
          const children =
            root.node.kind === "array" ? root.node.items : root.node.entries.map((entry) => entry[1]);
          for (const child of children) {
            if ((child.kind === "object" || child.kind === "array") && child.complete) {
              this.fold(this.evaluate(child, rank, order, true, true, 0, { region, root, child }));
            }
          }
        }
        this.rootCursor++;
      }
      if (!region.ended) return;
      this.frozenText = pick(this.fenceText(region), this.frozenText);
      this.fold(this.fenceLabels(region));
      this.regionCursor++;
      this.rootCursor = 0;
    }
  }

  /** The open spine of a container cut off for good (see `StreamCoerceContext.settled`). */
  private settle(root: JsonishNode): void {
    for (
      let node: JsonishNode | undefined = root;
      node !== undefined && !node.complete;
      node = lastChild(node)
    ) {
      this.context.settled.add(node);
    }
  }

  /**
   * A quoted answer's (or a fence's) string, kept in `node` and updated in place; undefined while only
   * the opening quote is written (it shows nothing yet). A closing quote that turns out to be a quote
   * inside the string (`"a, b"c`) reopens it: what was read of the closed string starts over.
   */
  private quotedString(node: StringNode, quoted: QuotedAnswer): StringNode | undefined {
    node.value = quoted.value;
    if (node.complete && quoted.state === "open") this.context.restarts++;
    node.complete = quoted.state === "closed";
    return quoted.state === "open" && quoted.value === "" ? undefined : node;
  }

  /**
   * As final mode does for a container that never closed (a stray `[` in prose): its finished containers
   * are readings too, tried when it does not fit itself. Each is read once, as it finishes.
   */
  private openChildren(
    root: ParsedRoot,
    rank: number,
    order: number,
    region: AnswerRegion,
  ): PartialReading | undefined {
    if (this.childrenOf !== root) {
      this.childrenOf = root;
      this.childCursor = 0;
      this.childrenBest = undefined;
    }
    const node = root.node;
    const count =
      node.kind === "array" ? node.items.length : node.kind === "object" ? node.entries.length : 0;
    for (; this.childCursor < count; this.childCursor++) {
      const child =
        node.kind === "array"
          ? node.items[this.childCursor]!
          : (node as ObjectNode).entries[this.childCursor]![1];
      if (!child.complete) break;
      if (child.kind !== "object" && child.kind !== "array") continue;
      const reading = this.evaluate(child, rank, order, true, true, 0, { region, root, child });
      this.childrenBest = pick(reading, this.childrenBest);
    }
    return this.childrenBest;
  }

  /** Object roots, in answer order, gathered into the combined list as soon as they open. */
  private gatherObjects(): void {
    const regions = this.scanner.regions;
    while (this.combinedRegion < regions.length) {
      const region = regions[this.combinedRegion]!;
      const roots = region.roots;
      for (; this.combinedRoot < roots.length; this.combinedRoot++) {
        const root = roots[this.combinedRoot]!;
        const whole = region.whole;
        // (A fence read whole is asked for its nodes only if the combined list is read.)
        if (whole ? !Array.isArray(whole.value) : root.node.kind === "object") {
          this.combinedRoots.push(root);
        }
      }
      if (!region.ended) return;
      this.combinedRegion++;
      this.combinedRoot = 0;
    }
  }

  /**
   * A fence offers its text, for plain-text targets (containers in it or not); one holding a quoted string,
   * the string inside, as at the end (`candidatesAtEnd`).
   */
  private fenceText(region: AnswerRegion): PartialReading | undefined {
    if (!this.textAllowed() || region.kind !== "fence") return undefined;
    // (A fence with a container in it offers its text, as written, beside the container's readings.)
    const bare = region.roots.length === 0;
    const quoted = region.quoted;
    // (A quote still open when the fence closed opened no string: the fence's text is read instead.)
    if (bare && (quoted.state === "closed" || (quoted.state === "open" && !region.closed))) {
      let kept = this.fenceQuotedNodes?.get(region);
      if (!kept) {
        kept = { kind: "string", value: "", complete: false };
        this.fenceQuotedNodes ??= new WeakMap();
        this.fenceQuotedNodes.set(region, kept);
      }
      const node = this.quotedString(kept, quoted);
      return (
        node && this.evaluate(node, ORIGIN_RANK.fence, region.start, false, node.complete, 0, { region })
      );
    }
    const content = region.trimmed;
    if (content === "") return undefined;
    let scalar: PartialReading | undefined;
    if (bare && region.scalar.possible) {
      // As for a whole answer (`scalar`): content that may still be one JSON scalar is not text yet
      // (final mode reads a fence holding `1` as the number); once the fence has ended it is that scalar
      // when it is valid JSON (at most a short token: `ScalarAnswer` gives up on longer ones), and its
      // text, as in final mode.
      if (!region.ended) return undefined;
      const strict = parseStrictJson(content);
      if (strict !== undefined) {
        const node = nodeFromJson(strict.value);
        scalar = this.evaluate(node, ORIGIN_RANK.fence, region.start, false, true, 0, { region });
      }
    }
    let node = this.fenceNodes?.get(region);
    if (!node) {
      node = { kind: "string", value: content, complete: false };
      this.fenceNodes ??= new WeakMap();
      this.fenceNodes.set(region, node);
    }
    node.value = content;
    node.complete = region.closed;
    const text = this.evaluate(node, 1, region.start, false, region.closed, 0, { region });
    // Between the two, final mode's choice: the lower score, else the JSON (`null` for `string?`).
    return scalar !== undefined && (text === undefined || scalar.distance <= text.distance) ? scalar : text;
  }

  /** A fence with no container in it read as `key: value` lines (a ```yaml block), as final mode reads it. */
  private fenceLabels(region: AnswerRegion): PartialReading | undefined {
    const reading = region.labels?.reading();
    if (reading === undefined) return undefined;
    return this.labelReadings(reading, ORIGIN_RANK.fence, region.start, reading.node.complete, region);
  }

  /**
   * The better of label lines' readings, as final mode lists them (`labelCandidates`): the object (or
   * list of records), then the records a first key written again starts, which wins a tie.
   */
  private labelReadings(
    reading: LabelReading,
    rank: number,
    order: number,
    complete: boolean,
    region: AnswerRegion | undefined,
  ): PartialReading | undefined {
    const node = reading.node;
    // (An object that lost a record is flagged at the end, `KeyCollision`: ranked so in every read.)
    const lost = reading.overwritten ? FLAG_PENALTIES.KeyCollision : 0;
    const best = this.evaluate(node, rank, order, false, complete, lost, { region, labels: true });
    const repeats = reading.repeats;
    if (repeats === undefined) return best;
    const source = { region, labels: true, repeats: true };
    return pick(this.evaluate(repeats, rank, order, false, complete, 0, source), best);
  }

  /** As in final mode: plain text serves scalars always, lists of scalars only when nothing parsed. */
  private textAllowed(): boolean {
    if (this.plainText === "never") return false;
    return this.plainText === "primary" || !this.hasRoots();
  }

  /** Some region has a container (looked at once per region: an answer may have thousands of fences). */
  private hasRoots(): boolean {
    if (this.rootsSeen) return true;
    const regions = this.scanner.regions;
    for (; this.rootScan < regions.length; this.rootScan++) {
      workMeter.steps++;
      const region = regions[this.rootScan]!;
      if (region.roots.length > 0) {
        this.rootsSeen = true;
        return true;
      }
      if (!region.ended) break;
    }
    return false;
  }

  private fold(reading: PartialReading | undefined): void {
    this.frozenBest = pick(reading, this.frozenBest);
  }

  private evaluate(
    node: JsonishNode,
    rank: number,
    order: number,
    nested: boolean,
    complete: boolean,
    penalty = 0,
    source: ReadingSource = {},
  ): PartialReading | undefined {
    if (this.tooDeep?.has(node)) return undefined;
    this.context.active.clear();
    let result: CoerceResult;
    try {
      result = this.context.coerce(this.type, node, "$");
    } catch (error) {
      if (!(error instanceof TooDeep)) throw error;
      // As in final mode, a reading nested too deep is abandoned (its text only grows deeper): what it
      // showed goes, announced as a value starting over.
      this.tooDeep ??= new WeakSet();
      this.tooDeep.add(node);
      this.context.restarts++;
      return undefined;
    }
    if (!result.ok) return undefined;
    return this.readingOf(result, rank, order, nested, complete, penalty, source);
  }

  /** A reading with its coerced `result` (`penalty`: added to its score, as for gathered objects). */
  private readingOf(
    result: CoerceSuccess,
    rank: number,
    order: number,
    nested: boolean,
    complete: boolean,
    penalty: number,
    source: ReadingSource,
  ): PartialReading {
    return {
      value: result.value,
      result,
      distance: result.score + penalty + pendingOf(result),
      level: this.marker.level(order),
      combined: source.combined === true || order >= COMBINED_ORDER,
      empty: undefined,
      complete,
      rank,
      nested,
      order,
      source,
    };
  }
}

/** Whether two readings come from the same text (the same container, fence or whole answer). */
function sameReading(left: PartialReading, right: PartialReading): boolean {
  const a = left.source;
  const b = right.source;
  return (
    a.region === b.region &&
    a.root === b.root &&
    a.child === b.child &&
    a.combined === b.combined &&
    a.labels === b.labels &&
    a.repeats === b.repeats &&
    a.sections === b.sections &&
    left.nested === right.nested &&
    left.rank === right.rank
  );
}

/**
 * A root's place in the answer. Final mode gives every candidate of a fence the fence's start, and the
 * earlier root in the fence wins their tie (its list order); a fraction below one keeps that order here,
 * where a tie goes to the later reading (`earlierOrMarked`), without moving a fence's roots past anything
 * after the fence's start.
 */
function orderOf(region: AnswerRegion, rootStart: number): number {
  return region.kind === "fence" ? region.start + rootStart / (rootStart + 1) : region.start + rootStart;
}
