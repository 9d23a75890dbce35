import type { Ir } from "../ir/index.js";
import { type CallOptions, Collector } from "../runtime/index.js";
import { hasErrorMark, markError } from "../util/index.js";
import { BatchBudgetError, unpricedModel } from "./batch-budget-error.js";
import { type BatchCheckpoint, memoryCheckpoint } from "./batch-checkpoint.js";
import { type BatchClock, systemClock } from "./batch-clock.js";
import { BatchCredentialsError, refusedCredentials } from "./batch-credentials-error.js";
import {
  type BatchResult,
  type BatchRow,
  describeRowError,
  isAbort,
  rateLimitOf,
  rawAnswerOf,
} from "./batch-result.js";
import { ClientRateLimiter, type RateLimit } from "./rate-limiter.js";
import { startBatch } from "./start-batch.js";

/** What `runBatch` needs of a runtime: `SaplingRuntime` has it. */
export interface BatchRuntime {
  readonly ir: Ir;
  call(functionName: string, args: Record<string, unknown>, options?: CallOptions): Promise<unknown>;
}

export interface BatchOptions {
  /** Rows in flight at once (default 8). */
  concurrency?: number | undefined;
  /** Limits per client name (the function's client, or `callOptions.client`). */
  rateLimits?: Record<string, RateLimit> | undefined;
  /** A row that takes longer than this fails with `BatchRowTimeoutError`; the batch goes on. */
  timeoutMs?: number | undefined;
  /** Start at most this many rows in this run; the rest stay pending for the next run. */
  maxRows?: number | undefined;
  /**
   * A budget in US dollars: once what this run spent, plus what the checkpoint recorded of earlier runs,
   * reaches it, no new row starts (rows in flight finish, so the spend can pass it by their cost); the
   * rest stay pending for a run with a higher budget. Cost comes from the runtime's price table: a row
   * whose model has no price stops the batch with `BatchBudgetError` (add the price; see `prices`).
   */
  maxCostUsd?: number | undefined;
  /** How often a row that hit a 429 is put back in the queue before it counts as failed (default 8). */
  maxRateLimitRetries?: number | undefined;
  /** Stops the batch: no new rows start, rows in flight are cancelled and stay pending. */
  signal?: AbortSignal | undefined;
  /**
   * Options for every row's call (client, collector, env, tags, tb, clientRegistry). A `signal` here
   * cancels the rows in flight, as `signal` does, but only `signal` stops the batch cleanly.
   */
  callOptions?: CallOptions | undefined;
  /** Where progress is recorded; a run with the same checkpoint skips rows that have a result. */
  checkpoint?: BatchCheckpoint | undefined;
  /** Run the rows whose recorded result is a failure again. */
  retryFailed?: boolean | undefined;
  /**
   * `false`: once `onResult` has a row's result, the report keeps only its id and outcome (the value and
   * the raw answer are dropped), so that a long batch whose caller streams results holds no answers.
   */
  keepResults?: boolean | undefined;
  /** Called with each result as it is known (in completion order). */
  onResult?: ((result: BatchResult, index: number) => void | Promise<void>) | undefined;
  /** Called after each result and once at the start, with counts so far. */
  onProgress?: ((progress: BatchProgress) => void) | undefined;
  /** Injected time, for tests. */
  clock?: BatchClock | undefined;
}

/** Counts of a batch run. Re-sends are rows that were in flight when an earlier run stopped. */
export interface BatchProgress {
  total: number;
  /** Rows with a result from an earlier run, not requested again. */
  skipped: number;
  /** Rows this run set out to do. */
  pending: number;
  succeeded: number;
  failed: number;
  /**
   * Rows requested again because their request was in flight when it was cut off: an earlier run was
   * stopped (calls mode), or the worker running it died (queue mode).
   */
  resent: number;
  /** Times a row was put back in the queue after a 429. */
  rateLimited: number;
  /** Queue mode: attempts BullMQ started again after a failure in transit (429, 5xx, a reset). */
  retried: number;
  /** Tokens as reported; `null` when unknown (queue mode: the workers do not report them). */
  inputTokens: number | null;
  outputTokens: number | null;
  /**
   * US dollars this run spent, from the runtime's price table (provider batches: at the batch price);
   * `null` once a row's model had no price, so that a sum is never understated.
   */
  costUsd: number | null;
  /** US dollars the checkpoint recorded for earlier runs (rows whose cost was known). */
  earlierCostUsd: number;
  /** Parser repairs over every successful row; `null` when unknown (queue mode). */
  repairs: number | null;
  /** Milliseconds since the run started (by the injected clock). */
  elapsedMs: number;
}

export interface BatchReport<T = unknown> {
  /** In input order; `null` for a row that has no result yet (stopped by `maxRows` or the signal). */
  results: (BatchResult<T> | null)[];
  progress: BatchProgress;
  /** Why the run ended before every row had a result, or `null` when every row has one. */
  stoppedBy: "max-rows" | "max-cost" | "aborted" | null;
}

/** A row that ran past `timeoutMs`. */
export class BatchRowTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`the row took longer than ${timeoutMs} ms (timeoutMs) and was cancelled`);
    this.name = "BatchRowTimeoutError";
    markError(this, "BatchRowTimeoutError");
  }

  /** `instanceof` that also works across two copies of the package. */
  static isInstance(value: unknown): value is BatchRowTimeoutError {
    return hasErrorMark(value, "BatchRowTimeoutError");
  }
}

/**
 * Runs a function over many rows: `concurrency` at a time, within each client's rate limits, honouring
 * `retry-after`. Every row ends as a typed value or a typed error with the raw answer kept; one bad row
 * never stops the batch. With a checkpoint, a rerun skips rows whose result was written.
 */
export async function runBatch<T = unknown>(
  runtime: BatchRuntime,
  functionName: string,
  rows: readonly BatchRow[],
  options: BatchOptions = {},
): Promise<BatchReport<T>> {
  const fn = runtime.ir.functions.find((candidate) => candidate.name === functionName);
  if (!fn) throw new Error(`runBatch: the project has no function named ${functionName}`);
  const concurrency = positiveInteger(options.concurrency ?? 8, "concurrency");
  const maxRows =
    options.maxRows === undefined ? Number.POSITIVE_INFINITY : wholeNumber(options.maxRows, "maxRows");
  const maxRateLimitRetries = wholeNumber(options.maxRateLimitRetries ?? 8, "maxRateLimitRetries");
  if (options.timeoutMs !== undefined) positiveInteger(options.timeoutMs, "timeoutMs");
  const maxCostUsd = options.maxCostUsd;
  if (maxCostUsd !== undefined && !(Number.isFinite(maxCostUsd) && maxCostUsd > 0))
    throw new RangeError(`runBatch: maxCostUsd must be a positive number of US dollars, got ${maxCostUsd}`);
  const clock = options.clock ?? systemClock;
  const checkpoint = options.checkpoint ?? memoryCheckpoint();
  const state = await checkpoint.load();
  const {
    results,
    pending: queue,
    progress,
    report,
    snapshot,
  } = startBatch<T>("runBatch", rows, state, {
    retryFailed: options.retryFailed,
    maxRows: options.maxRows,
    clock,
    onProgress: options.onProgress,
  });

  const clientName = options.callOptions?.client ?? fn.client;
  const limiters = new Map<string, ClientRateLimiter>();
  const limiterFor = (name: string) => {
    let limiter = limiters.get(name);
    if (!limiter) {
      limiter = new ClientRateLimiter(options.rateLimits?.[name] ?? {}, clock);
      limiters.set(name, limiter);
    }
    return limiter;
  };
  for (const name of Object.keys(options.rateLimits ?? {})) limiterFor(name);

  const rateLimitRetries = new Map<number, number>();
  let started = 0;
  let tokensPerRow: number | null = null;
  let stopped = false;
  /** Known spend of this run (the progress's `costUsd` turns `null` when one row's cost is unknown). */
  let spentUsd = 0;
  let unpriced: BatchBudgetError | undefined;
  /** The first row whose key the provider refused: no new row starts after it. */
  let refused: BatchCredentialsError | undefined;
  const budgetReached = () =>
    maxCostUsd !== undefined && (unpriced !== undefined || progress.earlierCostUsd + spentUsd >= maxCostUsd);
  // One listener on each outside signal, however many rows are in flight: each row has its own
  // controller, and a stop aborts them all (a listener per row would pile up on a long batch's signal).
  const rowControllers = new Set<AbortController>();
  const abortRows = (reason: unknown) => {
    for (const controller of rowControllers) controller.abort(reason);
  };
  const stop = () => {
    stopped = true;
    abortRows(options.signal?.reason);
  };
  const cancelRows = () => abortRows(options.callOptions?.signal?.reason);
  options.signal?.addEventListener("abort", stop, { once: true });
  options.callOptions?.signal?.addEventListener("abort", cancelRows, { once: true });

  const runRow = async (index: number): Promise<void> => {
    const row = rows[index] as BatchRow;
    const limiter = limiterFor(clientName);
    const estimate = tokensPerRow ?? Math.ceil(JSON.stringify(row.args).length / 4);
    const entry = await limiter.acquire(estimate, options.signal);
    if (state.inFlight.has(row.id)) {
      state.inFlight.delete(row.id);
      progress.resent += 1;
    }
    await checkpoint.started(row.id);
    const collector = new Collector(`batch:${row.id}`);
    const collectors = [collector, ...[options.callOptions?.collector ?? []].flat()];
    const rowController = new AbortController();
    rowControllers.add(rowController);
    if (options.signal?.aborted || options.callOptions?.signal?.aborted)
      rowController.abort(options.signal?.reason ?? options.callOptions?.signal?.reason);
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(
            () => rowController.abort(new BatchRowTimeoutError(options.timeoutMs as number)),
            options.timeoutMs,
          );
    let result: BatchResult<T>;
    let rowCost: number | null = 0;
    try {
      const value = await runtime.call(functionName, row.args, {
        ...options.callOptions,
        collector: collectors,
        signal: rowController.signal,
      });
      const log = collector.last;
      result = { id: row.id, ok: true, value: value as T, raw: log?.rawLlmResponse ?? null };
      progress.repairs = (progress.repairs ?? 0) + (log?.repairs.length ?? 0);
    } catch (error) {
      if (options.signal?.aborted) return; // the caller stopped the batch: the row stays pending
      const refusedStatus = refusedCredentials(error);
      if (refusedStatus !== undefined) {
        // Never retried and never recorded: the row stays pending for a run with a working key.
        refused ??= new BatchCredentialsError(row.id, refusedStatus, error);
        return;
      }
      const retryAfter = rateLimitOf(error);
      const retries = rateLimitRetries.get(index) ?? 0;
      if (retryAfter !== undefined && retries < maxRateLimitRetries) {
        rateLimitRetries.set(index, retries + 1);
        limiter.pause(retryAfter ?? Math.min(1000 * 2 ** retries, 60_000));
        progress.rateLimited += 1;
        queue.unshift(index);
        started -= 1;
        return;
      }
      const timedOut = rowController.signal.reason instanceof BatchRowTimeoutError;
      const cause = timedOut && isAbort(error) ? rowController.signal.reason : error;
      result = {
        id: row.id,
        ok: false,
        error: describeRowError(cause),
        raw: rawAnswerOf(error) ?? collector.last?.rawLlmResponse ?? null,
      };
    } finally {
      if (timer) clearTimeout(timer);
      rowControllers.delete(rowController);
      const usage = collector.usage;
      const tokens =
        usage.inputTokens === null && usage.outputTokens === null
          ? null
          : (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
      limiter.settle(entry, tokens);
      if (tokens !== null)
        tokensPerRow = tokensPerRow === null ? tokens : Math.ceil((tokensPerRow * 7 + tokens) / 8);
      progress.inputTokens = (progress.inputTokens ?? 0) + (usage.inputTokens ?? 0);
      progress.outputTokens = (progress.outputTokens ?? 0) + (usage.outputTokens ?? 0);
      rowCost = collector.costUsd;
      spentUsd += rowCost ?? 0;
      progress.costUsd = progress.costUsd === null || rowCost === null ? null : progress.costUsd + rowCost;
      if (rowCost === null && unpriced === undefined)
        unpriced = new BatchBudgetError(row.id, unpricedModel(collector));
    }
    results[index] =
      options.keepResults === false
        ? result.ok
          ? { id: result.id, ok: true, value: undefined as T, raw: null }
          : { id: result.id, ok: false, error: result.error, raw: null }
        : result;
    if (result.ok) progress.succeeded += 1;
    else progress.failed += 1;
    await checkpoint.finished(result, { costUsd: rowCost });
    await options.onResult?.(result, index);
    report();
  };

  const worker = async (): Promise<void> => {
    while (!stopped && refused === undefined && queue.length > 0 && started < maxRows && !budgetReached()) {
      const index = queue.shift() as number;
      started += 1;
      try {
        await runRow(index);
      } catch (error) {
        if (options.signal?.aborted) return;
        throw error;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(queue.length, 1)) }, worker));
  } finally {
    options.signal?.removeEventListener("abort", stop);
    options.callOptions?.signal?.removeEventListener("abort", cancelRows);
  }
  const complete = results.every((result) => result !== null);
  if (refused !== undefined) throw refused;
  if (unpriced !== undefined && maxCostUsd !== undefined) throw unpriced;
  return {
    results,
    progress: snapshot(),
    stoppedBy: complete
      ? null
      : options.signal?.aborted
        ? "aborted"
        : budgetReached()
          ? "max-cost"
          : "max-rows",
  };
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`runBatch: ${name} must be a whole number of at least 1, got ${value}`);
  return value;
}

function wholeNumber(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 0)
    throw new RangeError(`runBatch: ${name} must be a whole number of at least 0, got ${value}`);
  return value;
}

/** `runBatch` options for rows given as argument objects (`b.batch.Fn`): `id` names each row. */
export interface FunctionBatchOptions<Args = Record<string, unknown>> extends BatchOptions {
  /** A row's id in the results and the checkpoint (default: its position, "0", "1", …). */
  id?: ((args: Args, index: number) => string) | undefined;
}

/** `b.batch.Fn(rows, options)`: `runBatch` over argument objects, each named by `options.id`. */
export function batchFunction<T = unknown, Args extends object = Record<string, unknown>>(
  runtime: BatchRuntime,
  functionName: string,
  rows: readonly Args[],
  options: FunctionBatchOptions<Args> = {},
): Promise<BatchReport<T>> {
  const { id, ...rest } = options;
  const named = rows.map((args, index) => ({
    id: id ? id(args, index) : String(index),
    args: args as Record<string, unknown>,
  }));
  return runBatch<T>(runtime, functionName, named, rest);
}
