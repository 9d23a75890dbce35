/**
 * Runs one cell of an eval (one client in one output mode) over the dataset on the batch engine: the
 * normal call path, with `runBatch`'s concurrency, rate limits and checkpoint. Each finished row becomes
 * an `EvalRecord` handed to `onRecord` at once (nothing is kept here), with what the Collector saw of
 * the call: repairs, the calls made, tokens, cost, and the time it took.
 */
import {
  type BatchCheckpoint,
  type BatchProgress,
  type BatchResult,
  type BatchRow,
  type BatchRuntime,
  type RateLimit,
  runBatch,
} from "../batch/index.js";
import { type CallOptions, type ClientRegistry, Collector, type FunctionLog } from "../runtime/index.js";
import type { EvalCell, EvalRecord } from "./eval-record.js";
import { toRepair } from "./replay-record.js";

export interface EvalCellOptions {
  /** Rows recorded by an earlier run of this cell are skipped (see `recordCheckpoint`). */
  checkpoint: BatchCheckpoint;
  onRecord: (record: EvalRecord) => void | Promise<void>;
  /** Tokens the cell's schema adds to each request (`schemaTokens`), stored in every record. */
  schemaTokens: number | null;
  concurrency?: number | undefined;
  rateLimit?: RateLimit | undefined;
  timeoutMs?: number | undefined;
  clientRegistry?: ClientRegistry | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: BatchProgress) => void) | undefined;
  /** Milliseconds, for latencies (default `performance.now`). */
  now?: () => number;
}

interface CallDetails {
  log: FunctionLog | null;
  latencyMs: number;
}

/** Runs the rows of one cell; resolves with `runBatch`'s report (its results are dropped by the caller). */
export async function runEvalCell(
  runtime: BatchRuntime,
  functionName: string,
  rows: readonly BatchRow[],
  cell: EvalCell,
  options: EvalCellOptions,
) {
  const now = options.now ?? (() => performance.now());
  // runBatch passes each row's own args object to `call`, so the object names the row here.
  const details = new Map<object, CallDetails>();
  const measured: BatchRuntime = {
    ir: runtime.ir,
    call: async (name, args, callOptions: CallOptions = {}) => {
      const collector = new Collector("eval");
      const startedAt = now();
      try {
        return await runtime.call(name, args, {
          ...callOptions,
          collector: [collector, ...[callOptions.collector ?? []].flat()],
        });
      } finally {
        details.set(args, { log: collector.last, latencyMs: now() - startedAt });
      }
    },
  };
  return runBatch(measured, functionName, rows, {
    checkpoint: options.checkpoint,
    concurrency: options.concurrency,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    onProgress: options.onProgress,
    rateLimits: options.rateLimit ? { [cell.client]: options.rateLimit } : undefined,
    callOptions: {
      client: cell.client,
      outputMode: cell.mode,
      ...(options.clientRegistry ? { clientRegistry: options.clientRegistry } : {}),
    },
    keepResults: false,
    onResult: async (result: BatchResult, index: number) => {
      const row = rows[index] as BatchRow;
      const detail = details.get(row.args);
      details.delete(row.args);
      await options.onRecord(toRecord(cell, result, detail, options.schemaTokens));
    },
  });
}

function toRecord(
  cell: EvalCell,
  result: BatchResult,
  detail: CallDetails | undefined,
  schemaTokens: number | null,
): EvalRecord {
  const log = detail?.log ?? null;
  const answered = log?.selectedCall ?? log?.calls.at(-1) ?? null;
  const first = log?.calls[0] ?? null;
  const firstAnswered = first !== null && (first.rawText !== null || first.toolCalls.length > 0);
  return {
    client: cell.client,
    mode: cell.mode,
    id: result.id,
    ok: result.ok,
    ...(result.ok
      ? { value: result.value }
      : { error: { type: result.error.type, message: result.error.message } }),
    text: answered?.rawText ?? result.raw,
    toolCalls: (answered?.toolCalls ?? []).map((call) => ({ name: call.name, arguments: call.arguments })),
    repairs: (log?.repairs ?? []).map(toRepair),
    firstCallParsed: firstAnswered ? (first?.selected ?? false) && result.ok : null,
    calls: log?.calls.length ?? 0,
    inputTokens: log?.usage.inputTokens ?? null,
    outputTokens: log?.usage.outputTokens ?? null,
    schemaTokens,
    latencyMs: Math.round((detail?.latencyMs ?? 0) * 10) / 10,
    costUsd: log?.costUsd ?? null,
    truncated: log?.truncated ?? false,
  };
}
