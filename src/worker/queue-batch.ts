import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { BatchProgress, BatchReport, BatchResult, BatchRow } from "../batch/index.js";
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
  const started = Date.now();
  const existing = await redis.hgetall(keys.results);
  const already = new Map(
    Object.entries(existing).map(([id, text]) => [id, JSON.parse(text) as BatchResult]),
  );
  const toQueue = rows.filter((row) => {
    const result = already.get(row.id);
    return !result || (!result.ok && options.retryFailed);
  });
  if (options.retryFailed && toQueue.length > 0)
    await redis.hdel(keys.results, ...toQueue.map((row) => row.id));
  const skipped = rows.length - toQueue.length;
  const queue = new Queue<RowJob>(options.queue, {
    connection: redis.duplicate({ maxRetriesPerRequest: null }),
  });
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
  }

  const ids = rows.map((row) => row.id);
  const progressOf = async (): Promise<{ progress: BatchProgress; results: (BatchResult<T> | null)[] }> => {
    const values = ids.length === 0 ? [] : await redis.hmget(keys.results, ...ids);
    const results = values.map((text) => (text === null ? null : (JSON.parse(text) as BatchResult<T>)));
    const queued = new Set(toQueue.map((row) => row.id));
    const finished = results.filter(
      (result): result is BatchResult<T> => result !== null && queued.has(result.id),
    );
    const resent = Number((await redis.get(keys.resent)) ?? 0);
    const progress: BatchProgress = {
      total: rows.length,
      skipped,
      pending: toQueue.length,
      succeeded: finished.filter((result) => result.ok).length,
      failed: finished.filter((result) => !result.ok).length,
      resent,
      rateLimited: 0,
      inputTokens: 0,
      outputTokens: 0,
      repairs: 0,
      elapsedMs: Date.now() - started,
    };
    return { progress, results };
  };
  for (;;) {
    const { progress, results } = await progressOf();
    options.onProgress?.(progress);
    const complete = results.every((result) => result !== null);
    if (complete || options.signal?.aborted)
      return { results, progress, stoppedBy: complete ? null : "aborted" };
    await new Promise((resolve) => setTimeout(resolve, options.pollIntervalMs ?? 500));
  }
}
