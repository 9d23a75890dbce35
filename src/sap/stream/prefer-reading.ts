import { type Placing, ranksAbove } from "../choose/rank-readings.js";
import type { PartialReading } from "./partial-reader.js";
import { pendingOf } from "./stream-of.js";

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
