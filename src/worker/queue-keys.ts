/** The Redis names one queued batch uses, in one place so that the enqueuer and the workers agree. */
export function queueKeys(queue: string, batch: string) {
  const prefix = `sapling:${queue}:${batch}`;
  return {
    /** Hash: row id → the row's result (JSON). Written by id, so a job run twice leaves one result. */
    results: `${prefix}:results`,
    /** Hash: row id → how many times a worker started it. */
    starts: `${prefix}:starts`,
    /** Counter: starts beyond the first (a worker died with the row in flight, or a retry). */
    resent: `${prefix}:resent`,
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
