import { TextDocument } from "vscode-languageserver-textdocument";
import {
  type CheckedProject,
  checkParsedFiles,
  IncrementalChecker,
  type Located,
  type ParsedFile,
  type ProjectSymbols,
  parseSource,
} from "../language/index.js";
import { collectOccurrences, type Occurrence, type SymbolNamespace } from "./occurrences.js";

/** One `.baml` file of a project: its current text (the editor's when open, else the disk's) and caches. */
export interface ProjectFile {
  /** Path relative to the project folder, with `/` (the key diagnostics use). */
  path: string;
  uri: string;
  document: TextDocument;
  /** Whether the editor has it open (then the editor's text wins over the disk's). */
  open: boolean;
  parsed?: ParsedFile;
  occurrences?: Occurrence[];
}

/** How much work the project did, for tests and the benchmark (counts, never times). */
export interface ProjectWork {
  parses: number;
  checks: number;
  /** Files whose declaration checks a project check re-used, summed over checks. */
  reusedFileChecks: number;
}

/**
 * One `baml_src` folder as the language server sees it. Each file keeps its parse until its text changes,
 * so an edit re-parses one file and re-checks the project from the kept parses (lowering to the IR is
 * skipped: diagnostics, hover and navigation read the syntax tree and the symbol table).
 */
export class BamlProject {
  readonly files = new Map<string, ProjectFile>();
  readonly work: ProjectWork = { parses: 0, checks: 0, reusedFileChecks: 0 };
  private checked: CheckedProject | undefined;
  private readonly checker = new IncrementalChecker();

  constructor(
    /** Absolute path of the folder. */
    readonly dir: string,
  ) {}

  /** Set a file's text (from the editor or the disk); keeps the caches when the text is the same. */
  setText(path: string, uri: string, text: string, version: number, open: boolean): ProjectFile {
    const existing = this.files.get(path);
    if (existing && existing.document.getText() === text) {
      existing.open = open;
      if (open) existing.uri = uri;
      return existing;
    }
    const file: ProjectFile = { path, uri, document: TextDocument.create(uri, "baml", version, text), open };
    this.files.set(path, file);
    this.checked = undefined;
    return file;
  }

  /** Use the editor's document (already updated incrementally) as the file's text. */
  setDocument(path: string, document: TextDocument): ProjectFile {
    const existing = this.files.get(path);
    if (existing?.document === document && existing.open) return existing;
    const file: ProjectFile = { path, uri: document.uri, document, open: true };
    this.files.set(path, file);
    this.checked = undefined;
    return file;
  }

  /** Forget that the document changed in place: its caches are stale. */
  changed(path: string): void {
    const file = this.files.get(path);
    if (!file) return;
    file.parsed = undefined;
    file.occurrences = undefined;
    this.checked = undefined;
  }

  remove(path: string): boolean {
    const removed = this.files.delete(path);
    if (removed) this.checked = undefined;
    return removed;
  }

  parsed(file: ProjectFile): ParsedFile {
    if (!file.parsed) {
      file.parsed = parseSource(file.document.getText(), file.path);
      this.work.parses++;
    }
    return file.parsed;
  }

  occurrences(file: ProjectFile): Occurrence[] {
    file.occurrences ??= collectOccurrences(this.parsed(file).file);
    return file.occurrences;
  }

  /** The checked project: every file's kept parse, re-checked only after a change. */
  check(): CheckedProject {
    if (!this.checked) {
      this.checked = checkParsedFiles(
        [...this.files.values()].map((file) => this.parsed(file)),
        this.checker,
      );
      this.work.checks++;
      this.work.reusedFileChecks += this.checker.reused;
    }
    return this.checked;
  }

  get symbols(): ProjectSymbols {
    return this.check().symbols;
  }

  /** The declaration a name refers to in a namespace, with its file. */
  declarationOf(
    namespace: SymbolNamespace,
    name: string,
  ): Located<{ name: { name: string; span: { start: number; end: number } } }> | undefined {
    const symbols = this.symbols;
    switch (namespace) {
      case "type":
        return symbols.types.get(name);
      case "function":
        return symbols.functions.get(name) ?? symbols.expressionFunctions.get(name);
      case "client":
        return symbols.clients.get(name);
      case "retry-policy":
        return symbols.retryPolicies.get(name);
      case "template-string":
        return symbols.templateStrings.get(name);
    }
  }

  /** The project's sources as `compile` takes them. */
  sources(): Record<string, string> {
    const sources: Record<string, string> = {};
    for (const file of this.files.values()) sources[file.path] = file.document.getText();
    return sources;
  }
}
