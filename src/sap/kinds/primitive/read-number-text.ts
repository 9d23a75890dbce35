import { isStructuredText } from "../../coerce/is-structured-text.js";

/** How a number was read from text: plainly, or by looking past symbols and words. */
export type NumberReading =
  | { ok: true; value: number; plain: boolean; note: string }
  | { ok: false; reason: "none" | "several"; numbers?: number[] };

const PLAIN = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const THOUSANDS = /^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;
const FRACTION = /^([+-]?\d+(?:\.\d+)?)\s*\/\s*(\d+(?:\.\d+)?)$/;
/** A number inside other text: optional sign (not after a letter), optional currency, thousands, decimals. */
const EMBEDDED =
  /(?<![\p{L}\p{N}.])([+-]?)[$€£¥₩]?((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][+-]?\d+)?|\.\d+)(?![\p{N}]|[xX][0-9a-fA-F])/gu;

/**
 * Read one number from a string the way a person would: `"42"`, `"1,234"`, `"$1,299.99"`, `"50%"` (50,
 * not 0.5), `"3/4"`, `"12 units"`, `"about 7 years"`. Several different numbers (`"1, 2, 3"`,
 * `"2020-2024"`) are ambiguous (but `4 out of 5` is 4 and `9 + 11 = 20` is 20), words without digits (`"three"`) are not numbers, and neither is a number
 * among the values of JSON written as text (see `isStructuredText`).
 */
export function readNumberText(text: string): NumberReading {
  // Without a trailing `,` or `.` (`"42,"`, `"7."`).
  const blankless = text.trim();
  const last = blankless.charCodeAt(blankless.length - 1);
  const trimmed = last === 44 /* , */ || last === 46 /* . */ ? blankless.slice(0, -1) : blankless;
  if (PLAIN.test(trimmed)) return { ok: true, value: Number(trimmed), plain: true, note: "" };
  if (THOUSANDS.test(trimmed)) {
    return {
      ok: true,
      value: Number(trimmed.replaceAll(",", "")),
      plain: true,
      note: "thousands separators",
    };
  }
  const fraction = FRACTION.exec(trimmed);
  if (fraction) {
    const denominator = Number(fraction[2]);
    if (denominator !== 0) {
      return { ok: true, value: Number(fraction[1]) / denominator, plain: false, note: "a fraction" };
    }
  }
  if (isStructuredText(trimmed)) return { ok: false, reason: "none" };
  const numbers: number[] = [];
  for (const match of trimmed.matchAll(EMBEDDED)) {
    numbers.push(Number(`${match[1]}${match[2]!.replaceAll(",", "")}`));
  }
  const distinct = [...new Set(numbers)];
  if (distinct.length === 1)
    return { ok: true, value: distinct[0]!, plain: false, note: "the only number in the text" };
  if (distinct.length > 1) return severalNumbers(trimmed, distinct);
  return { ok: false, reason: "none" };
}

/** `4 out of 5` (the score is 4); one phrase, and no number in the text but its two. */
const OUT_OF = /(?<![\p{L}\p{N}.])([+-]?\d+(?:\.\d+)?)\s+out\s+of\s+(\d+(?:\.\d+)?)(?!\p{N})/giu;
/**
 * Arithmetic ending in its result: `9 + 11 = 20`, `1231 × 2331 = **2,869,461**`, `= \( 25 \)`, `… so the
 * answer is \( 25 \)`: a number after the last `=` (or `the answer is`), in markdown or LaTeX emphasis at
 * most, ending the text.
 */
const RESULT =
  /(?:=|\banswer\s+is:?)\s*(?:\*\*|\\\(|\$)?\s*([+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)\s*(?:\*\*|\\\)|\$)?\s*[.!]?\s*$/u;

/**
 * Two idioms name one of several numbers: `N out of M` names N, and arithmetic ending in a result names
 * the result. Any other text with several different numbers is ambiguous.
 */
function severalNumbers(text: string, distinct: number[]): NumberReading {
  const outOf = [...text.matchAll(OUT_OF)];
  if (outOf.length === 1) {
    const named = Number(outOf[0]![1]);
    const of = Number(outOf[0]![2]);
    if (distinct.every((number) => number === named || number === of)) {
      return { ok: true, value: named, plain: false, note: `the N of "N out of M"` };
    }
  }
  const result = RESULT.exec(text);
  if (result) {
    return {
      ok: true,
      value: Number(result[1]!.replaceAll(",", "")),
      plain: false,
      note: "the result of the arithmetic",
    };
  }
  return { ok: false, reason: "several", numbers: distinct };
}

/** Round half away from zero (`7.5` → 8, `-2.5` → -3), as a person rounds. */
export function roundHalfAwayFromZero(value: number): number {
  // `|| 0` turns -0 (from rounding -0.4) into 0.
  return Math.sign(value) * Math.round(Math.abs(value)) || 0;
}
