/**
 * The candidate closest to `name` for a "did you mean" hint, or `undefined` when none is close enough.
 * A case-only difference always matches; otherwise the edit distance may be at most a third of the
 * name.s length, so short names do not suggest unrelated ones.
 */
export function suggestName(name: string, candidates: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  const limit = Math.floor(name.length / 3);
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    if (candidate === name) continue;
    if (candidate.toLowerCase() === lower) return candidate;
    if (Math.abs(candidate.length - name.length) > limit) continue;
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance <= limit && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best !== undefined || lower.length < 4) return best;
  // A prefix relation (`exponential` → `exponential_backoff`, `output_directory` → `output_dir`) is a
  // strong hint even when many characters differ.
  for (const candidate of candidates) {
    const other = candidate.toLowerCase();
    if (other.length >= 4 && (other.startsWith(lower) || lower.startsWith(other))) return candidate;
  }
  return undefined;
}

/** Levenshtein distance with adjacent transpositions counted as one edit. */
export function editDistance(left: string, right: string): number {
  const rows = left.length + 1;
  const columns = right.length + 1;
  const table: number[] = new Array(rows * columns).fill(0);
  for (let row = 0; row < rows; row++) table[row * columns] = row;
  for (let column = 0; column < columns; column++) table[column] = column;
  for (let row = 1; row < rows; row++) {
    for (let column = 1; column < columns; column++) {
      const cost = left[row - 1] === right[column - 1] ? 0 : 1;
      let value = Math.min(
        (table[(row - 1) * columns + column] ?? 0) + 1,
        (table[row * columns + column - 1] ?? 0) + 1,
        (table[(row - 1) * columns + column - 1] ?? 0) + cost,
      );
      if (
        row > 1 &&
        column > 1 &&
        left[row - 1] === right[column - 2] &&
        left[row - 2] === right[column - 1]
      ) {
        value = Math.min(value, (table[(row - 2) * columns + column - 2] ?? 0) + 1);
      }
      table[row * columns + column] = value;
    }
  }
  return table[rows * columns - 1] ?? 0;
}
