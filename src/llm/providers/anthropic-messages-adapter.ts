/**
 * The Anthropic messages API: the opening system turn in the top-level `system` (text blocks, as BAML
 * sends it; see role-turns.ts), `max_tokens` required
 * (default 4096, as BAML), content as typed blocks. The stream is named events: `message_start` (model,
 * input usage), `content_block_delta` (text), `message_delta` (stop reason, cumulative output usage),
 * `message_stop`, plus `ping` and `error`.
 */

import {
  isRecord,
  LlmOptionsError,
  mergeHeaders,
  optionalNumber,
  optionFields,
  ProviderStreamError,
  ResponseShapeError,
  type RoleTurn,
  splitSystemTurn,
  withQuery,
} from "../../provider-helpers/index.js";
import type { ChatMessage, MediaKind, MediaValue } from "../../util/index.js";
import type { ClientOptions, MediaUrlMode } from "../client-options.js";
import type { FinishReason, ModelUsage, ProviderRequest } from "../language-model.js";
import { anthropicReasoning } from "./anthropic-reasoning.js";
import { anthropicToolCalls } from "./anthropic-tool-calls.js";
import type { ProviderAdapter, ProviderAnswer, ProviderStreamReader } from "./provider-adapter.js";
import { readTypedEvent } from "./read-typed-event.js";

export const anthropicVersion = "2023-06-01";
export const anthropicDefaultMaxTokens = 4096;

/** Anthropic's documented HTTP status for each error type, used for errors sent inside a stream. */
const errorTypeStatus: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

export function createAnthropicMessagesAdapter(options: ClientOptions, baseUrl: string): ProviderAdapter {
  const provider = "anthropic";
  return {
    modelId: options.model,
    defaultMediaUrlMode: (_kind: MediaKind): MediaUrlMode => "send_url",
    buildRequest(messages: readonly ChatMessage[], stream: boolean): ProviderRequest {
      const { system, conversation } = splitSystemTurn(messages);
      const body = optionFields(options.model, options.passthrough, stream, {
        max_tokens: anthropicDefaultMaxTokens,
      });
      if (system !== undefined) body.system = toBlocks(system, provider);
      body.messages = conversation.map((turn) => ({ role: turn.role, content: toBlocks(turn, provider) }));
      if (stream) body.stream = true;
      const headers: Record<string, string> = {
        "content-type": "application/json",
        "anthropic-version": anthropicVersion,
      };
      if (options.apiKey !== undefined) headers["x-api-key"] = options.apiKey;
      return {
        url: withQuery(`${baseUrl}/v1/messages`, options.queryParams),
        method: "POST",
        headers: mergeHeaders(headers, options.headers),
        body,
      };
    },
    parseResponse(body: unknown): ProviderAnswer {
      if (!isRecord(body) || !Array.isArray(body.content)) {
        throw new ResponseShapeError("expected a message object with a `content` array");
      }
      let text = "";
      for (const block of body.content) {
        if (isRecord(block) && block.type === "text" && typeof block.text === "string") text += block.text;
      }
      const rawFinishReason = typeof body.stop_reason === "string" ? body.stop_reason : undefined;
      return {
        text,
        rawFinishReason,
        finishReason: mapAnthropicFinishReason(rawFinishReason),
        usage: readAnthropicUsage(body.usage, { inputTokens: undefined, outputTokens: undefined }),
        model: typeof body.model === "string" ? body.model : options.model,
      };
    },
    toolCalls: anthropicToolCalls,
    reasoning: anthropicReasoning,
    createStreamReader(): ProviderStreamReader {
      let rawFinishReason: string | undefined;
      let usage: ModelUsage = { inputTokens: undefined, outputTokens: undefined };
      let model = options.model;
      return {
        push(event) {
          const data = readTypedEvent(event);
          switch (data.type) {
            case "message_start":
              if (isRecord(data.message)) {
                if (typeof data.message.model === "string") model = data.message.model;
                usage = readAnthropicUsage(data.message.usage, usage);
              }
              return "";
            case "content_block_start":
              return isRecord(data.content_block) &&
                data.content_block.type === "text" &&
                typeof data.content_block.text === "string"
                ? data.content_block.text
                : "";
            case "content_block_delta":
              return isRecord(data.delta) &&
                data.delta.type === "text_delta" &&
                typeof data.delta.text === "string"
                ? data.delta.text
                : "";
            case "message_delta":
              if (isRecord(data.delta) && typeof data.delta.stop_reason === "string") {
                rawFinishReason = data.delta.stop_reason;
              }
              usage = readAnthropicUsage(data.usage, usage);
              return "";
            case "error": {
              const errorType =
                isRecord(data.error) && typeof data.error.type === "string" ? data.error.type : "";
              throw new ProviderStreamError(errorTypeStatus[errorType] ?? 500, JSON.stringify(data.error));
            }
            default:
              // ping, content_block_stop, message_stop, and event types added later.
              return "";
          }
        },
        result() {
          return { rawFinishReason, finishReason: mapAnthropicFinishReason(rawFinishReason), usage, model };
        },
      };
    },
  };
}

/** A plain string when no block carries metadata (the common case), else text blocks. */
/**
 * A turn's content blocks. Role metadata goes on the last block of each rendered message, where Anthropic
 * reads `cache_control` (BAML puts it on every block; Anthropic allows four cache marks per request, so a
 * mark on each block of a longer message would be refused).
 */
function toBlocks(turn: RoleTurn, provider: string): Record<string, unknown>[] {
  return turn.parts.map(({ part, metadata, endsMessage }) => {
    const block =
      part.type === "text" ? { type: "text", text: part.text } : toMediaBlock(part.media, provider);
    return endsMessage && metadata !== undefined ? { ...block, ...metadata } : block;
  });
}

function toMediaBlock(media: MediaValue, provider: string): Record<string, unknown> {
  if (media.type !== "image" && media.type !== "pdf") {
    throw new LlmOptionsError(
      `media`,
      `Anthropic does not accept ${media.type} input (only images and PDFs).`,
      {
        provider,
      },
    );
  }
  const source =
    media.base64 !== undefined
      ? {
          type: "base64",
          media_type: media.mediaType ?? (media.type === "pdf" ? "application/pdf" : ""),
          data: media.base64,
        }
      : { type: "url", url: media.url };
  return { type: media.type === "image" ? "image" : "document", source };
}

/**
 * Anthropic counts cache reads and writes apart from `input_tokens`; Sapling's `inputTokens` includes them
 * (as OpenAI's and Gemini's do), so every provider's usage means the same.
 */
function readAnthropicUsage(usage: unknown, previous: ModelUsage): ModelUsage {
  if (!isRecord(usage)) return previous;
  const cached = optionalNumber(usage.cache_read_input_tokens) ?? previous.cachedInputTokens;
  const written = optionalNumber(usage.cache_creation_input_tokens) ?? previous.cacheWriteInputTokens;
  const uncached = optionalNumber(usage.input_tokens);
  const result: ModelUsage = {
    inputTokens: uncached === undefined ? previous.inputTokens : uncached + (cached ?? 0) + (written ?? 0),
    outputTokens: optionalNumber(usage.output_tokens) ?? previous.outputTokens,
  };
  if (cached !== undefined) result.cachedInputTokens = cached;
  if (written !== undefined) result.cacheWriteInputTokens = written;
  return result;
}

export function mapAnthropicFinishReason(raw: string | undefined): FinishReason {
  switch (raw) {
    case undefined:
      return "unknown";
    case "end_turn":
    case "stop_sequence":
      return "stop";
    case "max_tokens":
      return "length";
    case "tool_use":
      return "tool-calls";
    case "refusal":
      return "content-filter";
    default:
      return "other";
  }
}
