import { BamlTimeoutError } from "./errors.js";

/**
 * One call's cancellation: the caller's `AbortSignal` joined with a strategy's `total_timeout_ms`. When the
 * time runs out, the joined signal aborts with a `BamlTimeoutError`, which the call reports instead of the
 * abort it causes in whatever attempt or wait was running.
 */
export class CallDeadline {
  readonly #controller = new AbortController();
  readonly #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #onCallerAbort: () => void;
  #timedOut: BamlTimeoutError | undefined;

  constructor(
    private readonly callerSignal: AbortSignal | undefined,
    timeoutMs: number | undefined,
    clientName: string,
    provider: string,
  ) {
    this.#onCallerAbort = () => this.#controller.abort(callerSignal?.reason);
    if (callerSignal?.aborted) this.#onCallerAbort();
    else callerSignal?.addEventListener("abort", this.#onCallerAbort, { once: true });
    if (timeoutMs !== undefined) {
      this.#timer = setTimeout(() => {
        this.#timedOut = new BamlTimeoutError(
          `Client "${clientName}" (${provider}) exceeded http { total_timeout_ms ${timeoutMs} } over all its attempts. ` +
            "Raise total_timeout_ms, or lower the retries and per-client timeouts.",
          clientName,
          provider,
          timeoutMs,
        );
        this.#controller.abort(this.#timedOut);
      }, timeoutMs);
    }
  }

  /** The signal attempts and waits use; `undefined` when there is nothing to cancel on. */
  get signal(): AbortSignal | undefined {
    return this.callerSignal || this.#timer !== undefined ? this.#controller.signal : undefined;
  }

  /** The error to report: the timeout when it fired, otherwise `error` unchanged. */
  translate(error: unknown): unknown {
    return this.#timedOut ?? error;
  }

  dispose(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.callerSignal?.removeEventListener("abort", this.#onCallerAbort);
  }
}
