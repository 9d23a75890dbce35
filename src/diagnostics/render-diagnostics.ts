import { computeLineStarts, offsetToLineColumn } from "../util/index.js";
import type { Diagnostic } from "./diagnostic.js";
import { renderCodeFrame } from "./render-code-frame.js";

/**
 * Render one diagnostic the way compilers do:
 *
 * ```
 * error[E0101]: Unknown type "Strng".
 *   --> models.baml:3:8
 *   |
 * 3 |   name Strng
 *   |        ^^^^^
 *   = hint: did you mean "string"?
 * ```
 *
 * `sources` maps file names to their text; a file missing from it renders without a code frame.
 */
export function renderDiagnostic(
  diagnostic: Diagnostic,
  sources: Readonly<Record<string, string>>,
  lineStartsCache: Map<string, number[]> = new Map(),
): string {
  const lines = [`${diagnostic.severity}[${diagnostic.code}]: ${diagnostic.message}`];
  const text = sources[diagnostic.file];
  if (text === undefined) {
    lines.push(`  --> ${diagnostic.file}`);
  } else {
    const lineStarts = cachedLineStarts(diagnostic.file, text, lineStartsCache);
    const { line, column } = offsetToLineColumn(lineStarts, Math.min(diagnostic.span.start, text.length));
    lines.push(`  --> ${diagnostic.file}:${line}:${column}`);
    lines.push(renderCodeFrame(text, diagnostic.span, lineStarts));
  }
  if (diagnostic.hint !== undefined) lines.push(`  = hint: ${diagnostic.hint}`);
  for (const note of diagnostic.notes) {
    const noteText = note.file === undefined ? undefined : sources[note.file];
    if (note.file !== undefined && note.span !== undefined && noteText !== undefined) {
      const lineStarts = cachedLineStarts(note.file, noteText, lineStartsCache);
      const { line, column } = offsetToLineColumn(lineStarts, Math.min(note.span.start, noteText.length));
      lines.push(`  = note: ${note.message} (${note.file}:${line}:${column})`);
    } else {
      lines.push(`  = note: ${note.message}`);
    }
  }
  return lines.join("\n");
}

/** Render several diagnostics separated by blank lines, in the order given. */
export function renderDiagnostics(
  diagnostics: readonly Diagnostic[],
  sources: Readonly<Record<string, string>>,
): string {
  const cache = new Map<string, number[]>();
  return diagnostics.map((diagnostic) => renderDiagnostic(diagnostic, sources, cache)).join("\n\n");
}

/** "2 errors, 1 warning" / "no problems". */
export function summarizeDiagnostics(diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === "error").length;
  const warnings = diagnostics.length - errors;
  if (diagnostics.length === 0) return "no problems";
  const parts: string[] = [];
  if (errors > 0) parts.push(`${errors} error${errors === 1 ? "" : "s"}`);
  if (warnings > 0) parts.push(`${warnings} warning${warnings === 1 ? "" : "s"}`);
  return parts.join(", ");
}

function cachedLineStarts(file: string, text: string, cache: Map<string, number[]>): number[] {
  let starts = cache.get(file);
  if (starts === undefined) {
    starts = computeLineStarts(text);
    cache.set(file, starts);
  }
  return starts;
}
