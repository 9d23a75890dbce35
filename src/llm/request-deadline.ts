/**
 * The client's `http` timeouts and the caller's `AbortSignal`, joined into one internal signal for one call.
 * `fetch` cannot see the TCP handshake, so `connect` runs until the response headers arrive; `request` and
 * `total` bound the whole call (body included); `time_to_first_token` runs until the first text delta of a
 * stream; `idle` is the longest allowed gap between two chunks of a stream body.
 */

import {
  LlmAbortError,
  LlmConnectionError,
  LlmTimeoutError,
  type TimeoutKind,
} from "../provider-helpers/index.js";
import { describeNetworkError, raceAbort } from "../util/index.js";
import type { HttpTimeouts } from "./client-options.js";
import { LlmError, type LlmErrorContext } from "./llm-error.js";

export class RequestDeadline {
  private readonly controller = new AbortController();
  private readonly timers = new Map<TimeoutKind, ReturnType<typeof setTimeout>>();
  private readonly onCallerAbort: () => void;
  private readonly abortListeners: (() => void)[] = [];
  /** The server's headers arrived: a connection failure from now on interrupts an answer. */
  private answered = false;

  constructor(
    private readonly timeouts: HttpTimeouts,
    private readonly context: LlmErrorContext,
    private readonly callerSignal: AbortSignal | undefined,
    private readonly streaming: boolean,
  ) {
    this.onCallerAbort = () => this.controller.abort(new LlmAbortError(callerSignal?.reason, context));
    if (callerSignal?.aborted) this.onCallerAbort();
    else callerSignal?.addEventListener("abort", this.onCallerAbort, { once: true });
    this.arm("connect", timeouts.connectTimeoutMs);
    this.arm("request", timeouts.requestTimeoutMs);
    this.arm("total", timeouts.totalTimeoutMs);
    if (streaming) this.arm("time_to_first_token", timeouts.timeToFirstTokenTimeoutMs);
  }

  /** Aborts on a timeout or the caller's abort; pass it to `fetch`. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  headersReceived(): void {
    this.answered = true;
    this.clear("connect");
    if (this.streaming) this.arm("idle", this.timeouts.idleTimeoutMs);
  }

  chunkReceived(): void {
    if (this.streaming && this.timeouts.idleTimeoutMs !== undefined)
      this.arm("idle", this.timeouts.idleTimeoutMs);
  }

  firstToken(): void {
    this.clear("time_to_first_token");
  }

  /** Runs `listener` when the call is aborted (at once if it already is); forgotten on `dispose`. */
  onAbort(listener: () => void): void {
    if (this.controller.signal.aborted) listener();
    else {
      this.controller.signal.addEventListener("abort", listener, { once: true });
      this.abortListeners.push(listener);
    }
  }

  /** Aborts the fetch because the consumer stopped reading (a no-op when already aborted). */
  stop(): void {
    if (!this.controller.signal.aborted) {
      this.controller.abort(new LlmAbortError("the consumer stopped reading the stream", this.context));
    }
  }

  /** Stops every timer and forgets the caller's signal; call when the call ends, however it ends. */
  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.callerSignal?.removeEventListener("abort", this.onCallerAbort);
    for (const listener of this.abortListeners) this.controller.signal.removeEventListener("abort", listener);
    this.abortListeners.length = 0;
  }

  /** `promise`, or a rejection as soon as the call is aborted (some bodies ignore the fetch signal). */
  race<T>(promise: Promise<T>): Promise<T> {
    return raceAbort(promise, this.controller.signal);
  }

  /** Any failure during the call, as a typed `LlmError` (the abort reason wins over the symptom it caused). */
  translate(error: unknown): LlmError {
    const reason: unknown = this.controller.signal.aborted ? this.controller.signal.reason : undefined;
    if (LlmError.isInstance(reason)) return reason;
    if (LlmError.isInstance(error)) return error;
    return new LlmConnectionError(
      describeNetworkError(error),
      { ...this.context, cause: error },
      { afterResponse: this.answered },
    );
  }

  private arm(kind: TimeoutKind, milliseconds: number | undefined): void {
    if (milliseconds === undefined) return;
    this.clear(kind);
    this.timers.set(
      kind,
      setTimeout(
        () => this.controller.abort(new LlmTimeoutError(kind, milliseconds, this.context)),
        milliseconds,
      ),
    );
  }

  private clear(kind: TimeoutKind): void {
    const timer = this.timers.get(kind);
    if (timer !== undefined) clearTimeout(timer);
    this.timers.delete(kind);
  }
}
