import { type StreamPush, samePartial } from "../sap/index.js";
import { describeStreamError, ndjsonLine, type StreamFormat, streamEvents } from "./stream-events.js";

/** What a streaming call's producer is handed. */
export interface StreamSink {
  /**
   * New text arrived: `read` is a stream parser's read (sap's `StreamPush`: it builds the partial now and
   * says whether it changed since its own previous read). Called once per chunk and cheap: the stream
   * calls `read` only when a consumer asks for a partial, so chunks that nobody reads build no partial.
   * "Is it new?" is the parser's `changed` whenever the read before came from the same `read` and gave the
   * partial the stream holds; only the first read of another `read` (another attempt's parser, the tool
   * calls after text) is compared by value with the partial held. A `null` value (nothing usable written
   * yet) is never handed out.
   */
  offer(read: () => StreamPush): void;
  /**
   * A partial value of your own, already built: handed out unless it is `undefined` or equals (by value)
   * the partial handed out before.
   */
  emit(partial: unknown): void;
  /** Aborted when the consumer stops reading (`break`, a cancelled web stream): end the model call. */
  readonly signal: AbortSignal;
}

/** Runs the call: sends partial values to the sink and returns the final value when the call ends. */
export type StreamProducer<Final> = (sink: StreamSink) => Promise<Final>;

/**
 * By default a partial is built whenever the consumer asks for one, as long as building partials has taken
 * at most this share of the stream's time so far (after a first allowance): past it, the next build waits
 * until the share is met again. A partial of a 20,000-entry map costs milliseconds, and one per chunk would
 * block the event loop for minutes; an ordinary answer never spends the allowance and is never held back.
 */
export const PARTIAL_BUILD_SHARE = 0.2;

/** Milliseconds of partial building a stream may spend before the share applies. */
export const PARTIAL_BUILD_ALLOWANCE_MS = 50;

/** How partials are paced; the clock and the timer are injected so tests never wait. */
export interface StreamPacing {
  /**
   * Hand each consumer at most one partial per this many milliseconds; `0` hands one whenever it asks.
   * Default (absent): whenever it asks, while building partials has taken at most `PARTIAL_BUILD_SHARE` of
   * the stream's time so far, beyond `PARTIAL_BUILD_ALLOWANCE_MS`.
   */
  partialIntervalMs?: number | undefined;
  /** Milliseconds now (default `Date.now`). */
  clock?: () => number;
  /** A fine clock for what building partials costs, in milliseconds (default `performance.now`). */
  measure?: () => number;
  /** Waits `ms` milliseconds, or until `signal` aborts (then it may reject; the rejection is ignored). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** The options of `toStreamable`. */
export interface StreamableOptions {
  /** `partial` (default): `{"partial":…}` lines; `delta`: `{"delta":[…]}` lines, only what changed. */
  format?: StreamFormat;
}

/**
 * A streaming call (BAML's `BamlStream`): `for await (const partial of stream)` yields typed partial values
 * as the answer arrives, `getFinalResponse()` resolves the value parsed in final mode, `onPartial(callback)`
 * hands partials to a callback, and `toStreamable()` gives a web `ReadableStream` of NDJSON lines for HTTP
 * responses. The call starts on first use (iteration, `getFinalResponse`, `onPartial` or `toStreamable`),
 * once.
 *
 * Delivery is paced by the consumer: the iterator hands out the latest partial when it is asked for one,
 * never a backlog, and each partial is built only then (chunks in between only advance the parser). A
 * consumer that reads slowly skips partials, never the last one, the final value or an error; the stream
 * holds one partial whatever the pace. Each partial differs from the one before. Stopping early (`break`,
 * `return`, a cancelled `toStreamable()`) aborts the model call.
 */
export class SaplingStream<Partial, Final> implements AsyncIterable<Partial> {
  readonly #produce: StreamProducer<Final>;
  /** The fixed interval, or `undefined` for the default pacing by the cost of the last build. */
  readonly #intervalMs: number | undefined;
  readonly #clock: () => number;
  readonly #measure: () => number;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly #controller = new AbortController();
  #final: Promise<Final> | undefined;
  /** Settles (never rejects) when the call has ended. */
  #settled: Promise<void> | undefined;
  /** Builds the latest partial (a parser's read, or a value emitted); dropped once the call ended. */
  #next: { read: () => StreamPush } | { emitted: unknown } | undefined;
  /**
   * The parser's read the partial held came from, while that read's next push is relative to it (its
   * `changed` then decides); `undefined` when the next push must be compared.
   */
  #source: (() => StreamPush) | undefined;
  #dirty = false;
  /** The latest partial built, and how many distinct partials were built so far (0: none yet). */
  #value: unknown;
  #version = 0;
  #ended = false;
  /** A failure of building a partial (a parser bug): it ends the call and is what the stream reports. */
  #failure: { error: unknown } | undefined;
  #reject: ((error: unknown) => void) | undefined;
  /** Iterators still reading; the call is aborted when the last one stops early. */
  #readers = 0;
  #wake: Promise<void> | undefined;
  /** When the call started, and what building partials has cost since (on `measure`'s clock). */
  #startedAt = 0;
  #buildCost = 0;
  #wakeUp: (() => void) | undefined;

  constructor(produce: StreamProducer<Final>, pacing: StreamPacing = {}) {
    this.#produce = produce;
    this.#intervalMs =
      pacing.partialIntervalMs === undefined ? undefined : Math.max(0, pacing.partialIntervalMs);
    this.#clock = pacing.clock ?? Date.now;
    this.#measure = pacing.measure ?? (() => performance.now());
    this.#sleep = pacing.sleep ?? timerSleep;
  }

  /** Resolves with the final value (parsed in final mode), or rejects with the call's error. */
  getFinalResponse(): Promise<Final> {
    this.#start();
    return this.#final as Promise<Final>;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Partial> {
    const final = this.getFinalResponse();
    // The iterator reports failure by throwing; keep the rejection from also surfacing as unhandled.
    final.catch(() => {});
    this.#readers++;
    let seen = 0;
    let notBefore = Number.NEGATIVE_INFINITY;
    let waited = false;
    let completed = false;
    try {
      while (this.#failure === undefined) {
        const ended = this.#ended;
        // Pacing: wait out the interval (or the last build's cost) before building, since a partial built
        // now would be stale then; the end of the call cuts the wait short, so the last partial is never
        // held back.
        if (this.#dirty && !ended && !waited) {
          const wait = Math.max(notBefore - this.#clock(), this.#overBudgetMs());
          if (wait > 0) {
            await this.#pause(wait);
            // Waited: build at once (re-reading the clock could wait again under a coarse clock).
            waited = true;
            continue;
          }
        }
        waited = false;
        this.#refresh();
        if (this.#version > seen) {
          seen = this.#version;
          if (this.#intervalMs !== undefined && this.#intervalMs > 0)
            notBefore = this.#clock() + this.#intervalMs;
          yield this.#value as Partial;
          continue;
        }
        if (ended) break;
        await this.#changed();
      }
      completed = true;
      if (this.#failure) throw this.#failure.error;
      await final;
    } finally {
      this.#readers--;
      if (!completed && !this.#ended && this.#readers === 0) {
        this.#controller.abort(new Error("the stream's consumer stopped reading"));
      }
    }
  }

  /**
   * Calls `callback` with each partial, at the callback's pace: while the promise it returned is pending
   * it is not called again, and then it gets the latest partial (never a backlog). Resolves with the final
   * value; rejects with the call's error, or with the callback's (which aborts the call).
   */
  async onPartial(callback: (partial: Partial) => unknown): Promise<Final> {
    for await (const partial of this) await callback(partial);
    return this.getFinalResponse();
  }

  /**
   * NDJSON for a web response: `{"partial":…}` per partial (or, with `format: "delta"`, `{"delta":[…]}`:
   * only what changed, see docs/runtime.md), then `{"final":…}` (`{"delta":[…]}` in the delta format,
   * applied to the last partial), or `{"error":{…}}` when the call fails (name, code and message; never a
   * stack). Pulled: a line is built when the reader wants one, so a slow reader gets the latest partial
   * instead of a backlog. Cancelling it aborts the call.
   */
  toStreamable(options: StreamableOptions = {}): ReadableStream<Uint8Array> {
    const encoder = new TextEncoder();
    const events = streamEvents(this, { format: options.format ?? "partial" });
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        try {
          const step = await events.next();
          if (!step.done) {
            controller.enqueue(encoder.encode(ndjsonLine(step.value)));
            return;
          }
        } catch (error) {
          controller.enqueue(encoder.encode(`${JSON.stringify({ error: describeStreamError(error) })}\n`));
        }
        controller.close();
      },
      cancel: async () => {
        await events.return(undefined);
      },
    });
  }

  #start(): void {
    if (this.#final) return;
    this.#startedAt = this.#measure();
    const next = (source: { read: () => StreamPush } | { emitted: unknown }) => {
      this.#next = source;
      this.#dirty = true;
      this.#notify();
    };
    const sink: StreamSink = {
      offer: (read) => next({ read }),
      emit: (partial) => next({ emitted: partial }),
      signal: this.#controller.signal,
    };
    // A partial that cannot be built fails the stream at once, without waiting for the aborted call.
    const failed = new Promise<never>((_, reject) => {
      this.#reject = reject;
    });
    const produced = this.#produce(sink);
    produced.catch(() => {});
    this.#final = Promise.race([produced, failed]).finally(() => {
      this.#ended = true;
      // The last partial, built now, lets the parser go: a consumer that comes late holds one partial,
      // not the parser's state of the whole answer.
      this.#refresh();
      this.#source = undefined;
      this.#notify();
    });
    this.#settled = this.#final.then(
      () => {},
      () => {},
    );
  }

  /**
   * Default pacing: how long to wait before the next build for building partials to be back within its
   * share of the stream's time (0: build now). A fixed `partialIntervalMs` replaces this rule.
   */
  #overBudgetMs(): number {
    if (this.#intervalMs !== undefined) return 0;
    const over =
      this.#buildCost -
      PARTIAL_BUILD_ALLOWANCE_MS -
      PARTIAL_BUILD_SHARE * (this.#measure() - this.#startedAt);
    return over > 0 ? over / PARTIAL_BUILD_SHARE : 0;
  }

  /** Builds the latest partial if new text arrived since the last build. */
  #refresh(): void {
    const next = this.#next;
    if (!this.#dirty || next === undefined) return;
    this.#dirty = false;
    // Once the call has ended no text can arrive: the parser behind `read` is no longer needed.
    if (this.#ended) this.#next = undefined;
    if ("emitted" in next) {
      this.#source = undefined;
      const partial = next.emitted;
      if (partial !== undefined && !this.#holds(partial)) this.#hold(partial);
      return;
    }
    let push: StreamPush;
    const started = this.#measure();
    try {
      push = next.read();
    } catch (error) {
      // Building a partial failed (a bug of the parser): the stream fails with it, and the call stops.
      this.#failure = { error };
      this.#reject?.(error);
      this.#controller.abort(error);
      return;
    }
    this.#buildCost += this.#measure() - started;
    if (push.value === null) {
      // Nothing usable written (yet, or any more): no partial, and the parser's next push is relative
      // to this `null`, not to the partial held.
      this.#source = undefined;
      return;
    }
    const continues = next.read === this.#source;
    this.#source = next.read;
    if (continues ? push.changed : !this.#holds(push.value)) this.#hold(push.value);
  }

  /** Whether `partial` equals (by value) the partial held: for values whose parser did not say. */
  #holds(partial: unknown): boolean {
    return this.#version > 0 && samePartial(partial, this.#value);
  }

  #hold(partial: unknown): void {
    this.#value = partial;
    this.#version++;
  }

  /** Resolves at the next offer or at the end of the call. */
  #changed(): Promise<void> {
    this.#wake ??= new Promise<void>((resolve) => {
      this.#wakeUp = resolve;
    });
    return this.#wake;
  }

  #notify(): void {
    const wakeUp = this.#wakeUp;
    if (wakeUp === undefined) return;
    this.#wake = undefined;
    this.#wakeUp = undefined;
    wakeUp();
  }

  /** Waits `ms`, or less when the call ends first. */
  async #pause(ms: number): Promise<void> {
    const timer = new AbortController();
    const slept = this.#sleep(ms, timer.signal).catch(() => {});
    await Promise.race([slept, this.#settled]);
    timer.abort();
  }
}

const timerSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
