import { ORIGIN_RANK } from "../lenient/extract-candidates.js";
import { earlierOrMarked } from "../lenient/final-answer-marker.js";
import type { PartialReading } from "./partial-reader.js";
import { pendingOf } from "./stream-of.js";

/** Orders from here on are readings of the whole text (`COMBINED_ORDER`, `TEXT_ORDER`). */
const TEXT_ORDERS = Number.MAX_SAFE_INTEGER - 1;

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
 * draft is kept until the final answer has caught up); then fence over prose over text; then a reading
 * of the whole container over one nested in an unclosed one; then the earlier one, unless the later follows
 * more final-answer markers or the earlier is an example (`earlierOrMarked`, final mode's rule).
 */
export function preferable(reading: PartialReading, best: PartialReading): boolean {
  const empty = waiting(reading);
  if (empty !== waiting(best)) return !empty;
  if (reading.distance !== best.distance) return reading.distance < best.distance;
  if (reading.complete !== best.complete) return reading.complete;
  // (Final mode's rule: of two values written in the answer, markers and examples decide before rank.)
  if (placed(reading) && placed(best) && reading.level !== best.level) return reading.level > best.level;
  if (reading.rank !== best.rank) return reading.rank > best.rank;
  if (reading.nested !== best.nested) return !reading.nested;
  return earlierOrMarked(reading.order, reading.level, best.order, best.level);
}

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

/**
 * A value written at a place in the answer (a fence's or the prose's, label lines, sections): ranked at
 * least as prose, and not all objects gathered into a list or a reading of the whole text.
 */
function placed(reading: PartialReading): boolean {
  return reading.rank >= ORIGIN_RANK.prose && reading.source.combined !== true && reading.order < TEXT_ORDERS;
}
