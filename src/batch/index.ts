/**
 * `sapling-llm/batch`: run a function over many rows, with concurrency, rate limits per client, a
 * checkpoint to resume from, and one typed result per row. Browser-safe but for `fileCheckpoint`, which
 * needs Node's file system.
 */
export { BatchBudgetError } from "./batch-budget-error.js";
export type {
  BatchCheckpoint,
  CheckpointState,
  ProviderBatchRecord,
  RowSpending,
} from "./batch-checkpoint.js";
export { BatchCheckpointError, memoryCheckpoint } from "./batch-checkpoint.js";
export { type BatchClock, systemClock } from "./batch-clock.js";
export { BatchCredentialsError, refusedCredentials } from "./batch-credentials-error.js";
export type { BatchResult, BatchRow, BatchRowError } from "./batch-result.js";
export { describeRowError, rateLimitOf, rawAnswerOf } from "./batch-result.js";
export { type CheckpointIdentity, fileCheckpoint } from "./file-checkpoint.js";
export {
  ProviderBatchError,
  type ProviderBatchOptions,
  type ProviderBatchRuntime,
  runProviderBatch,
} from "./provider-batch.js";
export type { RateLimit } from "./rate-limiter.js";
export {
  type BatchOptions,
  type BatchProgress,
  type BatchReport,
  BatchRowTimeoutError,
  type BatchRuntime,
  batchFunction,
  type FunctionBatchOptions,
  runBatch,
} from "./run-batch.js";
export {
  type ProviderBatchLimits,
  providerBatchLimits,
  splitProviderBatches,
} from "./split-provider-batches.js";
export { type StartedBatch, startBatch } from "./start-batch.js";
