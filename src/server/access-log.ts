import { type CallSummary, type FunctionLog, formatCallFacts, summarizeCall } from "../runtime/index.js";
import type { ErrorBody } from "./error-response.js";

/** One line of the access log: a request, how it ended, and why when it failed. */
export interface AccessEntry {
  method: string;
  path: string;
  /** The HTTP status sent (a stream that failed or was aborted after its headers still says 200). */
  status: number;
  durationMs: number;
  /** `error`: the answer (or a stream's `error` event) was an error; `aborted`: the caller went away. */
  outcome: "ok" | "error" | "aborted";
  /** The error's stable code (`CLIENT_HTTP_ERROR`, `VALIDATION`…), when it failed. */
  code?: string;
  /** The error's message, when it failed. */
  reason?: string;
  /** Model calls: the answer was cut, and which fields it left incomplete. */
  truncated?: boolean;
  incompleteFields?: string[];
  /** Model calls: the per-call summary (client, latency, tokens, cost, repairs), as `sapling call` shows it. */
  call?: CallSummary;
}

/** Receives one entry per request, when its answer (or its stream) has ended. */
export type AccessListener = (entry: AccessEntry) => void;

/**
 * Collects what one request's access entry says and reports it once: at once for ordinary answers, when
 * the body ends for streams (which are `defer`red), including streams the caller abandoned.
 */
export class AccessRecord {
  #failure: ErrorBody | undefined;
  #log: FunctionLog | null = null;
  #deferred = false;
  #reported = false;
  readonly #started: number;

  constructor(
    private readonly request: Request,
    private readonly listener: AccessListener,
    private readonly now: () => number,
  ) {
    this.#started = now();
  }

  /** The request failed with this error body. */
  fail(failure: ErrorBody): void {
    this.#failure = failure;
  }

  /** The model call's log (for the truncation fields). */
  attach(log: FunctionLog | null): void {
    this.#log = log;
  }

  /** The body outlives the handler (a stream): `end` is called when it ends, not when it is returned. */
  defer(): void {
    this.#deferred = true;
  }

  /** The answer is returned; ends the entry unless it was deferred. */
  returned(status: number): void {
    if (!this.#deferred) this.end(status);
  }

  /** Reports the entry (once). */
  end(status: number, aborted = false): void {
    if (this.#reported) return;
    this.#reported = true;
    const url = new URL(this.request.url);
    const failure = this.#failure;
    const outcome =
      aborted || failure?.status === 499 ? "aborted" : failure || status >= 400 ? "error" : "ok";
    this.listener({
      method: this.request.method,
      path: url.pathname,
      status,
      durationMs: this.now() - this.#started,
      outcome,
      ...(failure ? { code: failure.code, reason: failure.message } : {}),
      ...(this.#log
        ? {
            truncated: this.#log.truncated,
            incompleteFields: [...this.#log.incompleteFields],
            // A call the caller abandoned is still running: it has no summary yet.
            ...(this.#log.timing.durationMs === null ? {} : { call: summarizeCall(this.#log) }),
          }
        : {}),
    });
  }
}

/** The entry as one line: `POST /call/Fn 502 49ms CLIENT_HTTP_ERROR: …` (the reason cut at 200 characters). */
export function formatAccessEntry(entry: AccessEntry): string {
  let line = `${entry.method} ${entry.path} ${entry.status} ${entry.durationMs.toFixed(0)}ms`;
  if (entry.outcome === "aborted") line += " aborted by the client";
  if (entry.code !== undefined && entry.outcome !== "aborted") {
    // Several attempts' reasons are on separate lines: one log line holds them all.
    const reason = (entry.reason ?? "").replace(/\s*\n\s*/g, " ").trim();
    line += ` ${entry.code}${reason ? `: ${reason.length > 200 ? `${reason.slice(0, 199)}…` : reason}` : ""}`;
  }
  if (entry.truncated) {
    const fields = entry.incompleteFields ?? [];
    line += ` truncated${fields.length > 0 ? ` (incomplete: ${fields.join(", ")})` : ""}`;
  }
  if (entry.call !== undefined) line += ` ${formatCallFacts(entry.call)}`;
  return line;
}
