/**
 * Counts the parser's work in steps (a coercion, a character scanned by a streaming reader, a character
 * escaped for a message), so tests check that streaming is linear by counting work, never by timing it.
 * One shared counter, read as a difference; incrementing it costs next to nothing.
 */
export const workMeter = { steps: 0 };
