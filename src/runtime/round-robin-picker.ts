import type { Client } from "../ir/index.js";

/** Chooses a round-robin child: given the strategy client and its child count, returns an index. */
export type RoundRobinPicker = (strategy: Client, childCount: number, start: number | undefined) => number;

/**
 * A picker that rotates per strategy client, starting at its `start` option (or at `initial()`, random in
 * production, as BAML does so many processes don't all hit the first child).
 */
export function createRoundRobinPicker(initial: (childCount: number) => number): RoundRobinPicker {
  const counters = new Map<string, number>();
  return (strategy, childCount, start) => {
    const next = counters.get(strategy.name) ?? start ?? initial(childCount);
    counters.set(strategy.name, next + 1);
    return ((next % childCount) + childCount) % childCount;
  };
}
