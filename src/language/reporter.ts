import type { DiagnosticArgs, DiagnosticName, DiagnosticNote, Span } from "../diagnostics/index.js";

/** Reports a diagnostic in the file being checked; checks that look at one file take one of these. */
export type Reporter = <Name extends DiagnosticName>(
  name: Name,
  args: DiagnosticArgs<Name>,
  span: Span,
  notes?: DiagnosticNote[],
) => void;
