import { createConsoleLogger, type LogLevel, parseLogLevel, type RuntimeLogger } from "../runtime/index.js";
import type { CliContext } from "./cli-context.js";

/**
 * The runtime's logger for `sapling call` and `sapling serve`: lines on stderr at `BAML_LOG`'s level
 * (default `warn`), JSON lines with `BAML_LOG_JSON=true`. Both commands print each call's summary
 * themselves (after the value; in the access log), so the runtime's own `info` summary line is skipped.
 */
export function cliLogger(
  env: Record<string, string | undefined>,
  context: CliContext,
): { logger: RuntimeLogger; logLevel: LogLevel } {
  const write = createConsoleLogger({
    json: /^(true|1)$/i.test(env.BAML_LOG_JSON ?? ""),
    write: (line) => context.stderr(`${line}\n`),
  });
  return {
    logger: (level, message, fields) => {
      if (fields?.event !== "call") write(level, message, fields);
    },
    logLevel: parseLogLevel(env.BAML_LOG) ?? "warn",
  };
}
