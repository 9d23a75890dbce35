import type { BatchCheckpoint, BatchResult } from "../batch/index.js";

/**
 * A batch checkpoint over an eval's records: the records file is the progress (a row with a record is
 * done), so a rerun skips those rows and never calls the model for them again. `finished` has nothing to
 * write: `runEvalCell` writes the record itself. Only the ids are kept, never the answers.
 */
export function recordCheckpoint(finishedIds: ReadonlySet<string>): BatchCheckpoint {
  return {
    load: async () => ({
      results: new Map<string, BatchResult>(
        [...finishedIds].map((id) => [id, { id, ok: true, value: undefined, raw: null }]),
      ),
      inFlight: new Set(),
      providerBatches: [],
    }),
    started: () => {},
    finished: () => {},
  };
}
