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
 * `"2020-2024"`) are ambiguous, words without digits (`"three"`) are not numbers, and neither is a number
 * among the values of JSON written as text (see `isStructuredText`).
 */
export function readNumberText(text: string): NumberReading {
  const trimmed = text.trim().replace(/[,.]$/, "");
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
  if (distinct.length > 1) return { ok: false, reason: "several", numbers: distinct };
  return { ok: false, reason: "none" };
}

/** Round half away from zero (`7.5` → 8, `-2.5` → -3), as a person rounds. */
export function roundHalfAwayFromZero(value: number): number {
  // `|| 0` turns -0 (from rounding -0.4) into 0.
  return Math.sign(value) * Math.round(Math.abs(value)) || 0;
}
