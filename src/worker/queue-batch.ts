import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import {
  type BatchCheckpoint,
  type BatchProgress,
  type BatchReport,
  type BatchResult,
  type BatchRow,
  memoryCheckpoint,
  startBatch,
  systemClock,
} from "../batch/index.js";
import { raceAbort } from "../util/index.js";
import { queueKeys, type RowJob, rowJobId } from "./queue-keys.js";

export interface QueueBatchOptions {
  queue: string;
  redis: Redis;
  /** Names this batch in Redis (results, counts); the same name resumes it (default: the function's). */
  batch?: string | undefined;
  /**
   * The coordinator's own record of the results (`fileCheckpoint` on the command line): each result is
   * written to it as it arrives, so a rerun never pays again for a row answered before Redis lost it.
   */
  checkpoint?: BatchCheckpoint | undefined;
  /** Enqueue again the rows whose stored result is a failure. */
  retryFailed?: boolean | undefined;
  /** Attempts per row for failures in transit (429, 5xx, resets), with exponential backoff (default 5). */
  attempts?: number | undefined;
  /** Milliseconds between checks for new results (default 500). */
  pollIntervalMs?: number | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: BatchProgress) => void) | undefined;
  /** Told of what the batch does on its own: rows enqueued again after Redis lost the batch. */
  onNotice?: ((message: string) => void) | undefined;
}

/**
 * Puts the rows that have no result yet on a BullMQ queue for `sapling worker`s to run, then waits until
 * every row has a result in Redis and returns them in input order. Results go to `checkpoint` as they
 * arrive; a rerun skips rows with a result in Redis or in the checkpoint, and a row still waiting in the
 * queue is not added twice. A Redis that loses the batch (restarted empty) is noticed at the next poll
 * and the rows without a result are enqueued again. Every Redis command gives way to `signal`.
 */
export async function queueBatch<T = unknown>(
  functionName: string,
  rows: readonly BatchRow[],
  options: QueueBatchOptions,
): Promise<BatchReport<T>> {
  const batch = options.batch ?? functionName;
  const keys = queueKeys(options.queue, batch);
  const redis = options.redis;
  const signal = options.signal;
  const checkpoint = options.checkpoint ?? memoryCheckpoint();
  const state = await checkpoint.load();
  const stored = await untilAborted(redis.hgetall(keys.results), signal);
  const already = new Map(state.results);
  // Results Redis holds that the checkpoint lacks (a worker wrote them while no coordinator waited).
  for (const [id, text] of Object.entries(stored)) {
    if (already.has(id)) continue;
    const result = JSON.parse(text) as BatchResult;
    already.set(id, result);
    await checkpoint.finished(result);
  }
  // The same start as a batch in calls mode: the stored results are the checkpoint.
  const { results, pending, progress, report, snapshot } = startBatch<T>(
    "queueBatch",
    rows,
    { results: already },
    { retryFailed: options.retryFailed, clock: systemClock, onProgress: options.onProgress },
  );
  // Workers do not report what their rows cost, their tokens or their repairs: unknown, never 0.
  progress.costUsd = null;
  progress.inputTokens = null;
  progress.outputTokens = null;
  progress.repairs = null;
  const retryIds = pending
    .map((index) => (rows[index] as BatchRow).id)
    .filter((id) => Object.hasOwn(stored, id));
  if (options.retryFailed && retryIds.length > 0)
    await untilAborted(redis.hdel(keys.results, ...retryIds), signal);

  const enqueue = async (indexes: readonly number[]) => {
    // BullMQ leaves a connection it was given open on close: this one is ours to close.
    const connection = redis.duplicate({ maxRetriesPerRequest: null });
    connection.on("error", () => {});
    const queue = new Queue<RowJob>(options.queue, { connection });
    try {
      const attempts = options.attempts ?? 5;
      for (let offset = 0; offset < indexes.length; offset += 1000) {
        const slice = indexes.slice(offset, offset + 1000).map((index) => rows[index] as BatchRow);
        await untilAborted(
          queue.addBulk(
            slice.map((row) => ({
              name: "row",
              data: { batch, function: functionName, id: row.id, args: row.args },
              opts: {
                jobId: rowJobId(batch, row.id),
                attempts,
                backoff: { type: "exponential", delay: 1000 },
                removeOnComplete: true,
                removeOnFail: true,
              },
            })),
          ),
          signal,
        );
      }
      // Written after the jobs: while it exists, Redis still holds this batch's queue.
      await untilAborted(
        redis.set(keys.state, JSON.stringify({ function: functionName, rows: rows.length })),
        signal,
      );
    } finally {
      await queue.close().catch(() => {});
      connection.disconnect();
    }
  };

  try {
    await enqueue(pending);
    // Each poll asks only for the rows still without a result, so the polls shrink as the batch ends.
    let waiting = pending;
    for (;;) {
      if (waiting.length > 0) {
        const ids = waiting.map((index) => (rows[index] as BatchRow).id);
        const values = await untilAborted(redis.hmget(keys.results, ...ids), signal);
        const still: number[] = [];
        for (const [position, text] of values.entries()) {
          const index = waiting[position] as number;
          if (text === null) {
            still.push(index);
            continue;
          }
          const result = JSON.parse(text) as BatchResult<T>;
          results[index] = result;
          await checkpoint.finished(result);
          if (result.ok) progress.succeeded += 1;
          else progress.failed += 1;
        }
        waiting = still;
        if (waiting.length > 0 && (await untilAborted(redis.exists(keys.state), signal)) === 0) {
          options.onNotice?.(
            `Redis lost this batch (no ${keys.state}: restarted without persistence, flushed or evicted); enqueueing the ${waiting.length} rows without a result again (the ${progress.succeeded + progress.failed + progress.skipped} with one are kept in the checkpoint)`,
          );
          await enqueue(waiting);
        }
      }
      const [resent, retried] = await untilAborted(redis.mget(keys.resent, keys.retried), signal);
      progress.resent = Number(resent ?? 0);
      progress.retried = Number(retried ?? 0);
      report();
      if (waiting.length === 0) return { results, progress: snapshot(), stoppedBy: null };
      await sleep(options.pollIntervalMs ?? 500, signal);
    }
  } catch (error) {
    if (signal?.aborted) return { results, progress: snapshot(), stoppedBy: "aborted" };
    throw error;
  }
}

/**
 * A Redis command that waits while Redis is out of reach (the connection retries every command) gives way
 * to the caller's signal, so that Ctrl-C stops a coordinator whose Redis is gone.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  return signal ? raceAbort(work, signal) : work;
}

function sleep(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return untilAborted(new Promise<void>((resolve) => setTimeout(resolve, milliseconds)), signal);
}
