import type { BatchClock } from "./batch-clock.js";

/** Limits for one client, over a sliding window of one minute. */
export interface RateLimit {
  /** Requests started per minute. */
  requestsPerMinute?: number | undefined;
  /** Tokens (input plus output, as the provider reports them) per minute. */
  tokensPerMinute?: number | undefined;
}

const WINDOW_MS = 60_000;

interface WindowEntry {
  at: number;
  tokens: number;
}

/**
 * A sliding-window limiter for one client. `acquire(estimate)` waits until one more request, and
 * `estimate` more tokens, fit in the last minute; `settle` replaces the estimate with the tokens the
 * provider reported; `pause(ms)` honours a `retry-after`: nothing starts before it ends.
 */
export class ClientRateLimiter {
  readonly #limit: RateLimit;
  readonly #clock: BatchClock;
  readonly #window: WindowEntry[] = [];
  #pausedUntil = 0;
  /** Serialises waiters, so that requests start in the order they asked. */
  #queue: Promise<void> = Promise.resolve();

  constructor(limit: RateLimit, clock: BatchClock) {
    for (const [name, value] of Object.entries(limit)) {
      if (value !== undefined && !(Number.isFinite(value) && value > 0))
        throw new RangeError(`rate limit ${name} must be a positive number, got ${String(value)}`);
    }
    this.#limit = limit;
    this.#clock = clock;
  }

  /** Waits for room, then records a request with `estimate` tokens; returns the entry to settle later. */
  acquire(estimate: number, signal?: AbortSignal): Promise<WindowEntry> {
    const turn = this.#queue.then(() => this.#waitForRoom(estimate, signal));
    this.#queue = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  }

  /** Replaces a request's estimated tokens with the reported count. */
  settle(entry: WindowEntry, tokens: number | null): void {
    if (tokens !== null) entry.tokens = tokens;
  }

  /** Starts nothing for `ms` from now (a `retry-after`), on top of any pause already running. */
  pause(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#clock.now() + ms);
  }

  async #waitForRoom(estimate: number, signal: AbortSignal | undefined): Promise<WindowEntry> {
    for (;;) {
      signal?.throwIfAborted();
      const now = this.#clock.now();
      while (this.#window.length > 0 && (this.#window[0] as WindowEntry).at <= now - WINDOW_MS)
        this.#window.shift();
      const wait = this.#waitMs(now, estimate);
      if (wait <= 0) {
        const entry = { at: now, tokens: estimate };
        this.#window.push(entry);
        return entry;
      }
      await this.#clock.sleep(wait, signal);
    }
  }

  /** How long until a request of `estimate` tokens fits; 0 when it fits now. */
  #waitMs(now: number, estimate: number): number {
    let wait = this.#pausedUntil - now;
    const { requestsPerMinute, tokensPerMinute } = this.#limit;
    if (requestsPerMinute !== undefined && this.#window.length >= requestsPerMinute) {
      const oldest = this.#window[this.#window.length - requestsPerMinute] as WindowEntry;
      wait = Math.max(wait, oldest.at + WINDOW_MS - now);
    }
    if (tokensPerMinute !== undefined && this.#window.length > 0) {
      // Free the oldest entries until the estimate fits; a request bigger than the whole budget runs alone.
      let used = this.#window.reduce((sum, entry) => sum + entry.tokens, 0);
      const budget = Math.max(tokensPerMinute - Math.min(estimate, tokensPerMinute), 0);
      for (const entry of this.#window) {
        if (used <= budget) break;
        used -= entry.tokens;
        wait = Math.max(wait, entry.at + WINDOW_MS - now);
      }
    }
    return wait;
  }
}
