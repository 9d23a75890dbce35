import type { Flag } from "./flags.js";

/**
 * A human-readable account of the repairs behind a parse result, one line per flag:
 * `$.years_of_experience: FloatToInt — "7.5" rounded to 8`.
 */
export function explainFlags(result: { flags: readonly Flag[]; score?: number }): string {
  if (result.flags.length === 0) return "No repairs: the answer was valid JSON of exactly the expected type.";
  const lines = result.flags.map((flag) => `${flag.path}: ${flag.kind} — ${flag.detail}`);
  const score = result.score === undefined ? "" : ` (score ${result.score})`;
  return `${result.flags.length} repair${result.flags.length === 1 ? "" : "s"}${score}:\n${lines.map((line) => `  ${line}`).join("\n")}`;
}
