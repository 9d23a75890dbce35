/**
 * What each wire format contributes: how to shape the request, read a whole answer, and read a stream.
 * Everything else (options, roles, media download, fetch, timeouts, errors) is shared by all providers in
 * `http-language-model.ts`, so an adapter is pure data shaping and easy to test on recorded fixtures.
 */

import type { ReasoningReader } from "../../provider-helpers/index.js";
import type { ChatMessage, MediaKind } from "../../util/index.js";
import type { MediaUrlMode } from "../client-options.js";
import type { FinishReason, ModelUsage, ProviderRequest } from "../language-model.js";
import type { SseEvent } from "../sse-decoder.js";
import type { ToolCallWire } from "../tool-calls.js";

/** A whole answer, read from a JSON body (or accumulated from a stream). */
export interface ProviderAnswer {
  text: string;
  rawFinishReason: string | undefined;
  finishReason: FinishReason;
  usage: ModelUsage;
  model: string | undefined;
}

/** Reads one provider's SSE events in order. */
export interface ProviderStreamReader {
  /** The text this event adds (possibly empty). Throws `ResponseShapeError` or `ProviderStreamError`. */
  push(event: SseEvent): string;
  /** The finish reason, usage and model gathered so far. */
  result(): Omit<ProviderAnswer, "text">;
}

/**
 * Turns a stream body that is not Server-Sent Events (Bedrock's binary event stream) into SSE-shaped events
 * (`event` = the event's type, `data` = its payload text) for the adapter's `ProviderStreamReader`. Throws
 * `ResponseShapeError` for bytes it cannot decode and `ProviderStreamError` for an error the provider sent
 * in the stream.
 */
export interface StreamDecoder {
  /** Decodes a chunk of the body (split anywhere); returns the events it completed. */
  push(chunk: Uint8Array): SseEvent[];
  /** The body ended: the last events, or a throw when it ended inside one. */
  end(): SseEvent[];
}

export interface ProviderAdapter {
  /** The requested model, if any. */
  readonly modelId: string | undefined;
  /** How media given by URL is sent when `media_url_handler` says nothing for that kind. */
  defaultMediaUrlMode(kind: MediaKind): MediaUrlMode;
  /** Shapes the request from messages whose roles and media are already resolved. */
  buildRequest(messages: readonly ChatMessage[], stream: boolean): ProviderRequest;
  /** Throws `ResponseShapeError` when the JSON does not have the provider's shape. */
  parseResponse(body: unknown): ProviderAnswer;
  createStreamReader(): ProviderStreamReader;
  /** Writes tools and enforced schemas into requests and reads tool calls back (`*-tool-calls.ts`). */
  toolCalls?: ToolCallWire;
  /** Reads the model's reasoning text, for wire formats that carry it. */
  reasoning?: ReasoningReader;
  /** Reads a stream body that is not SSE (absent: the body is SSE). */
  createStreamDecoder?(): StreamDecoder;
  /**
   * Finishes a shaped request with credentials that need I/O or async crypto (an OAuth access token, a
   * request signature), so `buildRequest` stays synchronous data shaping. Called for every request that is
   * sent or shown (`b.request`), after `buildRequest`. Throws an `LlmError` when no credential can be had.
   */
  authorize?(request: ProviderRequest, context: AuthorizeContext): Promise<ProviderRequest>;
}

/** What `authorize` may use: the model's injected `fetch` and the caller's abort signal. */
export interface AuthorizeContext {
  fetch: typeof fetch;
  signal?: AbortSignal;
}
