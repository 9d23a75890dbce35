/**
 * How strings are compared by default: the same words, whatever their case, spacing or punctuation. A
 * model that writes "Staff Engineer." for "staff engineer" has the value right; a scorer that says
 * otherwise measures formatting, not extraction.
 */
export function normalizeText(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * Similarity of two strings in [0, 1]: one minus their edit distance over the longer length (1 for two
 * empty strings). Used after normalising, so only the words count.
 */
export function textSimilarity(left: string, right: string): number {
  const longer = Math.max(left.length, right.length);
  if (longer === 0) return 1;
  return 1 - editDistance(left, right) / longer;
}

/** Levenshtein distance over UTF-16 units, two rows at a time (memory linear in the shorter string). */
function editDistance(left: string, right: string): number {
  if (left.length < right.length) [left, right] = [right, left];
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  let current = new Array<number>(right.length + 1).fill(0);
  for (let row = 1; row <= left.length; row += 1) {
    current[0] = row;
    for (let column = 1; column <= right.length; column += 1) {
      const substitution = left[row - 1] === right[column - 1] ? 0 : 1;
      current[column] = Math.min(
        (previous[column] as number) + 1,
        (current[column - 1] as number) + 1,
        (previous[column - 1] as number) + substitution,
      );
    }
    [previous, current] = [current, previous];
  }
  return previous[right.length] as number;
}
