/**
 * What each wire format contributes: how to shape the request, read a whole answer, and read a stream.
 * Everything else (options, roles, media download, fetch, timeouts, errors) is shared by all providers in
 * `http-language-model.ts`, so an adapter is pure data shaping and easy to test on recorded fixtures.
 */
import type { ChatMessage, MediaKind } from "../../util/index.js";
import { hasErrorMark, markError } from "../../util/index.js";
import type { MediaUrlMode } from "../client-options.js";
import type { FinishReason, ModelUsage, ProviderRequest } from "../language-model.js";
import type { SseEvent } from "../sse-decoder.js";
import type { ToolCallWire } from "../tool-calls.js";
import type { ReasoningReader } from "./reasoning-reader.js";

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

/** The answer does not have the documented shape; the model turns it into `LlmMalformedResponseError`. */
export class ResponseShapeError extends Error {
  constructor(...args: ConstructorParameters<typeof Error>) {
    super(...args);
    markError(this, "ResponseShapeError");
  }

  override name = "ResponseShapeError";

  /** `instanceof` that also works across two copies of the package. */
  static isInstance(value: unknown): value is ResponseShapeError {
    return hasErrorMark(value, "ResponseShapeError");
  }
}

/** The provider reported a failure inside a stream (an `error` event); becomes `LlmHttpError`. */
export class ProviderStreamError extends Error {
  override name = "ProviderStreamError";
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`provider error event: ${body}`);
    markError(this, "ProviderStreamError");
  }

  /** `instanceof` that also works across two copies of the package. */
  static isInstance(value: unknown): value is ProviderStreamError {
    return hasErrorMark(value, "ProviderStreamError");
  }
}

/** A number field, or `undefined` when absent (usage fields are often missing on compatible servers). */
export function optionalNumber(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The option fields of a request body, in the order BAML 0.226.2 sends them: the client's options as
 * written (`model` among them), then each provider default the options leave unset. A `stream` the
 * options name keeps its place but says what the call does (`stream false` on a streaming call sends
 * `true`); an adapter adds `stream` after the messages when the options do not name it.
 */
export function optionFields(
  model: string | undefined,
  passthrough: Readonly<Record<string, unknown>>,
  stream: boolean,
  defaults: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (model !== undefined && !("model" in passthrough)) body.model = model;
  Object.assign(body, passthrough);
  for (const [name, value] of Object.entries(defaults)) if (!(name in body)) body[name] = value;
  if ("stream" in body) body.stream = stream;
  return body;
}

/** Appends `query` (already-encoded values are encoded again: pass raw strings) to `url`. */
export function withQuery(url: string, query: Readonly<Record<string, string>>): string {
  const entries = Object.entries(query);
  if (entries.length === 0) return url;
  const encoded = entries.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  return `${url}${url.includes("?") ? "&" : "?"}${encoded.join("&")}`;
}

/** The text parts of a message, joined (media parts skipped). */
export function messageText(message: ChatMessage): string {
  let text = "";
  for (const part of message.parts) if (part.type === "text") text += part.text;
  return text;
}

/** Merges header maps left to right with lower-cased names, so a client's `Content-Type` replaces ours. */
export function mergeHeaders(...maps: Readonly<Record<string, string>>[]): Record<string, string> {
  const result: Record<string, string> = {};
  for (const map of maps) for (const [name, value] of Object.entries(map)) result[name.toLowerCase()] = value;
  return result;
}
