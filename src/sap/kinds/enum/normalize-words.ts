/**
 * Split text into lower-case words the way people read identifiers: accents folded, camelCase and
 * digit boundaries split, `_`, `-`, spaces and punctuation ignored. `STRONG_HIRE`, `StrongHire`,
 * `strong-hire` and `Strong Hire` all become `["strong", "hire"]`; Korean and other scripts keep their
 * letters.
 */
export function normalizeWords(text: string): string[] {
  const folded = text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    // Recompose what NFKD split but is not an accent (Hangul syllables).
    .normalize("NFC")
    .replace(/ß/g, "ss")
    .replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
    .toLowerCase();
  return folded.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 0);
}
