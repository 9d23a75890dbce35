import { computeLineStarts, offsetToLineColumn } from "../util/index.js";
import type { Flag } from "./flags.js";

/** How much of a repaired stretch of the answer an explanation quotes. */
const EXCERPT_LIMIT = 40;

/**
 * A human-readable account of the repairs behind a parse result, one line per flag:
 * `$.years_of_experience: FloatToInt — "7.5" rounded to 8`. Given the raw answer, each line also says
 * where in it the repair happened and quotes that stretch: `… rounded to 8 (at 3:24 `"7.5"`)`.
 */
export function explainFlags(result: { flags: readonly Flag[]; score?: number }, raw?: string): string {
  if (result.flags.length === 0) return "No repairs: the answer was valid JSON of exactly the expected type.";
  const lineStarts = raw === undefined ? undefined : computeLineStarts(raw);
  const lines = result.flags.map((flag) => {
    const where = raw !== undefined && flag.span ? ` (at ${placeOf(raw, lineStarts!, flag.span)})` : "";
    return `${flag.path}: ${flag.kind} — ${flag.detail}${where}`;
  });
  const score = result.score === undefined ? "" : ` (score ${result.score})`;
  return `${result.flags.length} repair${result.flags.length === 1 ? "" : "s"}${score}:\n${lines.map((line) => `  ${line}`).join("\n")}`;
}

/** `line:column` of the span's start and a short excerpt of it, on one line. */
function placeOf(raw: string, lineStarts: readonly number[], span: { start: number; end: number }): string {
  const { line, column } = offsetToLineColumn(lineStarts, span.start);
  const text = raw.slice(span.start, Math.min(span.end, span.start + EXCERPT_LIMIT * 2)).replace(/\s+/g, " ");
  const excerpt = text.length > EXCERPT_LIMIT ? `${text.slice(0, EXCERPT_LIMIT - 1)}…` : text;
  return excerpt.trim() === "" ? `${line}:${column}` : `${line}:${column} \`${excerpt}\``;
}
