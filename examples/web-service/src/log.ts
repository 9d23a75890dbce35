/** One structured log event: a name, a level, and flat fields (what log pipelines index). */
export type LogEvent = { event: string; level?: "info" | "warn" | "error" } & Record<string, unknown>;

export type Logger = (event: LogEvent) => void;

/**
 * A logger that writes one JSON object per line with a timestamp — the format Datadog, Loki, CloudWatch and
 * `jq` read without configuration.
 */
export function jsonLineLogger(write: (line: string) => void): Logger {
  return (event) => {
    write(`${JSON.stringify({ time: new Date().toISOString(), level: "info", ...event })}\n`);
  };
}
