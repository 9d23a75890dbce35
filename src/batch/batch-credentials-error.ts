import { BamlAllClientsFailedError, BamlClientHttpError } from "../runtime/index.js";
import { hasErrorMark, markError } from "../util/index.js";

/**
 * The provider refused a row's credentials (HTTP 401 or 403 on every attempt). Every other row would be
 * refused the same way, so the batch starts no new row and never sends the refused one again in this run;
 * rows refused stay without a result, so a rerun after the key is fixed runs them.
 */
export class BatchCredentialsError extends Error {
  constructor(
    readonly rowId: string,
    readonly status: number,
    override readonly cause: unknown,
  ) {
    super(
      `row ${JSON.stringify(rowId)} was refused with HTTP ${status} (${status === 401 ? "the API key is missing or wrong" : "the key may not use this model or endpoint"}): ${cause instanceof Error ? cause.message : String(cause)}. Every other row would be refused too, so no new row was started and no refused row was sent again. Fix the client's API key (or its permissions) and rerun: rows already done are not asked again.`,
    );
    this.name = "BatchCredentialsError";
    markError(this, "BatchCredentialsError");
  }

  /** `instanceof` that also works across two copies of the package. */
  static isInstance(value: unknown): value is BatchCredentialsError {
    return hasErrorMark(value, "BatchCredentialsError");
  }
}

/**
 * The status (401 or 403) when every attempt of a row failed because the provider refused its
 * credentials, `undefined` otherwise. Retrying such a row, or starting more rows, only repeats the refusal.
 */
export function refusedCredentials(error: unknown): number | undefined {
  const attempts = BamlAllClientsFailedError.isInstance(error)
    ? error.attempts.map((attempt) => attempt.error)
    : [error];
  let status: number | undefined;
  for (const attempt of attempts) {
    if (!BamlClientHttpError.isInstance(attempt)) return undefined;
    if (attempt.statusCode !== 401 && attempt.statusCode !== 403) return undefined;
    status = attempt.statusCode;
  }
  return status;
}
