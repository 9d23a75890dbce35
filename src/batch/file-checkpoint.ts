import {
  type BatchCheckpoint,
  BatchCheckpointError,
  type CheckpointLine,
  type CheckpointState,
  type ProviderBatchRecord,
  type RowSpending,
  readCheckpointLines,
} from "./batch-checkpoint.js";
import type { BatchResult } from "./batch-result.js";

/** The part of `node:fs` a file checkpoint uses. */
interface SyncFileSystem {
  closeSync(fd: number): void;
  existsSync(path: string): boolean;
  openSync(path: string, flags: "a"): number;
  readFileSync(path: string, encoding: "utf8"): string;
  writeSync(fd: number, text: string): number;
}

/**
 * Node's synchronous file functions, through `process.getBuiltinModule` (Node ≥ 20.16): the batch room
 * imports no `node:` module, so a bundle of a generated client for a browser still builds.
 */
function nodeFileSystem(): SyncFileSystem {
  const host = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const fileSystem = host?.getBuiltinModule?.("node:fs") as SyncFileSystem | undefined;
  if (!fileSystem)
    throw new Error(
      "fileCheckpoint needs Node.js 20.16 or later (a file system); pass a checkpoint of your own elsewhere",
    );
  return fileSystem;
}

/** What a checkpoint file was made for; a rerun with other rows or another function is refused. */
export interface CheckpointIdentity {
  function: string;
  /** A digest of the rows (ids and arguments), so that an edited input file is noticed. */
  rows: string;
}

/**
 * A checkpoint in an append-only JSON-lines file. Each line is written with one `write` call before the
 * next row goes on, so a killed process leaves every finished result in the file (at worst a last line
 * cut short, which reading ignores). Rerun with the same file to resume. A line damaged otherwise is
 * skipped (its row runs again) and reported to `onDamagedLine`.
 */
export function fileCheckpoint(
  path: string,
  identity: CheckpointIdentity,
  options: {
    /**
     * Told of each damaged line `load` skipped (`file:line: why`); its row runs again. Default: none
     * (the lines are in the loaded state's `damagedLines` as well).
     */
    onDamagedLine?: ((line: string) => void) | undefined;
  } = {},
): BatchCheckpoint & { close(): void } {
  const { closeSync, existsSync, openSync, readFileSync, writeSync } = nodeFileSystem();
  let fd: number | undefined;
  const append = (line: CheckpointLine | { batch: CheckpointIdentity }) => {
    if (fd === undefined) throw new Error("fileCheckpoint: load() must be called first");
    writeSync(fd, `${JSON.stringify(line)}\n`);
  };
  return {
    async load(): Promise<CheckpointState> {
      const exists = existsSync(path);
      let state: CheckpointState = {
        results: new Map(),
        inFlight: new Set(),
        providerBatches: [],
        spentUsd: 0,
      };
      if (exists) {
        const text = readFileSync(path, "utf8");
        checkIdentity(text, path, identity);
        state = readCheckpointLines(text, path);
        for (const line of state.damagedLines ?? []) options.onDamagedLine?.(line);
      }
      fd = openSync(path, "a");
      // A last line cut by a kill gets its own line end, so that the next line is whole.
      if (exists) {
        const text = readFileSync(path, "utf8");
        if (text.length > 0 && !text.endsWith("\n")) writeSync(fd, "\n");
      } else append({ batch: identity });
      return state;
    },
    started(id: string) {
      append({ started: id });
    },
    finished(result: BatchResult, spending?: RowSpending) {
      const costUsd = spending?.costUsd;
      append(typeof costUsd === "number" ? { result, costUsd } : { result });
    },
    submitted(record: ProviderBatchRecord) {
      append({ providerBatch: record });
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

function checkIdentity(text: string, path: string, identity: CheckpointIdentity): void {
  const first = text.slice(0, text.indexOf("\n") === -1 ? text.length : text.indexOf("\n"));
  let header: unknown;
  try {
    header = JSON.parse(first);
  } catch {
    header = undefined;
  }
  const recorded =
    header !== null && typeof header === "object" && header !== undefined && "batch" in header
      ? (header.batch as Partial<CheckpointIdentity>)
      : undefined;
  if (!recorded)
    throw new BatchCheckpointError(
      `${path} is not a Sapling batch checkpoint (its first line has no "batch" header). Name another file with --checkpoint, or delete it.`,
    );
  if (recorded.function !== identity.function)
    throw new BatchCheckpointError(
      `${path} is the checkpoint of a batch of ${recorded.function}, not ${identity.function}. Delete it to start over, or name another file with --checkpoint.`,
    );
  if (recorded.rows !== identity.rows)
    throw new BatchCheckpointError(
      `${path} was made for other rows: the input changed since it was written. Rerun with the same input to resume, or delete the checkpoint to start over.`,
    );
}
