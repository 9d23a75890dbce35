import * as lsp from "vscode-languageserver";
import type { Diagnostic } from "../diagnostics/index.js";
import type { BamlProject, ProjectFile } from "./baml-project.js";

/**
 * A project's diagnostics as the protocol carries them, by file URI: every file of the project has an
 * entry (an empty list clears what was published before). Notes with a place become related
 * information; the hint follows the message on its own line.
 */
export function projectDiagnostics(project: BamlProject): Map<string, lsp.Diagnostic[]> {
  const byFile = new Map<string, lsp.Diagnostic[]>();
  for (const file of project.files.values()) byFile.set(file.uri, []);
  for (const diagnostic of project.check().diagnostics) {
    const file = project.files.get(diagnostic.file);
    if (file) byFile.get(file.uri)?.push(toLspDiagnostic(diagnostic, file, project));
  }
  return byFile;
}

function toLspDiagnostic(diagnostic: Diagnostic, file: ProjectFile, project: BamlProject): lsp.Diagnostic {
  const range = (target: ProjectFile, span: { start: number; end: number }) => ({
    start: target.document.positionAt(span.start),
    end: target.document.positionAt(span.end),
  });
  const related = diagnostic.notes.flatMap((note) => {
    const target = note.file === undefined ? file : project.files.get(note.file);
    return note.span && target
      ? [{ location: { uri: target.uri, range: range(target, note.span) }, message: note.message }]
      : [];
  });
  const unplaced = diagnostic.notes.filter((note) => !note.span).map((note) => `note: ${note.message}`);
  const message = [
    diagnostic.message,
    ...(diagnostic.hint ? [`hint: ${diagnostic.hint}`] : []),
    ...unplaced,
  ].join("\n");
  return {
    range: range(file, diagnostic.span),
    severity: diagnostic.severity === "error" ? lsp.DiagnosticSeverity.Error : lsp.DiagnosticSeverity.Warning,
    code: diagnostic.code,
    source: "sapling",
    message,
    ...(related.length > 0 ? { relatedInformation: related } : {}),
  };
}
