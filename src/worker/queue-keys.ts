/** The Redis names one queued batch uses, in one place so that the enqueuer and the workers agree. */
export function queueKeys(queue: string, batch: string) {
  const prefix = `sapling:${queue}:${batch}`;
  return {
    /** Hash: row id → the row's result (JSON). Written by id, so a job run twice leaves one result. */
    results: `${prefix}:results`,
    /** Hash: row id → how many times a worker started it. */
    starts: `${prefix}:starts`,
    /** Hash: `rowId:attempt` → how many times that attempt was started (more than once: a worker died). */
    attemptStarts: `${prefix}:attempt-starts`,
    /** Counter: attempts started again because the worker running them died (or lost its lock). */
    resent: `${prefix}:resent`,
    /** Counter: new attempts after a failure in transit (429, 5xx, a reset), BullMQ's retries. */
    retried: `${prefix}:retried`,
    /**
     * String: written when the rows are enqueued. Its absence while the batch waits means Redis lost
     * the batch (restarted without persistence, flushed, evicted): the coordinator enqueues again.
     */
    state: `${prefix}:state`,
  };
}

/** A row's job id: unique per batch and row, so enqueueing a row again while it waits adds nothing. */
export function rowJobId(batch: string, id: string): string {
  return `${batch}|${id}`;
}

/** What a queued row's job carries. */
export interface RowJob {
  batch: string;
  function: string;
  id: string;
  args: Record<string, unknown>;
}
