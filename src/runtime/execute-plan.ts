import {
  BamlAbortError,
  BamlAllClientsFailedError,
  BamlClientFinishReasonError,
  BamlClientHttpError,
  BamlClientOptionsError,
  BamlError,
  BamlMediaUrlError,
  BamlMissingEnvVarError,
  BamlValidationError,
  type FailedAttempt,
} from "./errors.js";
import type { PlannedAttempt } from "./plan-attempts.js";

/** Waits `ms` milliseconds; rejects when `signal` aborts. Injected so tests run without real delays. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface ExecutePlanOptions {
  sleep: Sleep;
  signal?: AbortSignal;
  /**
   * Opt-in (not BAML): treat an answer that cannot be parsed, or that ended for a disallowed finish reason,
   * as a failure of that client and move on to the next different client of the plan.
   */
  nextClientOnParseFailure?: boolean;
  /** Told about each failed attempt (for logging). */
  onFailure?: (attempt: PlannedAttempt, error: BamlError) => void;
  /** Longest wait honoured from a provider's `retry-after` before retrying the same client. */
  maxRetryAfterMs?: number;
}

/** A failure that carries the provider's `retry-after`, in milliseconds. */
export interface RetryAfterHint {
  retryAfterMs?: number;
}

/**
 * Runs the planned attempts in order until one succeeds (BAML's orchestrator). `run` returns the value or
 * throws a `BamlError`. An abort ends everything at once; a configuration failure (missing env variable,
 * invalid options, a key the provider refused with 401 or 403) skips the remaining attempts of that client,
 * since retrying cannot fix it; a parse or
 * finish-reason failure ends the call, as in BAML, unless `nextClientOnParseFailure` is on. When every
 * attempt failed, the error is the single attempt's own error, or `BamlAllClientsFailedError` listing all.
 */
export async function executePlan<T>(
  plan: readonly PlannedAttempt[],
  run: (attempt: PlannedAttempt, position: number) => Promise<T>,
  options: ExecutePlanOptions,
): Promise<T> {
  const failures: FailedAttempt[] = [];
  const skipped = new Set<string>();
  let extraWaitMs = 0;
  let previousClient: string | undefined;
  for (const [position, attempt] of plan.entries()) {
    const name = attempt.client.name;
    if (skipped.has(name)) continue;
    const retryAfter = name === previousClient ? extraWaitMs : 0;
    const wait = Math.max(attempt.delayMs, retryAfter);
    throwIfAborted(options.signal);
    if (wait > 0) await options.sleep(wait, options.signal);
    throwIfAborted(options.signal);
    try {
      return await run(attempt, position);
    } catch (caught) {
      // Anything that is not a client failure (a template error, a bug) would fail the same way on every
      // client, so it ends the call unchanged.
      if (!BamlError.isInstance(caught)) throw caught;
      const error = caught;
      // An abort ends everything; so does a media URL that failed, which would fail the same on every client.
      if (BamlAbortError.isInstance(error) || BamlMediaUrlError.isInstance(error)) throw error;
      const parseFailure =
        BamlValidationError.isInstance(error) || BamlClientFinishReasonError.isInstance(error);
      if (parseFailure && !options.nextClientOnParseFailure) throw error;
      failures.push({ clientName: name, provider: attempt.client.provider, error });
      options.onFailure?.(attempt, error);
      if (parseFailure || isConfigurationError(error) || isRefusedCredential(error)) skipped.add(name);
      previousClient = name;
      const hinted = (error as RetryAfterHint).retryAfterMs;
      extraWaitMs = typeof hinted === "number" ? Math.min(hinted, options.maxRetryAfterMs ?? 60_000) : 0;
    }
  }
  const [only] = failures;
  if (failures.length === 1 && only) throw only.error;
  throw new BamlAllClientsFailedError(failures);
}

function isConfigurationError(error: BamlError): boolean {
  return BamlMissingEnvVarError.isInstance(error) || BamlClientOptionsError.isInstance(error);
}

/**
 * A 401 or 403: the provider refused the key (or its rights), and asking again with the same key gets the
 * same answer, so the client's remaining retries are skipped (a fallback to another client still runs).
 */
function isRefusedCredential(error: BamlError): boolean {
  return BamlClientHttpError.isInstance(error) && (error.statusCode === 401 || error.statusCode === 403);
}

/** Throws `BamlAbortError` when `signal` has fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    throw new BamlAbortError("The call was aborted through its AbortSignal.", signal.reason);
  }
}

/** The default `Sleep`: a timer that is cleared when the signal aborts. */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new BamlAbortError("The call was aborted through its AbortSignal.", signal.reason));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new BamlAbortError("The call was aborted through its AbortSignal.", signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
