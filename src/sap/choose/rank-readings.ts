import { earlierOrMarked } from "../lenient/final-answer-marker.js";
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
