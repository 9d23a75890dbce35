import { computeLineStarts, offsetToLineColumn } from "../util/index.js";
import type { Span } from "./diagnostic.js";

/**
 * The source lines a span covers, each prefixed with its line number, with a caret underline below the
 * covered part (`^^^^`). Spans over several lines underline each covered line; at most `maxLines` lines are
 * shown. An empty span (at the end of a file, say) gets a single caret.
 */
export function renderCodeFrame(
  text: string,
  span: Span,
  lineStarts: readonly number[] = computeLineStarts(text),
  maxLines = 4,
): string {
  const start = clamp(span.start, text.length);
  const end = Math.max(start, clamp(span.end, text.length));
  const first = offsetToLineColumn(lineStarts, start).line;
  const last = Math.min(offsetToLineColumn(lineStarts, Math.max(start, end - 1)).line, first + maxLines - 1);
  const gutter = String(last).length;
  const output: string[] = [`${" ".repeat(gutter)} |`];
  for (let line = first; line <= last; line++) {
    const lineStart = lineStarts[line - 1] ?? 0;
    const lineText = lineContent(text, lineStart);
    const displayed = lineText.replace(/\t/g, " ");
    output.push(`${String(line).padStart(gutter)} | ${displayed}`.trimEnd());
    const from = Math.max(start, lineStart) - lineStart;
    const to = Math.min(end, lineStart + lineText.length) - lineStart;
    const width = Math.max(1, to - from);
    output.push(`${" ".repeat(gutter)} | ${" ".repeat(from)}${"^".repeat(width)}`);
  }
  return output.join("\n");
}

function lineContent(text: string, lineStart: number): string {
  let end = lineStart;
  while (end < text.length && text[end] !== "\n" && text[end] !== "\r") end++;
  return text.slice(lineStart, end);
}

function clamp(offset: number, length: number): number {
  return Math.min(Math.max(0, offset), length);
}
