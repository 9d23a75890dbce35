import type { Diagnostic, DiagnosticNote, Span } from "./diagnostic.js";
import { type DiagnosticArgs, type DiagnosticName, diagnosticCodes } from "./diagnostic-codes.js";

/** Where a diagnostic points. */
export interface DiagnosticLocation {
  file: string;
  span: Span;
}

/**
 * Build a diagnostic from a registry entry: the code, severity and wording come from the registry, the
 * arguments and location from the check that found the problem.
 */
export function createDiagnostic<Name extends DiagnosticName>(
  name: Name,
  args: DiagnosticArgs<Name>,
  location: DiagnosticLocation,
  notes: DiagnosticNote[] = [],
): Diagnostic {
  // The registry is a heterogeneous table; each entry's templates accept exactly its own argument type.
  const definition = diagnosticCodes[name] as {
    code: string;
    severity: Diagnostic["severity"];
    message: (args: unknown) => string;
    hint?: (args: unknown) => string | undefined;
  };
  const hint = definition.hint?.(args);
  return {
    code: definition.code,
    name,
    severity: definition.severity,
    message: definition.message(args),
    ...(hint === undefined ? {} : { hint }),
    file: location.file,
    span: { start: location.span.start, end: location.span.end },
    notes,
  };
}
