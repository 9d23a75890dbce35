export { createDiagnostic, type DiagnosticLocation } from "./create-diagnostic.js";
export type { Diagnostic, DiagnosticNote, Severity, Span } from "./diagnostic.js";
export { hasErrors, sortDiagnostics } from "./diagnostic.js";
export { type DiagnosticArgs, type DiagnosticName, diagnosticCodes } from "./diagnostic-codes.js";
export { renderCodeFrame } from "./render-code-frame.js";
export { renderDiagnostic, renderDiagnostics, summarizeDiagnostics } from "./render-diagnostics.js";
export { editDistance, suggestName } from "./suggest-name.js";
