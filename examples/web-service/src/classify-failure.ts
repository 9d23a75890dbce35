import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { BamlError, BamlInvalidArgumentError, BamlValidationError } from "../../resume/baml_client/index.js";

/** What a failed request answers, and what only the log sees. */
export interface Failure {
  status: ContentfulStatusCode;
  code: string;
  /** Sent to the caller: what went wrong, in words they can act on. */
  reason: string;
  /** Extra log fields, never sent to the caller. */
  logDetail?: Record<string, unknown>;
}

/**
 * Maps an error to a status a caller can act on: the request's own `HTTPException` (400, 413) as is, 422
 * when the model answered but its answer could not be parsed (the raw answer is for the log only), 400 for
 * arguments the function refused, 502 with the reason for any other model failure (HTTP errors, timeouts,
 * every fallback client failed), and 500 without details for anything unexpected.
 */
export function classifyFailure(error: unknown): Failure {
  if (error instanceof HTTPException)
    return { status: error.status, code: "BAD_REQUEST", reason: error.message };
  const validation: BamlValidationError | undefined = BamlValidationError.isInstance(error)
    ? error
    : undefined;
  if (validation) {
    // The parser's message quotes the answer; callers get the gist, the log gets the raw text.
    return {
      status: 422,
      code: validation.code,
      reason: "The model answered, but its answer could not be parsed into a candidate evaluation.",
      logDetail: { parse_error: validation.message, raw_output: validation.rawOutput.slice(0, 2000) },
    };
  }
  const failure: BamlError | undefined = BamlError.isInstance(error) ? error : undefined;
  if (failure) {
    const status = BamlInvalidArgumentError.isInstance(failure) ? 400 : 502;
    return { status, code: failure.code, reason: failure.message };
  }
  return {
    status: 500,
    code: "INTERNAL",
    reason: "Unexpected error; see the server log.",
    logDetail: { error: error instanceof Error ? (error.stack ?? error.message) : String(error) },
  };
}
