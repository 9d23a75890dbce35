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
import { FixingParser } from "./fixing-parser.js";
import { parseStrictJson } from "./parse-strict-json.js";

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
}

/**
 * Every fence, with or without a language tag, closed or not, by the fence rule (`fence-rule.ts`, which
 * the stream's `AnswerScanner` consults too). With `opens`, a run of backticks in prose opens a fence
 * only when it says so (the opening rule needs the prose read as JSON: `proseStart` is where that prose
 * began); without it every run does.
 *
 * Linear in the text: each fence's content is searched once, from its start to its closing run, and read
 * by the fixing parser (for the closing rule) at most once; `work` counts the characters scanned.
 */
export function findFences(
  text: string,
  work?: WorkCounter,
  opens?: (open: number, run: number, proseStart: number) => boolean,
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
    const content = new ContentState(text, contentStart, work);
    let close = -1;
    let closeEnd = -1;
    for (let at = contentStart; at < text.length; ) {
      const next = find(text, at, work);
      if (next < 0) break;
      const length = backtickRun(text, next);
      const decision = closesFence(fence, length, beginsLine(text, next), () => content.at(next));
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
      const content = text.slice(contentStart);
      fences.push({ tag, content, contentStart, start: open, end: text.length, closed: false });
      break;
    }
    fences.push({
      tag,
      content: text.slice(contentStart, close),
      contentStart,
      start: open,
      end: closeEnd,
      closed: true,
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

/**
 * A fence's content read as far as the closing rule asks, by the fixing parser (the reader a stream's
 * fence region uses), resumed at each run of backticks; content that is valid JSON up to the first run
 * is outside any value there without being parsed twice.
 */
class ContentState {
  private parser: FixingParser | undefined;
  private read: number;

  constructor(
    private readonly text: string,
    start: number,
    private readonly work: WorkCounter | undefined,
  ) {
    this.read = start;
  }

  /** The reader's state just before `index`. */
  at(index: number): FenceContentState {
    if (this.parser === undefined) {
      const strict = parseStrictJson(this.text.slice(this.read, index));
      if (strict !== undefined) return outsideAfter(strict.value);
      this.parser = new FixingParser();
      this.parser.work = this.work;
    }
    this.parser.push(this.text.slice(this.read, index));
    this.read = index;
    return this.parser;
  }
}
