import type { RetryPolicy } from "../ir/index.js";

/**
 * How long to wait before retry number `retry` (1 for the first retry) under `policy`: a constant delay,
 * or `delayMs × multiplier^(retry − 1)` capped at `maxDelayMs`. No jitter, as in BAML, so schedules are
 * predictable and testable.
 */
export function retryDelay(policy: RetryPolicy, retry: number): number {
  const strategy = policy.strategy;
  if (strategy.type === "constant_delay") return strategy.delayMs;
  const grown = strategy.delayMs * strategy.multiplier ** Math.max(0, retry - 1);
  return Math.min(grown, strategy.maxDelayMs);
}
