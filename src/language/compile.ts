import { type Diagnostic, hasErrors, sortDiagnostics } from "../diagnostics/index.js";
import type { Ir } from "../ir/index.js";
import type { SourceFile } from "./ast.js";
import type { ProjectSymbols } from "./check-context.js";
import { checkProject } from "./check-project.js";
import type { IncrementalChecker } from "./incremental-checker.js";
import { lowerProject } from "./lower-project.js";
import { parseSource } from "./parser.js";

/** The result of compiling a project: the IR only when there are no errors; warnings may accompany it. */
export interface CompileResult {
  ir?: Ir;
  diagnostics: Diagnostic[];
}

/** One file as `parseSource` returns it: the syntax tree and its syntax errors. */
export interface ParsedFile {
  file: SourceFile;
  diagnostics: Diagnostic[];
}

/** A checked project: its files (in path order), the symbol table, and every diagnostic, sorted. */
export interface CheckedProject {
  files: SourceFile[];
  symbols: ProjectSymbols;
  diagnostics: Diagnostic[];
}

/**
 * Compile `.baml` sources (file path → text) to the IR: parse every file, resolve and check names across
 * files, and lower. Never throws on any input; every problem is a diagnostic. Files are processed in
 * path order, so the IR and the diagnostics do not depend on the order of the record's keys.
 */
export function compile(sources: Readonly<Record<string, string>>): CompileResult {
  const parsed = Object.keys(sources).map((path) => parseSource(sources[path] ?? "", path));
  return lowerChecked(checkParsedFiles(parsed));
}

/**
 * The checking half of `compile` over files parsed already, so a host that keeps each file's parse (the
 * language server re-parses only the file that changed) checks exactly as `compile` does. With a
 * `checker`, the declaration checks of files an edit cannot have affected are re-used from its last run.
 */
export function checkParsedFiles(
  parsed: readonly ParsedFile[],
  checker?: IncrementalChecker,
): CheckedProject {
  const ordered = [...parsed].sort((left, right) =>
    left.file.path < right.file.path ? -1 : left.file.path > right.file.path ? 1 : 0,
  );
  const files = ordered.map((item) => item.file);
  const diagnostics: Diagnostic[] = ordered.flatMap((item) => item.diagnostics);
  const checked = checker ? checker.check(files) : checkProject(files);
  for (const diagnostic of checked.diagnostics) diagnostics.push(diagnostic);
  return { files, symbols: checked.symbols, diagnostics: sortDiagnostics(diagnostics) };
}

/** The lowering half of `compile`: the IR of a checked project, when it has no errors. */
export function lowerChecked(checked: CheckedProject): CompileResult {
  if (hasErrors(checked.diagnostics)) return { diagnostics: checked.diagnostics };
  return { ir: lowerProject(checked.files, checked.symbols), diagnostics: checked.diagnostics };
}
