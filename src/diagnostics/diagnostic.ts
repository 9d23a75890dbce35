/** Offsets into one source text, in UTF-16 code units; `end` is exclusive. */
export interface Span {
  start: number;
  end: number;
}

export type Severity = "error" | "warning";

/** A secondary message, optionally pointing at another place (the first declaration of a duplicate). */
export interface DiagnosticNote {
  message: string;
  file?: string;
  span?: Span;
}

/**
 * One problem found in `.baml` sources, as data. Locations are offsets only: line and column are computed
 * when rendering, so diagnostics stay cheap to create and independent of how the text is displayed.
 */
export interface Diagnostic {
  /** Stable code from the registry, e.g. `E0101`. */
  code: string;
  /** Stable readable name of the code, e.g. `unknown-type`. */
  name: string;
  severity: Severity;
  /** What is wrong, in one sentence. */
  message: string;
  /** How to fix it, when there is something specific to say. */
  hint?: string;
  file: string;
  span: Span;
  notes: DiagnosticNote[];
}

/** Whether any diagnostic is an error (warnings alone do not stop compilation). */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((diagnostic) => diagnostic.severity === "error");
}

/** Sorts by file, then offset, then code, so output is deterministic whatever order checks ran in. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (left, right) =>
      (left.file < right.file ? -1 : left.file > right.file ? 1 : 0) ||
      left.span.start - right.span.start ||
      (left.code < right.code ? -1 : left.code > right.code ? 1 : 0),
  );
}
