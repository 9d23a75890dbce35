const BULLET = /^(?:[-*•+]|\d{1,3}[.)]|[a-z][.)])\s+/;
const CONJUNCTION = /^(?:and|or|&)\s+/i;

/**
 * Split a string that lists several scalars: one per line (bullets and numbering removed), or separated
 * by `;` or commas, optionally in brackets, with a final `and`/`or`. A comma split is taken only when
 * every piece is short (at most five words) and the pieces do not read as one sentence (a capitalised
 * first piece continued in lower case) — a sentence with a comma is one item, not two. A single
 * number with thousands separators (`"1,234"`) is not a list. Returns undefined when the text is not a
 * list.
 */
export function splitDelimited(text: string): string[] | undefined {
  let body = text.trim();
  if (/^[+-]?[$€£¥]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(body)) return undefined;
  if (body.startsWith("[") && body.endsWith("]")) body = body.slice(1, -1).trim();
  const lines = body
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  let pieces: string[];
  if (lines.length >= 2) {
    pieces = lines.map((line) => line.replace(BULLET, ""));
  } else if (body.includes(";")) {
    pieces = body.split(";");
  } else {
    pieces = body.split(",");
  }
  pieces = pieces
    .map((piece) =>
      piece
        .trim()
        .replace(CONJUNCTION, "")
        .replace(/^["'](.*)["']$/, "$1")
        .trim(),
    )
    .filter((piece) => piece.length > 0);
  if (pieces.length < 2) return undefined;
  if (lines.length < 2) {
    const short = pieces.every((piece) => piece.split(/\s+/).length <= 5);
    // "Shipped the platform, raising coverage to 22%": a capitalised start continued in lower case is
    // one sentence, not a list.
    const continues = /^\p{Lu}/u.test(pieces[0]!) && pieces.slice(1).some((piece) => /^\p{Ll}/u.test(piece));
    if (!short || continues) return undefined;
  }
  return pieces;
}
