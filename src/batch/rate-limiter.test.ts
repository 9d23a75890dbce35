import { describe, expect, it } from "vitest";
import type { BatchClock } from "./batch-clock.js";
import { ClientRateLimiter } from "./rate-limiter.js";

/** Virtual time: `sleep` moves the clock forward at once, so a test counts waited time, not real time. */
function virtualClock(): BatchClock & { slept: number[] } {
  let now = 0;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
}

describe("ClientRateLimiter", () => {
  it("starts at most requestsPerMinute requests in any minute", async () => {
    const clock = virtualClock();
    const limiter = new ClientRateLimiter({ requestsPerMinute: 4 }, clock);
    const startedAt: number[] = [];
    for (let index = 0; index < 10; index += 1) {
      await limiter.acquire(1);
      startedAt.push(clock.now());
    }
    expect(startedAt).toEqual([0, 0, 0, 0, 60_000, 60_000, 60_000, 60_000, 120_000, 120_000]);
  });

  it("keeps reported tokens within tokensPerMinute, replacing estimates when settled", async () => {
    const clock = virtualClock();
    const limiter = new ClientRateLimiter({ tokensPerMinute: 1000 }, clock);
    const first = await limiter.acquire(100);
    limiter.settle(first, 900); // the provider reported more than estimated
    await limiter.acquire(100); // 900 + 100 fits
    expect(clock.now()).toBe(0);
    await limiter.acquire(100); // 1100 would not: waits for the first to leave the window
    expect(clock.now()).toBe(60_000);
  });

  it("lets a request larger than the whole budget run alone rather than wait forever", async () => {
    const clock = virtualClock();
    const limiter = new ClientRateLimiter({ tokensPerMinute: 50 }, clock);
    await limiter.acquire(10);
    await limiter.acquire(500);
    expect(clock.now()).toBe(60_000);
  });

  it("honours a retry-after pause before the next start", async () => {
    const clock = virtualClock();
    const limiter = new ClientRateLimiter({}, clock);
    await limiter.acquire(1);
    limiter.pause(2500);
    await limiter.acquire(1);
    expect(clock.now()).toBe(2500);
  });

  it("refuses limits that are not positive numbers", () => {
    expect(() => new ClientRateLimiter({ requestsPerMinute: 0 }, virtualClock())).toThrow(
      /requestsPerMinute must be a positive number, got 0/,
    );
  });

  it("stops waiting when the signal aborts", async () => {
    const clock: BatchClock = {
      now: () => 0,
      sleep: (_ms, signal) =>
        new Promise((_resolve, reject) => signal?.addEventListener("abort", () => reject(signal.reason))),
    };
    const limiter = new ClientRateLimiter({ requestsPerMinute: 1 }, clock);
    await limiter.acquire(1);
    const controller = new AbortController();
    const waiting = limiter.acquire(1, controller.signal);
    controller.abort(new Error("stop"));
    await expect(waiting).rejects.toThrow("stop");
  });
});
