import { hasErrorMark, markError } from "../util/index.js";
/** Everything a command may touch outside itself; `main` builds the real one, tests a captured one. */
export interface CliContext {
  cwd: string;
  env: Record<string, string | undefined>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Reads all of standard input. */
  readStdin: () => Promise<string>;
  /** Resolves when the user interrupts (Ctrl-C); long-running commands (serve, watch) stop on it. */
  interrupted: Promise<void>;
  /** Whether stdout is a terminal (live progress displays rewrite lines only then; absent means no). */
  isTTY?: boolean;
}

/**
 * What a command module exports. Its name and one-line summary live in the command table (`commands.ts`),
 * so that `sapling --help` lists every command without loading any of them.
 */
export interface Command {
  /** The usage block printed by `sapling help NAME` and after a usage error. */
  usage: string;
  /** Returns the process exit code. */
  run: (argv: string[], context: CliContext) => Promise<number>;
}

/** A mistake in how the command was called: printed as one line plus the usage, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
    markError(this, "UsageError");
  }

  /** `instanceof` that also works across two copies of the package. */
  static isInstance(value: unknown): value is UsageError {
    return hasErrorMark(value, "UsageError");
  }
}

/** A failure the user can act on (missing folder, bad file): printed as one line, exit code 1. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = "CliError";
    markError(this, "CliError");
  }

  /** `instanceof` that also works across two copies of the package. */
  static isInstance(value: unknown): value is CliError {
    return hasErrorMark(value, "CliError");
  }
}

/** A context that records output, for tests. */
export function captureContext(overrides: Partial<CliContext> & { stdin?: string } = {}): CliContext & {
  output: () => { stdout: string; stderr: string };
} {
  let stdout = "";
  let stderr = "";
  return {
    cwd: overrides.cwd ?? process.cwd(),
    env: overrides.env ?? {},
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    readStdin: overrides.readStdin ?? (async () => overrides.stdin ?? ""),
    interrupted: overrides.interrupted ?? new Promise<void>(() => {}),
    ...(overrides.isTTY !== undefined ? { isTTY: overrides.isTTY } : {}),
    output: () => ({ stdout, stderr }),
  };
}
