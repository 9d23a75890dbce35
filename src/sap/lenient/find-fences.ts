import type { WorkCounter } from "../work-counter.js";
import {
  backtickRun,
  beginsLine,
  closesFence,
  type FenceContentState,
  lineEndsAfter,
  type OpenFence,
  outsideAfter,
  readFenceHeader,
  readsAsJson,
} from "./fence-rule.js";
import { FixingParser, type ParsedRoot } from "./fixing-parser.js";
import { parseStrictJson, type StrictJson } from "./parse-strict-json.js";

/** A markdown code fence found in a model's answer. */
export interface Fence {
  /** The info string after the opening backticks (`json`, `ts`, or empty). */
  tag: string;
  content: string;
  /** Offset of `content` in the text. */
  contentStart: number;
  /** Offsets of the whole fence (backticks included) in the text. */
  start: number;
  end: number;
  /** False when the answer ended before the closing backticks. */
  closed: boolean;
  /** The content read whole, once (see `FenceReading`). */
  reading: FenceReading;
}

/**
 * A fence's content as the candidates need it: valid JSON parsed (`strict`, then no `roots`), else the
 * containers the fixing parser found in it, with offsets in the answer (see `findFences`' `offset`).
 */
export interface FenceReading {
  strict: StrictJson | undefined;
  roots: ParsedRoot[];
}

/**
 * Every fence, with or without a language tag, closed or not, by the fence rule (`fence-rule.ts`, which
 * the stream's `AnswerScanner` consults too). With `opens`, a run of backticks in prose opens a fence
 * only when it says so (the opening rule needs the prose read as JSON: `proseStart` is where that prose
 * began); without it every run does. `offset`: where `text` starts in the answer, for the offsets of the
 * roots in each fence's `reading`.
 *
 * Linear in the text: each fence's content is searched once, from its start to its closing run, and read
 * once, for the closing rule and its `reading` alike (by `JSON.parse`, and by the fixing parser when it is
 * not JSON); `work` counts the characters scanned.
 */
export function findFences(
  text: string,
  work?: WorkCounter,
  opens?: (open: number, run: number, proseStart: number) => boolean,
  offset = 0,
): Fence[] {
  const fences: Fence[] = [];
  let from = 0;
  let proseStart = 0;
  while (from < text.length) {
    const open = find(text, from, work);
    if (open < 0) break;
    const run = backtickRun(text, open);
    if (opens && !opens(open, run, proseStart)) {
      // Backticks inside a JSON value in the prose, mid-line: text of that value, not a fence.
      from = open + run;
      continue;
    }
    const { tag, contentStart } = readFenceHeader(text, open + run, true)!;
    if (work) work.steps += contentStart - open;
    const fence: OpenFence = { run, json: readsAsJson(tag) };
    const reader = readContent(text, contentStart, offset, work);
    let close = -1;
    let closeEnd = -1;
    for (let at = contentStart; at < text.length; ) {
      const next = find(text, at, work);
      if (next < 0) break;
      const length = backtickRun(text, next);
      const decision = closesFence(fence, length, beginsLine(text, next), () => reader.at(next));
      if (
        decision === "closes" ||
        (decision === "closes-if-line-ends" && lineEndsAfter(text, next + length, true))
      ) {
        close = next;
        closeEnd = next + length;
        break;
      }
      at = next + length;
    }
    if (close < 0) {
      fences.push({
        tag,
        content: text.slice(contentStart),
        contentStart,
        start: open,
        end: text.length,
        closed: false,
        reading: reader.whole(text.length),
      });
      break;
    }
    fences.push({
      tag,
      content: text.slice(contentStart, close),
      contentStart,
      start: open,
      end: closeEnd,
      closed: true,
      reading: reader.whole(close),
    });
    from = closeEnd;
    proseStart = from;
  }
  return fences;
}

/** The next ``` at or after `from`, or -1 (counted). */
function find(text: string, from: number, work: WorkCounter | undefined): number {
  const found = text.indexOf("```", from);
  if (work) work.steps += (found < 0 ? text.length : found) - from + 1;
  return found;
}

/** A fence's content, read for the closing rule and then whole (`readContent`). */
interface FenceContentReader {
  /** The reader's state just before `index`. */
  at(index: number): FenceContentState;
  /** The content up to `end` (the closing run, or the end of the text), read whole. */
  whole(end: number): FenceReading;
}

/**
 * A fence's content (from `start`; `offset`: where `text` starts in the answer) read as far as the
 * closing rule asks, by the fixing parser (the reader a stream's fence region uses), resumed at each run
 * of backticks; content that is valid JSON up to the first run is outside any value there without being
 * parsed twice. `whole` then reads the content to its end for the fence's `reading`, going on from
 * there: a content that was valid JSON up to its closing run is not parsed again, nor one the fixing
 * parser read (only `JSON.parse` is tried on it whole: a run inside a JSON string makes the part before
 * it invalid, not the whole).
 */
function readContent(
  text: string,
  start: number,
  offset: number,
  work: WorkCounter | undefined,
): FenceContentReader {
  let parser: FixingParser | undefined;
  let read = start;
  // The content up to a run, when it was valid JSON (while there is no parser), and where it ended.
  let strict: StrictJson | undefined;
  let strictEnd = -1;
  const fixingParser = () => {
    const made = new FixingParser(offset + start);
    made.work = work;
    return made;
  };
  return {
    at(index) {
      if (parser === undefined) {
        strict = parseStrictJson(text.slice(start, index));
        if (strict !== undefined) {
          strictEnd = index;
          return outsideAfter(strict.value);
        }
        parser = fixingParser();
      }
      parser.push(text.slice(read, index));
      read = index;
      return parser;
    },
    whole(end) {
      const whole =
        parser === undefined && strictEnd === end ? strict : parseStrictJson(text.slice(start, end));
      if (whole !== undefined) return { strict: whole, roots: [] };
      parser ??= fixingParser();
      if (end > read) parser.push(text.slice(read, end));
      read = end;
      return { strict: undefined, roots: parser.end() };
    },
  };
}
