import { earlierOrMarked } from "../lenient/final-answer-marker.js";
import type { PartialReading } from "../stream/partial-reader.js";
import { pendingOf } from "../stream/stream-of.js";
import { ORIGIN_RANK } from "./candidate.js";

/** Where a reading was read from, as two equally good readings are ranked by. */
export interface Placing {
  /** Its origin's rank (`ORIGIN_RANK`: a fence over prose over text; -1 for a demoted fence's string). */
  rank: number;
  /** All object readings gathered into one list (not a value written at one place). */
  combined: boolean;
  /** A container found inside an unclosed one (a fallback reading of it). */
  nested: boolean;
  /** Where it is in the answer. */
  order: number;
}

/**
 * Whether `reading` ranks above `other` when both are equally good: the one rule of the end of a read
 * (`chooseReading`) and of every partial read (`preferable`), which each decide "equally good" their
 * own way first (a score; a stream also what shows nothing yet and what is still being written).
 * Of two values written in the answer, the one after more final-answer markers, or that is no example,
 * wins (`Example:⏎```json⏎{…}⏎```⏎My answer: {…}` is the second); then a fence beats prose, which beats
 * text; then a whole container beats one nested in an unclosed one; then the earlier one, unless the
 * later follows a marker (`earlierOrMarked`). `level` gives a reading's level by the markers and example
 * lead-ins before it (`FinalAnswerMarker.level`), asked only when needed.
 */
export function ranksAbove(reading: Placing, other: Placing, level: (placing: Placing) => number): boolean {
  if (placed(reading) && placed(other)) {
    const mine = level(reading);
    const theirs = level(other);
    if (mine !== theirs) return mine > theirs;
  }
  if (reading.rank !== other.rank) return reading.rank > other.rank;
  if (reading.nested !== other.nested) return !reading.nested;
  return earlierOrMarked(reading.order, level(reading), other.order, level(other));
}

/** A value written at a place in the answer: ranked at least as prose, and not all objects gathered. */
function placed(placing: Placing): boolean {
  return placing.rank >= ORIGIN_RANK.prose && !placing.combined;
}

/** The better of a reading and the best so far (either may be missing). */
export function pick(
  reading: PartialReading | undefined,
  best: PartialReading | undefined,
): PartialReading | undefined {
  return reading !== undefined && (best === undefined || preferable(reading, best)) ? reading : best;
}

/**
 * Whether `reading` beats `best`: a reading that shows something beats one that shows nothing; then the
 * lower score plus fields still to come; then a finished reading beats one being written (a complete
 * draft is kept until the final answer has caught up); then as the end of the answer ranks two equally
 * good readings (`ranksAbove`: markers and examples, fence over prose over text, whole over nested, the
 * earlier one).
 */
export function preferable(reading: PartialReading, best: PartialReading): boolean {
  const empty = waiting(reading);
  if (empty !== waiting(best)) return !empty;
  if (reading.distance !== best.distance) return reading.distance < best.distance;
  if (reading.complete !== best.complete) return reading.complete;
  // (Then as at the end of the answer.)
  return ranksAbove(reading, best, levelOf);
}

/** A reading's level by final-answer markers and example lead-ins, read when it was made. */
const levelOf = (placing: Placing): number => (placing as PartialReading).level;

/**
 * Whether a reading shows nothing *yet*: it shows nothing, and its text is still being written or it
 * still lacks fields. (A finished reading that shows nothing and lacks nothing, `[]` or `{}` written
 * whole, is a value as final mode reads it, and competes as final mode ranks it.)
 */
function waiting(reading: PartialReading): boolean {
  return showsNothing(reading) && (!reading.complete || pendingOf(reading.result) > 0);
}

/** Whether a reading shows nothing yet (see `isEmpty`); computed once per reading. */
export function showsNothing(reading: PartialReading): boolean {
  reading.empty ??= isEmpty(reading.value);
  return reading.empty;
}

/** Shows nothing yet: null, "", [], {}, or an object all of whose fields are such (or pending states). */
function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === "") return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value !== "object") return false;
  for (const key in value) {
    const field = (value as Record<string, unknown>)[key];
    if (field === null || field === "") continue;
    if (Array.isArray(field) && field.length === 0) continue;
    if (typeof field === "object" && !Array.isArray(field)) {
      const inner = field as Record<string, unknown>;
      if (Object.keys(inner).length === 0) continue;
      if ("state" in inner && "value" in inner && (inner.value === null || inner.state === "Pending"))
        continue;
    }
    return false;
  }
  return true;
}
