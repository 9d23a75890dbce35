import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import { type Diagnostic, hasErrors, renderDiagnostics, summarizeDiagnostics } from "../diagnostics/index.js";
import type { Ir } from "../ir/index.js";
import { compile } from "../language/index.js";
import { type CliContext, CliError } from "./cli-context.js";

/** A project's `.baml` sources, keyed by path relative to the baml_src folder (with `/`). */
export interface ProjectSources {
  /** Absolute path of the baml_src folder. */
  dir: string;
  sources: Record<string, string>;
}

/** The baml_src folder a command works on: `--from DIR`, or `./baml_src`. */
export function projectDirectory(context: CliContext, from: string | undefined): string {
  return resolve(context.cwd, from ?? "baml_src");
}

/**
 * Read every `*.baml` file under `dir` (recursively, in path order). A missing folder, a file instead of
 * a folder, or a folder without `.baml` files is a `CliError` with one line saying what to do.
 */
export async function loadProject(dir: string, context: CliContext): Promise<ProjectSources> {
  const shown = displayPath(context, dir);
  const info = await stat(dir).catch(() => undefined);
  if (!info) throw new CliError(`${shown} does not exist. Pass --from DIR to point at your baml_src folder.`);
  if (!info.isDirectory())
    throw new CliError(`${shown} is not a folder. Pass --from DIR to point at your baml_src folder.`);
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".baml"))
    // `parentPath` is Node ≥ 20.12; earlier 20.x releases call it `path`.
    .map((entry) =>
      join((entry as { parentPath?: string }).parentPath ?? (entry as { path: string }).path, entry.name),
    )
    .sort();
  if (files.length === 0) throw new CliError(`${shown} contains no .baml files.`);
  const sources: Record<string, string> = {};
  for (const file of files) {
    sources[relative(dir, file).split(sep).join("/")] = await readFile(file, "utf8");
  }
  return { dir, sources };
}

/**
 * Diagnostics rendered with paths as the user would type them from the current folder
 * (`baml_src/resume.baml:3:8`), followed by a summary line.
 */
export function renderProjectDiagnostics(
  project: ProjectSources,
  diagnostics: readonly Diagnostic[],
  context: CliContext,
): string {
  const toDisplay = (file: string): string => displayPath(context, join(project.dir, file));
  const sources: Record<string, string> = {};
  for (const [file, text] of Object.entries(project.sources)) sources[toDisplay(file)] = text;
  const shown = diagnostics.map((diagnostic) => ({
    ...diagnostic,
    file: toDisplay(diagnostic.file),
    notes: diagnostic.notes.map((note) =>
      note.file === undefined ? note : { ...note, file: toDisplay(note.file) },
    ),
  }));
  return renderDiagnostics(shown, sources);
}

/**
 * Load and compile a project for commands that need its IR (generate, render, parse, test). Warnings and
 * errors are printed to stderr; errors end the command with a `CliError` (exit code 1).
 */
export async function loadCompiledProject(
  dir: string,
  context: CliContext,
): Promise<{ project: ProjectSources; ir: Ir; diagnostics: Diagnostic[] }> {
  const project = await loadProject(dir, context);
  const { ir, diagnostics } = compile(project.sources);
  if (diagnostics.length > 0)
    context.stderr(`${renderProjectDiagnostics(project, diagnostics, context)}\n\n`);
  if (!ir || hasErrors(diagnostics)) {
    throw new CliError(
      `${displayPath(context, dir)} has ${summarizeDiagnostics(diagnostics)}; fix them and run again (\`sapling check\` lists them).`,
    );
  }
  return { project, ir, diagnostics };
}

/** A path relative to the current folder when it is inside it, absolute otherwise. */
export function displayPath(context: CliContext, path: string): string {
  const relativePath = relative(context.cwd, path);
  if (relativePath === "") return ".";
  if (relativePath.startsWith("..")) return path;
  return relativePath.split(sep).join("/");
}
