/**
 * The failures of one model request and its answer, subclasses of the `llm` room's `LlmError` (same `code`
 * and cross-copy `isInstance` conventions): thrown by the adapters, the HTTP model, option reading and the
 * media URL downloader, all of which load with a call's first request. They live here rather than beside
 * `LlmError` so that the `llm` door, which the runtime entry imports, does not ship them
 * (docs/decisions/0049-provider-helpers-room.md). Messages and fields never contain API keys: callers pass
 * text through `redactSecrets` first.
 */

import { LlmError, type LlmErrorContext } from "../llm/index.js";
import { hasErrorMark, markError } from "../util/index.js";

/** The provider answered with a non-2xx status. */
export class LlmHttpError extends LlmError {
  readonly status: number;
  /** The answer body (redacted, at most 4,000 characters). */
  readonly body: string;
  /** From `retry-after-ms` / `retry-after` (seconds or HTTP date), when the provider sent one. */
  readonly retryAfterMs: number | undefined;

  constructor(status: number, body: string, retryAfterMs: number | undefined, context: LlmErrorContext) {
    const hint =
      status === 401 || status === 403
        ? " Check the client's api_key (or the provider's default environment variable)."
        : status === 429
          ? " The provider is rate limiting; add a retry_policy or slow down."
          : status >= 500
            ? " The provider failed; a retry_policy or a fallback client can recover."
            : "";
    super(
      "llm_http_error",
      `${context.provider} answered HTTP ${status} for ${context.url ?? "the request"}.${hint} Body: ${summarize(body)}`,
      context,
    );
    this.name = "LlmHttpError";
    this.status = status;
    this.body = body.length > 4000 ? `${body.slice(0, 4000)}…` : body;
    this.retryAfterMs = retryAfterMs;
    markError(this, "LlmHttpError");
  }

  static override isInstance(value: unknown): value is LlmHttpError {
    return hasErrorMark(value, "LlmHttpError");
  }
}

/** Which of the client's `http` timeouts fired. */
export type TimeoutKind = "connect" | "request" | "time_to_first_token" | "idle" | "total";

export class LlmTimeoutError extends LlmError {
  readonly timeout: TimeoutKind;
  readonly timeoutMs: number;

  constructor(timeout: TimeoutKind, timeoutMs: number, context: LlmErrorContext) {
    super(
      "llm_timeout",
      `${context.provider} call exceeded ${timeout}_timeout_ms (${timeoutMs} ms) for ${context.url ?? "the request"}. Raise http { ${timeout}_timeout_ms } on the client if the model is just slow.`,
      context,
    );
    this.name = "LlmTimeoutError";
    this.timeout = timeout;
    this.timeoutMs = timeoutMs;
    markError(this, "LlmTimeoutError");
  }

  static override isInstance(value: unknown): value is LlmTimeoutError {
    return hasErrorMark(value, "LlmTimeoutError");
  }
}

/** The caller's `AbortSignal` fired. */
export class LlmAbortError extends LlmError {
  readonly reason: unknown;

  constructor(reason: unknown, context: LlmErrorContext) {
    super("llm_aborted", `${context.provider} call was aborted by the caller.`, context);
    this.name = "LlmAbortError";
    this.reason = reason;
    markError(this, "LlmAbortError");
  }

  static override isInstance(value: unknown): value is LlmAbortError {
    return hasErrorMark(value, "LlmAbortError");
  }
}

/** The connection failed: refused, reset (also mid-stream), DNS, TLS. */
export class LlmConnectionError extends LlmError {
  /** Whether the server had started answering (headers received) when the connection broke. */
  readonly afterResponse: boolean;

  constructor(detail: string, context: LlmErrorContext, options: { afterResponse?: boolean } = {}) {
    const where = context.url ?? "the provider";
    // Once the server has answered, base_url is right: the answer itself was interrupted.
    super(
      "llm_connection_error",
      options.afterResponse
        ? `${context.provider} connection to ${where} broke after the server had started answering: ${detail}. ` +
            "The server is reachable but the answer was cut off (the server or a proxy closed the connection); " +
            "retry, and check the server's logs if it keeps happening."
        : `${context.provider} connection to ${where} failed: ${detail}. Check base_url and that the server is reachable.`,
      context,
    );
    this.afterResponse = options.afterResponse === true;
    this.name = "LlmConnectionError";
    markError(this, "LlmConnectionError");
  }

  static override isInstance(value: unknown): value is LlmConnectionError {
    return hasErrorMark(value, "LlmConnectionError");
  }
}

/** The answer (a JSON body or an SSE event) does not have the provider's documented shape. */
export class LlmMalformedResponseError extends LlmError {
  /** The offending text (at most 2,000 characters). */
  readonly raw: string;

  constructor(detail: string, raw: string, context: LlmErrorContext) {
    super(
      "llm_malformed_response",
      `${context.provider} sent a malformed answer: ${detail}. Received: ${summarize(raw)}. Does base_url point at a server that speaks the ${context.provider} API?`,
      context,
    );
    this.name = "LlmMalformedResponseError";
    this.raw = raw.length > 2000 ? `${raw.slice(0, 2000)}…` : raw;
    markError(this, "LlmMalformedResponseError");
  }

  static override isInstance(value: unknown): value is LlmMalformedResponseError {
    return hasErrorMark(value, "LlmMalformedResponseError");
  }
}

/** A client option is missing or has the wrong shape (e.g. `openai-generic` without `base_url`). */
export class LlmOptionsError extends LlmError {
  readonly option: string;

  constructor(option: string, detail: string, context: LlmErrorContext) {
    super("llm_invalid_options", `${context.provider} client option \`${option}\`: ${detail}`, context);
    this.name = "LlmOptionsError";
    this.option = option;
    markError(this, "LlmOptionsError");
  }

  static override isInstance(value: unknown): value is LlmOptionsError {
    return hasErrorMark(value, "LlmOptionsError");
  }
}

/** Why a media URL was not used: refused by the policy, too large, too slow, or the media host failed. */
export type MediaFailure = "refused" | "too_large" | "timeout" | "http_status" | "connection";

/**
 * A media argument given by URL could not be used. The fault is the URL's (the caller's argument or its
 * host), never the model provider's; the message names the media host and what happened, and never
 * carries what the host sent (its body could be anything an internal service returns).
 */
export class LlmMediaError extends LlmError {
  readonly reason: MediaFailure;
  /** The media URL's host (`host:port`), as the caller wrote it. */
  readonly host: string;

  constructor(reason: MediaFailure, host: string, detail: string, context: LlmErrorContext) {
    super("llm_media_error", `media URL on host ${host}: ${detail}`, context);
    this.name = "LlmMediaError";
    this.reason = reason;
    this.host = host;
    markError(this, "LlmMediaError");
  }

  static override isInstance(value: unknown): value is LlmMediaError {
    return hasErrorMark(value, "LlmMediaError");
  }
}

function summarize(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat === "") return "(empty)";
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}
