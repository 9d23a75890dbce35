/**
 * Typed failures of one model call. Each class has a stable `code` the runtime can branch on (and map to its
 * BAML-compatible errors), and `isInstance` works across copies of the package (a brand, not `instanceof`).
 * Messages and fields never contain API keys: callers pass text through `redactSecrets` first. Here are the
 * base and the one failure the runtime entry itself reports (a lazy chunk that cannot load); the failures of a
 * request and its answer, which only code loaded with a call throws, are the `provider-helpers` room's
 * (llm-call-errors.ts, docs/decisions/0049-provider-helpers-room.md).
 */

import { hasErrorMark, markError } from "../util/index.js";

export type LlmErrorCode =
  | "llm_http_error"
  | "llm_timeout"
  | "llm_aborted"
  | "llm_connection_error"
  | "llm_malformed_response"
  | "llm_invalid_options"
  | "llm_media_error"
  | "llm_load_error";

/** Where a failure happened, for messages and collectors. */
export interface LlmErrorContext {
  provider: string;
  /** The request URL with secret query parameters redacted. */
  url?: string;
  cause?: unknown;
}

export class LlmError extends Error {
  readonly code: LlmErrorCode;
  readonly provider: string;
  readonly url: string | undefined;

  constructor(code: LlmErrorCode, message: string, context: LlmErrorContext) {
    super(message, context.cause === undefined ? undefined : { cause: context.cause });
    this.name = "LlmError";
    this.code = code;
    this.provider = context.provider;
    this.url = context.url;
    markError(this, "LlmError");
  }

  static isInstance(value: unknown): value is LlmError {
    return hasErrorMark(value, "LlmError");
  }
}

/**
 * Code Sapling loads on first use (a provider's adapter, the media URL downloader: a chunk of the bundle
 * behind an `import()`) could not be loaded: the chunk is not served next to the entry, or the network
 * failed. The cause is the loader's error.
 */
export class LlmLoadError extends LlmError {
  /** What was being loaded, e.g. `the adapters` or `the media URL downloader`. */
  readonly part: string;

  constructor(part: string, context: LlmErrorContext) {
    const cause = context.cause instanceof Error ? context.cause.message : String(context.cause);
    super(
      "llm_load_error",
      `${context.provider}: could not load ${part}, which Sapling loads on the first call that needs it: ${cause}. ` +
        "A bundled application must serve the bundle's chunk files next to its entry (a bundler writes them " +
        "beside it); retry once they are reachable.",
      context,
    );
    this.name = "LlmLoadError";
    this.part = part;
    markError(this, "LlmLoadError");
  }

  static override isInstance(value: unknown): value is LlmLoadError {
    return hasErrorMark(value, "LlmLoadError");
  }
}
