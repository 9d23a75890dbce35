/**
 * The first integer literal of a JSON text that a JavaScript number cannot hold exactly (beyond 2^53),
 * with its offset, or `undefined`. `JSON.parse` rounds such a literal silently (`9007199254740993` becomes
 * `…992`), so the server looks for one before trusting the parsed value: an ID or an amount that arrives
 * changed is worse than a 400. Literals inside strings are text, not numbers, and are skipped.
 * `text` must be valid JSON (the caller parsed it first).
 */
export function findInexactInteger(text: string): { literal: string; offset: number } | undefined {
  // Fast path: no run of 16 digits, no integer beyond 2^53 (it has 16 digits), without a character loop.
  if (!LONG_DIGIT_RUN.test(text)) return undefined;
  let offset = 0;
  while (offset < text.length) {
    const code = text.charCodeAt(offset);
    if (code === QUOTE) {
      offset = endOfString(text, offset);
      continue;
    }
    if (code === MINUS || (code >= DIGIT_ZERO && code <= DIGIT_NINE)) {
      NUMBER.lastIndex = offset;
      const match = NUMBER.exec(text);
      const literal = match?.[0] ?? text.charAt(offset);
      if (match && match[1] === undefined && match[2] === undefined && !Number.isSafeInteger(Number(literal)))
        return { literal, offset };
      offset += literal.length;
      continue;
    }
    offset++;
  }
  return undefined;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const DIGIT_ZERO = 0x30;
const DIGIT_NINE = 0x39;
const LONG_DIGIT_RUN = /\d{16}/;
/** A JSON number; group 1 is its fraction, group 2 its exponent (an integer literal has neither). */
const NUMBER = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;

/** The offset just after the string that starts at `start` (its opening quote). */
function endOfString(text: string, start: number): number {
  let offset = start + 1;
  while (offset < text.length) {
    const code = text.charCodeAt(offset);
    if (code === BACKSLASH) offset += 2;
    else if (code === QUOTE) return offset + 1;
    else offset++;
  }
  return offset;
}
