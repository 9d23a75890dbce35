/**
 * `sapling-llm/worker`: batches on a BullMQ queue in Redis. `queueBatch` enqueues the rows that have no
 * result and waits for them; `startWorker` runs rows on any number of machines. Needs the optional peers
 * `bullmq` and `ioredis`.
 */
export { type QueueBatchOptions, queueBatch } from "./queue-batch.js";
export { queueKeys, type RowJob, rowJobId } from "./queue-keys.js";
export {
  connectRedis,
  RedisUnreachableError,
  redisAddress,
  waitForRedis,
  watchRedis,
} from "./redis-connection.js";
export { type RowFailure, type RunningWorker, startWorker, type WorkerOptions } from "./start-worker.js";
