import { hasErrorMark, markError } from "../../util/index.js";
import type { TemplateErrorCode } from "../errors.js";

/** An error inside the template engine, located by an offset into the template text. */
export class JinjaError extends Error {
  override readonly name = "JinjaError";
  constructor(
    readonly code: TemplateErrorCode,
    message: string,
    /** Offset into the template the error belongs to; filled in by the innermost node that knows it. */
    public offset: number | undefined,
    /** The template (macro) the offset belongs to, when not the prompt itself. */
    public templateName?: string,
  ) {
    super(message);
    markError(this, "JinjaError");
  }

  /** `instanceof` that also works across two copies of the package. */
  static isInstance(value: unknown): value is JinjaError {
    return hasErrorMark(value, "JinjaError");
  }
}
