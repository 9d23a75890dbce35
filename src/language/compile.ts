import { type Diagnostic, hasErrors, sortDiagnostics } from "../diagnostics/index.js";
import type { Ir } from "../ir/index.js";
import type { SourceFile } from "./ast.js";
import { checkProject } from "./check-project.js";
import { lowerProject } from "./lower-project.js";
import { parseSource } from "./parser.js";

/** The result of compiling a project: the IR only when there are no errors; warnings may accompany it. */
export interface CompileResult {
  ir?: Ir;
  diagnostics: Diagnostic[];
}

/**
 * Compile `.baml` sources (file path → text) to the IR: parse every file, resolve and check names across
 * files, and lower. Never throws on any input; every problem is a diagnostic. Files are processed in
 * path order, so the IR and the diagnostics do not depend on the order of the record's keys.
 */
export function compile(sources: Readonly<Record<string, string>>): CompileResult {
  const files: SourceFile[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const path of Object.keys(sources).sort()) {
    const parsed = parseSource(sources[path] ?? "", path);
    files.push(parsed.file);
    for (const diagnostic of parsed.diagnostics) diagnostics.push(diagnostic);
  }
  const checked = checkProject(files);
  for (const diagnostic of checked.diagnostics) diagnostics.push(diagnostic);
  const sorted = sortDiagnostics(diagnostics);
  if (hasErrors(sorted)) return { diagnostics: sorted };
  return { ir: lowerProject(files, checked.symbols), diagnostics: sorted };
}
