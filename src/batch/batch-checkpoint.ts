import { hasErrorMark, markError } from "../util/index.js";
import type { BatchResult } from "./batch-result.js";

/** A checkpoint that cannot be used: damaged, or made for another batch. The message says what to do. */
export class BatchCheckpointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BatchCheckpointError";
    markError(this, "BatchCheckpointError");
  }

  /** `instanceof` that also works across two copies of the package. */
  static isInstance(value: unknown): value is BatchCheckpointError {
    return hasErrorMark(value, "BatchCheckpointError");
  }
}

/** What a checkpoint remembers of earlier runs of the same batch. */
export interface CheckpointState {
  /** The last result written for each row id. */
  results: Map<string, BatchResult>;
  /** Rows whose request was started but whose result was never written (in flight at a kill). */
  inFlight: Set<string>;
  /** Provider batches submitted, in order (a rerun polls those whose rows lack results). */
  providerBatches: ProviderBatchRecord[];
  /**
   * US dollars spent by earlier runs on the rows they finished (those whose cost was known), counted
   * against a budget (`maxCostUsd`). Absent: nothing recorded.
   */
  spentUsd?: number;
  /**
   * Lines of a checkpoint file that could not be read and were skipped, each as `file:line: why`. A
   * skipped result's row runs again; nothing else is lost.
   */
  damagedLines?: string[];
}

/** What a finished row cost, recorded with its result so that a rerun's budget counts it. */
export interface RowSpending {
  /** US dollars, from the price table; `null` when the model has no price. */
  costUsd: number | null;
}

/** A batch submitted to a provider's batch API: enough to poll it again, and no credentials. */
export interface ProviderBatchRecord {
  provider: "openai" | "anthropic";
  /** The provider's batch id. */
  id: string;
  /** Where it is polled. */
  url: string;
  /** The ids of the rows it holds. */
  rows: string[];
}

/**
 * Where a batch records its progress, so that a killed run, rerun, never re-requests a row whose result
 * was written. `started` is recorded before a row's request goes out and `finished` after its result is
 * known; a row started but not finished was in flight when the run stopped, and is counted as a re-send
 * when it runs again.
 */
export interface BatchCheckpoint {
  load(): Promise<CheckpointState>;
  started(id: string): Promise<void> | void;
  /** Records a row's result, and what its request cost (spending is optional for a checkpoint to keep). */
  finished(result: BatchResult, spending?: RowSpending): Promise<void> | void;
  /** Records a provider batch before it is polled (provider batch mode only). */
  submitted?(record: ProviderBatchRecord): Promise<void> | void;
}

/** A checkpoint in memory: resumes within one process (after an abort, or with `retryFailed`). */
export function memoryCheckpoint(): BatchCheckpoint & { state: CheckpointState } {
  const state: CheckpointState = {
    results: new Map(),
    inFlight: new Set(),
    providerBatches: [],
    spentUsd: 0,
  };
  return {
    state,
    load: async () => ({
      results: new Map(state.results),
      inFlight: new Set(state.inFlight),
      providerBatches: [...state.providerBatches],
      spentUsd: state.spentUsd ?? 0,
    }),
    submitted: (record) => {
      state.providerBatches.push(record);
    },
    started: (id) => {
      state.inFlight.add(id);
    },
    finished: (result, spending) => {
      state.inFlight.delete(result.id);
      state.results.set(result.id, result);
      state.spentUsd = (state.spentUsd ?? 0) + (spending?.costUsd ?? 0);
    },
  };
}

/** One line of a checkpoint file: a row started, a row's result (with its cost when known), a batch. */
export type CheckpointLine =
  | { started: string }
  | { result: BatchResult; costUsd?: number }
  | { providerBatch: ProviderBatchRecord };

/**
 * Reads the lines of a checkpoint file into its state. A last line cut by a kill (no newline, or not
 * JSON) is ignored: its row counts as not finished. Any other line that cannot be read (a disk error, an
 * edit by hand) is skipped and listed in `damagedLines` with its number: one bad line costs the re-run of
 * its row, never the whole checkpoint.
 */
export function readCheckpointLines(text: string, source: string): CheckpointState {
  const state: CheckpointState = {
    results: new Map(),
    inFlight: new Set(),
    providerBatches: [],
    spentUsd: 0,
    damagedLines: [],
  };
  const lines = text.split("\n");
  // The text after the last newline is a line the writer never finished.
  const complete = lines.length - 1;
  for (let index = 0; index < complete; index += 1) {
    const line = lines[index] as string;
    if (line.trim() === "") continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      state.damagedLines?.push(`${source}:${index + 1}: not JSON`);
      continue;
    }
    if (!applyLine(state, parsed))
      state.damagedLines?.push(`${source}:${index + 1}: JSON, but not a line a checkpoint writes`);
  }
  return state;
}

/** Applies one line; `false` when it is not a line a checkpoint writes. */
function applyLine(state: CheckpointState, line: unknown): boolean {
  if (line === null || typeof line !== "object") return false;
  if ("started" in line && typeof line.started === "string") {
    state.inFlight.add(line.started);
    return true;
  }
  if ("result" in line && isResult(line.result)) {
    state.inFlight.delete(line.result.id);
    state.results.set(line.result.id, line.result);
    // Every line's cost counts, also a result replaced by a retry: that money was spent.
    if ("costUsd" in line && typeof line.costUsd === "number")
      state.spentUsd = (state.spentUsd ?? 0) + line.costUsd;
    return true;
  }
  if ("providerBatch" in line && isProviderBatch(line.providerBatch)) {
    state.providerBatches.push(line.providerBatch);
    return true;
  }
  return "batch" in line; // the header line, checked by whoever wrote it
}

function isProviderBatch(value: unknown): value is ProviderBatchRecord {
  return (
    value !== null &&
    typeof value === "object" &&
    "id" in value &&
    typeof value.id === "string" &&
    "url" in value &&
    typeof value.url === "string" &&
    "rows" in value &&
    Array.isArray(value.rows)
  );
}

function isResult(value: unknown): value is BatchResult {
  return (
    value !== null &&
    typeof value === "object" &&
    "id" in value &&
    typeof value.id === "string" &&
    "ok" in value &&
    typeof value.ok === "boolean"
  );
}
