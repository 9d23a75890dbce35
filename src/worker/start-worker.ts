import { type Job, Worker } from "bullmq";
import type { Redis } from "ioredis";
import {
  type BatchResult,
  type BatchRuntime,
  describeRowError,
  rateLimitOf,
  rawAnswerOf,
  refusedCredentials,
} from "../batch/index.js";
import {
  BamlAllClientsFailedError,
  BamlClientHttpError,
  BamlError,
  type CallOptions,
  Collector,
} from "../runtime/index.js";
import { queueKeys, type RowJob } from "./queue-keys.js";

export interface WorkerOptions {
  /** The BullMQ queue to take rows from. */
  queue: string;
  /** The Redis connection (from `connectRedis(url)`); the worker duplicates it for BullMQ. */
  redis: Redis;
  runtime: BatchRuntime;
  /** Rows in flight in this worker at once (default 8). */
  concurrency?: number | undefined;
  /** Requests per minute for the whole queue, shared by every worker (BullMQ's global rate limiter). */
  requestsPerMinute?: number | undefined;
  /** How long a worker's hold on a row lasts before another worker may take it over (default 30 s). */
  lockDurationMs?: number | undefined;
  callOptions?: CallOptions | undefined;
  /** Called with each result after it is stored. */
  onResult?: ((result: BatchResult, job: RowJob) => void) | undefined;
  /** Called with each failed attempt of a row: stored as its result, or handed back for a retry. */
  onFailure?: ((failure: RowFailure) => void) | undefined;
}

/** A failed attempt of a row, for a worker's log. */
export interface RowFailure {
  job: RowJob;
  error: unknown;
  /** 1 for the first attempt. */
  attempt: number;
  attempts: number;
  /** `true`: a failure in transit handed back to BullMQ for another attempt; `false`: stored. */
  retrying: boolean;
}

export interface RunningWorker {
  /** Stops taking rows; rows in flight finish first (`force` abandons them to another worker). */
  close(force?: boolean): Promise<void>;
  /** Rows this worker is running now. */
  readonly inFlight: number;
}

/**
 * Errors BullMQ should retry: the attempt failed in transit (a 429 or 5xx, a timeout, a refused or reset
 * connection), as opposed to the row's own failure (an unreadable answer, a bad argument, a missing key).
 */
const transientCodes = new Set(["TIMEOUT", "CLIENT_ERROR"]);
function isTransient(error: unknown): boolean {
  // A refused key (401, 403) is refused again on every attempt.
  if (refusedCredentials(error) !== undefined) return false;
  const cause = BamlAllClientsFailedError.isInstance(error) ? error.attempts.at(-1)?.error : error;
  if (rateLimitOf(cause) !== undefined) return true;
  if (!BamlError.isInstance(cause)) return false;
  if (BamlClientHttpError.isInstance(cause)) return cause.statusCode >= 500;
  return transientCodes.has(cause.code);
}

/**
 * Takes rows from a BullMQ queue and runs them: each row's result is written to Redis under its row id
 * (so a row run twice, after a worker died holding it, still leaves one result). A row that fails on its
 * own (an unreadable answer) is a stored failure; one that fails in transit (429, 5xx, a reset) is thrown
 * back to BullMQ, which retries it with backoff and stores the failure only after the last attempt.
 */
/** Counts a row's start, and whether it is a re-send or a retry, atomically (Redis runs a script whole). */
const COUNT_START = `
redis.call("HINCRBY", KEYS[1], ARGV[1], 1)
local attemptStarts = redis.call("HINCRBY", KEYS[2], ARGV[2], 1)
if attemptStarts > 1 then
  redis.call("INCR", KEYS[3])
elseif tonumber(ARGV[3]) > 0 then
  redis.call("INCR", KEYS[4])
end
return attemptStarts
`;

export function startWorker(options: WorkerOptions): RunningWorker {
  const store = async (job: RowJob, result: BatchResult) => {
    await options.redis.hset(queueKeys(options.queue, job.batch).results, job.id, JSON.stringify(result));
    options.onResult?.(result, job);
  };
  let inFlight = 0;
  const runRow = async (job: Job<RowJob>): Promise<void> => {
    const row = job.data;
    const keys = queueKeys(options.queue, row.batch);
    // The same attempt started twice means a worker died holding it (a re-send); a later attempt after
    // a failure in transit is BullMQ's retry. Progress reports the two apart. One script, so a worker
    // killed here never leaves a start counted without its re-send or retry.
    await options.redis.eval(
      COUNT_START,
      4,
      keys.starts,
      keys.attemptStarts,
      keys.resent,
      keys.retried,
      row.id,
      `${row.id}:${job.attemptsMade}`,
      String(job.attemptsMade),
    );
    const collector = new Collector(`worker:${row.id}`);
    const collectors = [collector, ...[options.callOptions?.collector ?? []].flat()];
    try {
      const value = await options.runtime.call(row.function, row.args, {
        ...options.callOptions,
        collector: collectors,
      });
      await store(row, { id: row.id, ok: true, value, raw: collector.last?.rawLlmResponse ?? null });
    } catch (error) {
      const attempts = job.opts.attempts ?? 1;
      const retrying = isTransient(error) && job.attemptsMade + 1 < attempts;
      options.onFailure?.({ job: row, error, attempt: job.attemptsMade + 1, attempts, retrying });
      if (retrying) throw error;
      await store(row, {
        id: row.id,
        ok: false,
        error: describeRowError(error),
        raw: rawAnswerOf(error) ?? collector.last?.rawLlmResponse ?? null,
      });
    }
  };
  // BullMQ leaves a connection it was given open on close: this one is ours to close.
  const connection = options.redis.duplicate({ maxRetriesPerRequest: null });
  connection.on("error", () => {});
  const worker = new Worker<RowJob>(
    options.queue,
    async (job: Job<RowJob>) => {
      inFlight += 1;
      try {
        await runRow(job);
      } finally {
        inFlight -= 1;
      }
    },
    {
      connection,
      concurrency: options.concurrency ?? 8,
      ...(options.requestsPerMinute !== undefined
        ? { limiter: { max: options.requestsPerMinute, duration: 60_000 } }
        : {}),
      ...(options.lockDurationMs !== undefined
        ? {
            lockDuration: options.lockDurationMs,
            stalledInterval: Math.max(250, Math.floor(options.lockDurationMs / 2)),
          }
        : {}),
      maxStalledCount: 10,
    },
  );
  worker.on("error", () => {
    // Connection errors are retried by the client; they must not crash the process as unhandled events.
  });
  return {
    close: async (force = false) => {
      await worker.close(force);
      connection.disconnect();
    },
    get inFlight() {
      return inFlight;
    },
  };
}
