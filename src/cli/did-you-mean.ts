import { suggestName } from "../diagnostics/index.js";

/**
 * The candidate a mistyped name most likely meant, or `undefined` when nothing is close. Besides the
 * compiler's suggestion rule (a small edit distance, a case-only difference), a name that starts exactly
 * one candidate counts: `sapling gen` means `generate`.
 */
export function didYouMean(name: string, candidates: readonly string[]): string | undefined {
  const prefixed = name.length >= 2 ? candidates.filter((candidate) => candidate.startsWith(name)) : [];
  return suggestName(name, candidates) ?? (prefixed.length === 1 ? prefixed[0] : undefined);
}
