import { hasErrorMark, markError } from "../util/index.js";

export type OutputFormatErrorCode =
  | "unknown_option"
  | "invalid_option"
  | "unsupported_output_type"
  | "unknown_hoisted_class";

/** A schema that cannot be described to the model, or a bad `output_format` option. */
export class OutputFormatError extends Error {
  override readonly name = "OutputFormatError";
  constructor(
    readonly code: OutputFormatErrorCode,
    message: string,
  ) {
    super(message);
    markError(this, "OutputFormatError");
  }

  /** Works across copies of the package (instanceof does not). */
  static isInstance(value: unknown): value is OutputFormatError {
    return hasErrorMark(value, "OutputFormatError");
  }
}
