/**
 * The two failures an adapter's reader throws while reading an answer; the HTTP model turns them into the
 * room's `LlmError`s (`LlmMalformedResponseError`, `LlmHttpError`).
 */
import { hasErrorMark, markError } from "../util/index.js";

/** The answer does not have the documented shape; the model turns it into `LlmMalformedResponseError`. */
export class ResponseShapeError extends Error {
  constructor(...args: ConstructorParameters<typeof Error>) {
    super(...args);
    markError(this, "ResponseShapeError");
  }

  override name = "ResponseShapeError";

  /** `instanceof` that also works across two copies of the package. */
  static isInstance(value: unknown): value is ResponseShapeError {
    return hasErrorMark(value, "ResponseShapeError");
  }
}

/** The provider reported a failure inside a stream (an `error` event); becomes `LlmHttpError`. */
export class ProviderStreamError extends Error {
  override name = "ProviderStreamError";
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`provider error event: ${body}`);
    markError(this, "ProviderStreamError");
  }

  /** `instanceof` that also works across two copies of the package. */
  static isInstance(value: unknown): value is ProviderStreamError {
    return hasErrorMark(value, "ProviderStreamError");
  }
}
