import {
  BamlAbortError,
  BamlAllClientsFailedError,
  BamlClientFinishReasonError,
  BamlClientHttpError,
  BamlValidationError,
} from "../runtime/index.js";

/** One row of a batch: an id that names it in the results, and the function's arguments by name. */
export interface BatchRow<Args = Record<string, unknown>> {
  id: string;
  args: Args;
}

/** How a row failed: the error's class and message, and the model's answer when there was one. */
export interface BatchRowError {
  /** The error class (`BamlValidationError`, `BamlClientHttpError`, `BamlTimeoutError`, …). */
  type: string;
  message: string;
  /** The HTTP status, for an HTTP error. */
  status?: number;
}

/**
 * A row's outcome. `raw` is the model's answer (`null` when no answer arrived): kept for successes, so
 * that a value can be traced back to its text, and for failures, so that nothing is lost.
 */
export type BatchResult<T = unknown> =
  | { id: string; ok: true; value: T; raw: string | null }
  | { id: string; ok: false; error: BatchRowError; raw: string | null };

/** The model's answer carried by an error, when it has one. */
export function rawAnswerOf(error: unknown): string | null {
  if (BamlValidationError.isInstance(error) || BamlClientFinishReasonError.isInstance(error))
    return error.rawOutput;
  return null;
}

/** A row's error as plain data, for the results file. */
export function describeRowError(error: unknown): BatchRowError {
  if (error instanceof Error) {
    const status = BamlClientHttpError.isInstance(error) ? error.statusCode : undefined;
    return { type: error.name, message: error.message, ...(status !== undefined ? { status } : {}) };
  }
  return { type: "Error", message: String(error) };
}

/**
 * The `retry-after` of a rate-limited row, or `undefined` when the row did not fail on a 429 (directly,
 * or as the last attempt of a retry or fallback chain). `null` means a 429 without a `retry-after`.
 */
export function rateLimitOf(error: unknown): number | null | undefined {
  let cause: unknown = error;
  if (BamlAllClientsFailedError.isInstance(cause)) cause = cause.attempts.at(-1)?.error;
  if (BamlClientHttpError.isInstance(cause) && cause.statusCode === 429) return cause.retryAfterMs ?? null;
  return undefined;
}

/** Whether an error is the caller's own abort (not a row failure). */
export function isAbort(error: unknown): boolean {
  return BamlAbortError.isInstance(error);
}
