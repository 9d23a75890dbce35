import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { CliError } from "../cli-context.js";

/** What a lock file says of the run that holds it. */
interface LockOwner {
  pid: number;
  host: string;
  startedAt: string;
  command: string;
}

/** A held lock; `release` removes the file if it is still this run's. */
export interface BatchLock {
  release(): void;
  /** The pid of a dead run whose lock was taken over, if any (to tell the user). */
  tookOverFrom: number | undefined;
}

/**
 * Takes the lock of an output file: `OUTPUT.lock`, created with `O_EXCL` so that exactly one of two runs
 * started together gets it, holding the pid, host, start time and command of its run. Two runs on one
 * output would each send every row (each sees the other's rows as in flight, never as done), so the second
 * is refused with a message naming the first. A lock whose pid is no longer running on this host was left
 * by a killed run and is taken over; one from another host cannot be checked and is never taken over.
 */
export function lockOutput(outputPath: string, command: string): BatchLock {
  const path = `${outputPath}.lock`;
  const owner: LockOwner = {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date().toISOString(),
    command,
  };
  let tookOverFrom: number | undefined;
  // Two attempts: the second follows the removal of a dead run's lock.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    let fd: number;
    try {
      fd = openSync(path, "wx");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST")
        throw new CliError(
          `cannot create the lock file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        );
      const other = readOwner(path);
      if (other === undefined)
        throw new CliError(
          `${path} exists but does not name the run that holds it (it may be starting now). If no other sapling batch writes this output, delete ${path} and run again.`,
        );
      if (other.host === owner.host && !isRunning(other.pid) && attempt === 0) {
        removeIfUnchanged(path, other);
        tookOverFrom = other.pid;
        continue;
      }
      throw new CliError(
        `another sapling batch is writing ${outputPath}: pid ${other.pid} on ${other.host}, started ${other.startedAt} (${other.command}). Wait for it to end or stop it: two runs on one output would both pay for every row. If that run is gone, delete ${path}.`,
      );
    }
    try {
      writeSync(fd, `${JSON.stringify(owner)}\n`);
    } finally {
      closeSync(fd);
    }
    return { release: () => removeIfUnchanged(path, owner), tookOverFrom };
  }
  throw new CliError(`could not take the lock ${path}: another run took it at the same moment`);
}

function readOwner(path: string): LockOwner | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as Partial<LockOwner>;
    return typeof parsed.pid === "number" && typeof parsed.host === "string"
      ? {
          pid: parsed.pid,
          host: parsed.host,
          startedAt: String(parsed.startedAt),
          command: String(parsed.command),
        }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a process runs (signal 0 checks without sending; EPERM means it runs as another user). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes the lock only while it still names `owner`, so that a run never removes another's lock. */
function removeIfUnchanged(path: string, owner: LockOwner): void {
  const current = readOwner(path);
  if (current?.pid !== owner.pid || current.startedAt !== owner.startedAt) return;
  try {
    unlinkSync(path);
  } catch {
    // Already gone: nothing to release.
  }
}
