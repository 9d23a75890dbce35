import type { SourceLocation } from "../ir/index.js";
import type { OutputFormatErrorCode } from "../output-schema/index.js";
import { hasErrorMark, markError } from "../util/index.js";

export type TemplateErrorCode =
  | "syntax_error"
  | "unknown_variable"
  | "unknown_function"
  | "invalid_call"
  | "type_error"
  | "unknown_filter"
  /** A string the template builds or prints is longer than it may be (docs/decisions/0023). */
  | "limit_exceeded"
  /** A `regex_match` pattern the linear-time matcher cannot run (a backreference, lookaround…). */
  | "invalid_pattern"
  | OutputFormatErrorCode;

/**
 * A prompt template that cannot be rendered. `location` points into the `.baml` file when the IR says where
 * the prompt starts; `templateLine`/`templateColumn` are always relative to the template text itself.
 */
export class TemplateError extends Error {
  override readonly name = "TemplateError";
  // biome-ignore lint/complexity/useMaxParams: a public error class; its positional fields are its API.
  constructor(
    readonly code: TemplateErrorCode,
    /** What went wrong, without the location (the full `message` includes it). */
    readonly detail: string,
    readonly templateLine: number,
    readonly templateColumn: number,
    readonly location?: SourceLocation,
    readonly functionName?: string,
  ) {
    const where = location
      ? `${location.file}:${location.line}:${location.column}`
      : `template line ${templateLine}, column ${templateColumn}`;
    const subject = functionName ? `in the prompt of ${functionName}: ` : "";
    super(`${where}: ${subject}${detail}`);
    markError(this, "TemplateError");
  }

  static isInstance(value: unknown): value is TemplateError {
    return hasErrorMark(value, "TemplateError");
  }
}
