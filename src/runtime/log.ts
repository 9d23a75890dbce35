/**
 * Log levels and the console logger. Levels and their names are BAML's (`BAML_LOG`: trace, debug, info,
 * warn, error, off). What each level holds is Sapling's (docs/decisions/0017-log-levels.md): `info` is one
 * line per call — function, client, status, latency, tokens, cost, repairs — and the rendered prompt and
 * raw answer appear at `debug`, secrets removed. The runtime never reads `process`: the generated client
 * reads `BAML_LOG` / `BAML_LOG_JSON` where a `process` exists and passes the level and this logger.
 */

export type LogLevel = "trace" | "debug" | "info" | "warn" | "error" | "off";

/** A level a line is written at (`off` only silences). */
export type LineLevel = Exclude<LogLevel, "off">;

/** Data of a line, for JSON output (the message says the same for people). */
export type LogFields = Record<string, unknown>;

/** Receives every line at or above the runtime's level; `fields` carry the same facts as data. */
export type RuntimeLogger = (level: LineLevel, message: string, fields?: LogFields) => void;

const rank: Record<LogLevel, number> = { trace: 0, debug: 1, info: 2, warn: 3, error: 4, off: 5 };

/** `BAML_LOG`'s value as a level (any case); `undefined` for anything else. */
export function parseLogLevel(value: string | undefined): LogLevel | undefined {
  const level = value?.trim().toLowerCase();
  return level !== undefined && Object.hasOwn(rank, level) ? (level as LogLevel) : undefined;
}

let processLogLevel: LogLevel = "info";

/**
 * BAML's package-level `setLogLevel`: the level of every runtime not given one of its own (`logLevel`,
 * `runtime.setLogLevel`) in this process. The generated client sets it from `BAML_LOG` when it loads.
 */
export function setLogLevel(level: LogLevel): void {
  processLogLevel = level;
}

/** BAML's package-level `getLogLevel`: the level `setLogLevel` set (default `info`). */
export function getLogLevel(): LogLevel {
  return processLogLevel;
}

/** Whether a line at `level` passes `threshold`. */
export function isLogged(threshold: LogLevel, level: LineLevel): boolean {
  return rank[level] >= rank[threshold];
}

export interface ConsoleLoggerOptions {
  /** One JSON object per line (`BAML_LOG_JSON=true`): `{ time, level, message, …fields }`. */
  json?: boolean;
  /** Where lines go (default `console.error`: stderr on Node, the console in browsers). */
  write?: (line: string) => void;
  /** Wall clock for the timestamp (default `Date.now`). */
  clock?: () => number;
}

/** Writes lines as `2026-12-01T23:40:00.000Z [sapling info] message`, or as JSON lines. */
export function createConsoleLogger(options: ConsoleLoggerOptions = {}): RuntimeLogger {
  const write = options.write ?? ((line: string) => console.error(line));
  const clock = options.clock ?? Date.now;
  return (level, message, fields = {}) => {
    const time = new Date(clock()).toISOString();
    write(
      options.json === true
        ? JSON.stringify({ time, level, message, ...fields })
        : `${time} [sapling ${level}] ${message}`,
    );
  };
}
