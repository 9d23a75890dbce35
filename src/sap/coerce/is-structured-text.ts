/**
 * Whether a text is written as a JSON object or list (`{…}`, `[…]`, perhaps cut off). Such a text is data
 * with keys and items, not a sentence: a number or bool is not read out of it (`{"status": 1, "message":
 * "success"}` names no int — which of its values would be meant?). A `[` must be closed too: `[Note] …`
 * starts a sentence.
 */
export function isStructuredText(text: string): boolean {
  const trimmed = text.trim();
  const first = trimmed[0];
  return first === "{" || (first === "[" && trimmed.length > 1 && trimmed[trimmed.length - 1] === "]");
}
