/** Small formatting helpers for the report: a Markdown table and human-sized durations and ratios. */

/** A Markdown table; the first column is left-aligned, the others right-aligned (numbers). */
export function markdownTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const alignment = header.map((_, index) => (index === 0 ? "---" : "---:"));
  const line = (cells: readonly string[]): string => `| ${cells.join(" | ")} |`;
  return [line(header), line(alignment), ...rows.map(line)].join("\n");
}

/** `12.3 µs`, `1.24 ms`, `350 ms`, `2.10 s`. */
export function formatDuration(milliseconds: number): string {
  if (milliseconds < 0.1) return `${(milliseconds * 1000).toPrecision(3)} µs`;
  if (milliseconds < 1000) return `${milliseconds.toPrecision(3)} ms`;
  return `${(milliseconds / 1000).toFixed(2)} s`;
}

/** How many times slower `other` is than `reference`: `42×`, `1.3×`, `0.50×`. */
export function formatRatio(other: number, reference: number): string {
  const ratio = other / reference;
  return ratio >= 10 ? `${Math.round(ratio)}×` : `${ratio.toFixed(ratio >= 1 ? 1 : 2)}×`;
}

/** `93% (131/142)`. */
export function formatShare(count: number, total: number): string {
  return total === 0 ? "–" : `${Math.round((count / total) * 100)}% (${count}/${total})`;
}
