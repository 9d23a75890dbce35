/**
 * BAML's preprocessing of a prompt: CRLF line endings read as `\n`, dedent (remove the smallest
 * indentation of the non-blank lines from every line, and all of a whitespace-only line) and trim. Keeps enough bookkeeping to map an offset in the prepared text back to a line and
 * column of the text as written, so errors point into the `.baml` file.
 */
export interface PreparedTemplate {
  text: string;
  /** 0-based line and column in the original text of an offset in `text`. */
  toOriginal: (offset: number) => { line: number; column: number };
}

export function prepareTemplate(raw: string): PreparedTemplate {
  // Lines end at `\n`, and a `\r` before it goes with the ending (a file saved with CRLF), as BAML reads
  // them: the prompt sends `\n` only. A `\r` elsewhere is text.
  const lines = raw.split("\n").map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
  let indent = Number.POSITIVE_INFINITY;
  for (const line of lines) {
    if (line.trim() === "") continue;
    indent = Math.min(indent, /^\s*/.exec(line)?.[0].length ?? 0);
  }
  if (!Number.isFinite(indent)) indent = 0;
  // A whitespace-only line becomes empty, as BAML's dedent makes it (`"A⏎   ⏎B"` sends `"A⏎⏎B"`).
  const removed = lines.map((line) => (line.trim() === "" ? line.length : Math.min(indent, line.length)));
  const dedented = lines.map((line, index) => line.slice(removed[index])).join("\n");
  const leading = dedented.length - dedented.trimStart().length;
  const text = dedented.trim();

  const lineStarts: number[] = [];
  let position = 0;
  for (const [index, line] of lines.entries()) {
    lineStarts.push(position);
    position += line.length - (removed[index] ?? 0) + 1;
  }
  return {
    text,
    toOriginal: (offset) => {
      const target = offset + leading;
      let line = 0;
      while (line + 1 < lineStarts.length && (lineStarts[line + 1] ?? 0) <= target) line++;
      return { line, column: target - (lineStarts[line] ?? 0) + (removed[line] ?? 0) };
    },
  };
}

/** 1-based line and column of `offset` in `text`. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - (before.lastIndexOf("\n") + 1) + 1 };
}
