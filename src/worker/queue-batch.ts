import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import {
  type BatchProgress,
  type BatchReport,
  type BatchResult,
  type BatchRow,
  startBatch,
  systemClock,
} from "../batch/index.js";
import { queueKeys, type RowJob, rowJobId } from "./queue-keys.js";

export interface QueueBatchOptions {
  queue: string;
  redis: Redis;
  /** Names this batch in Redis (results, counts); the same name resumes it (default: the function's). */
  batch?: string | undefined;
  /** Enqueue again the rows whose stored result is a failure. */
  retryFailed?: boolean | undefined;
  /** Attempts per row for failures in transit (429, 5xx, resets), with exponential backoff (default 5). */
  attempts?: number | undefined;
  /** Milliseconds between checks for new results (default 500). */
  pollIntervalMs?: number | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: BatchProgress) => void) | undefined;
}

/**
 * Puts the rows that have no result yet on a BullMQ queue for `sapling worker`s to run, then waits until
 * every row has a result in Redis and returns them in input order. Redis is the checkpoint: rerun with the
 * same batch name and it enqueues only rows without a result, and a row still waiting is not added twice.
 */
export async function queueBatch<T = unknown>(
  functionName: string,
  rows: readonly BatchRow[],
  options: QueueBatchOptions,
): Promise<BatchReport<T>> {
  const batch = options.batch ?? functionName;
  const keys = queueKeys(options.queue, batch);
  const redis = options.redis;
  const existing = await redis.hgetall(keys.results);
  const already = new Map(
    Object.entries(existing).map(([id, text]) => [id, JSON.parse(text) as BatchResult]),
  );
  // The same start as a batch in calls mode: the stored results are the checkpoint.
  const { results, pending, progress, report, snapshot } = startBatch<T>(
    "queueBatch",
    rows,
    { results: already },
    {
      retryFailed: options.retryFailed,
      clock: systemClock,
      onProgress: options.onProgress,
    },
  );
  // Workers do not report what their rows cost: unknown, never shown as nothing.
  progress.costUsd = null;
  const toQueue = pending.map((index) => rows[index] as BatchRow);
  if (options.retryFailed && toQueue.length > 0)
    await redis.hdel(keys.results, ...toQueue.map((row) => row.id));
  // BullMQ leaves a connection it was given open on close: this one is ours to close.
  const connection = redis.duplicate({ maxRetriesPerRequest: null });
  connection.on("error", () => {});
  const queue = new Queue<RowJob>(options.queue, { connection });
  try {
    const attempts = options.attempts ?? 5;
    for (let offset = 0; offset < toQueue.length; offset += 1000) {
      await queue.addBulk(
        toQueue.slice(offset, offset + 1000).map((row) => ({
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
      );
    }
  } finally {
    await queue.close();
    connection.disconnect();
  }

  // Each poll asks only for the rows still without a result, so the polls shrink as the batch ends.
  let waiting = pending;
  for (;;) {
    if (waiting.length > 0) {
      const values = await redis.hmget(keys.results, ...waiting.map((index) => (rows[index] as BatchRow).id));
      const still: number[] = [];
      values.forEach((text, position) => {
        const index = waiting[position] as number;
        if (text === null) {
          still.push(index);
          return;
        }
        const result = JSON.parse(text) as BatchResult<T>;
        results[index] = result;
        if (result.ok) progress.succeeded += 1;
        else progress.failed += 1;
      });
      waiting = still;
    }
    progress.resent = Number((await redis.get(keys.resent)) ?? 0);
    report();
    if (waiting.length === 0 || options.signal?.aborted)
      return { results, progress: snapshot(), stoppedBy: waiting.length === 0 ? null : "aborted" };
    await new Promise((resolve) => setTimeout(resolve, options.pollIntervalMs ?? 500));
  }
}
