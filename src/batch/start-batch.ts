import type { CheckpointState } from "./batch-checkpoint.js";
import type { BatchClock } from "./batch-clock.js";
import type { BatchResult, BatchRow } from "./batch-result.js";
import type { BatchProgress } from "./run-batch.js";

/** A batch run's starting point: the results a checkpoint already holds, the rows to run, the counts. */
export interface StartedBatch<T> {
  /** In input order; a row with a recorded result (kept) has it, the others `null`. */
  results: (BatchResult<T> | null)[];
  /** Indexes of the rows to run, in input order. */
  pending: number[];
  indexById: Map<string, number>;
  /** Counts, updated by the run. */
  progress: BatchProgress;
  /** Sends the counts so far to `onProgress`. */
  report: () => void;
  /** The counts with the time since the start. */
  snapshot: () => BatchProgress;
}

/**
 * What every way of running a batch does first: refuse duplicate ids, keep each row's recorded result
 * (a failure only without `retryFailed`), and start the counts. Calls mode, provider batches and queues
 * share it, so that they agree on which rows a rerun skips.
 */
export function startBatch<T>(
  caller: string,
  rows: readonly BatchRow[],
  state: Pick<CheckpointState, "results" | "spentUsd">,
  options: {
    retryFailed?: boolean | undefined;
    maxRows?: number | undefined;
    clock: BatchClock;
    onProgress?: ((progress: BatchProgress) => void) | undefined;
  },
): StartedBatch<T> {
  const indexById = new Map<string, number>();
  rows.forEach((row, index) => {
    const earlier = indexById.get(row.id);
    if (earlier !== undefined)
      throw new Error(
        `${caller}: rows ${earlier + 1} and ${index + 1} have the same id ${JSON.stringify(row.id)}; ids must be unique`,
      );
    indexById.set(row.id, index);
  });
  const results: (BatchResult<T> | null)[] = rows.map(() => null);
  const pending: number[] = [];
  rows.forEach((row, index) => {
    const recorded = state.results.get(row.id);
    if (recorded && (recorded.ok || !options.retryFailed)) results[index] = recorded as BatchResult<T>;
    else pending.push(index);
  });
  const startedAt = options.clock.now();
  const progress: BatchProgress = {
    total: rows.length,
    skipped: rows.length - pending.length,
    pending: Math.min(pending.length, options.maxRows ?? Number.POSITIVE_INFINITY),
    succeeded: 0,
    failed: 0,
    resent: 0,
    rateLimited: 0,
    retried: 0,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    earlierCostUsd: state.spentUsd ?? 0,
    repairs: 0,
    elapsedMs: 0,
  };
  const snapshot = () => ({ ...progress, elapsedMs: options.clock.now() - startedAt });
  const report = () => options.onProgress?.(snapshot());
  report();
  return { results, pending, indexById, progress, report, snapshot };
}
