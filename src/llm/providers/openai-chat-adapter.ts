/**
 * The OpenAI chat-completions wire format, shared by `openai`, `openai-generic`, `azure-openai`, `ollama`
 * and `openrouter` (they differ only in URL, auth header and defaults). Streaming asks for
 * `stream_options.include_usage`, so the last chunk (with empty `choices`) carries the usage.
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
  toRoleTurns,
  turnText,
  withQuery,
} from "../../provider-helpers/index.js";
import type { ChatMessage, MediaKind, MediaValue } from "../../util/index.js";
import type { ClientOptions, MediaUrlMode } from "../client-options.js";
import type { FinishReason, ModelUsage, ProviderRequest } from "../language-model.js";
import { openAiChatReasoning } from "./openai-chat-reasoning.js";
import { openAiChatToolCalls } from "./openai-chat-tool-calls.js";
import type { ProviderAdapter, ProviderAnswer, ProviderStreamReader } from "./provider-adapter.js";

export interface OpenAiChatSettings {
  provider: string;
  /** The full endpoint without query (`…/chat/completions`). */
  url: string;
  /** Auth and fixed headers, before the client's `headers` option (which wins). */
  headers: Record<string, string>;
  /** Query parameters before `query_params` (Azure's `api-version`). */
  query: Record<string, string>;
  options: ClientOptions;
  /**
   * Body fields the provider sends unless the client's options set them (Azure's `max_tokens` 4096, as
   * BAML); an option set to `null` removes the field.
   */
  defaults?: Record<string, unknown>;
}

export function createOpenAiChatAdapter(settings: OpenAiChatSettings): ProviderAdapter {
  const { options, provider } = settings;
  return {
    modelId: options.model,
    defaultMediaUrlMode: (kind: MediaKind): MediaUrlMode => (kind === "image" ? "send_url" : "send_base64"),
    buildRequest(messages: readonly ChatMessage[], stream: boolean): ProviderRequest {
      const defaults = settings.defaults ?? {};
      const body = optionFields(options.model, options.passthrough, stream, defaults);
      for (const name of Object.keys(defaults)) if (body[name] === null) delete body[name];
      // `stream_options` is rejected on non-streaming calls; a streaming call sends it after the messages.
      delete body.stream_options;
      body.messages = toRoleTurns(messages).map((turn) => toOpenAiMessage(turn, provider));
      if (stream) {
        body.stream = true;
        const userStreamOptions = isRecord(options.passthrough.stream_options)
          ? options.passthrough.stream_options
          : {};
        body.stream_options = { include_usage: true, ...userStreamOptions };
      }
      return {
        url: withQuery(settings.url, { ...settings.query, ...options.queryParams }),
        method: "POST",
        headers: mergeHeaders({ "content-type": "application/json" }, settings.headers, options.headers),
        body,
      };
    },
    parseResponse(body: unknown): ProviderAnswer {
      if (!isRecord(body) || !Array.isArray(body.choices)) {
        throw new ResponseShapeError("expected a chat completion object with a `choices` array");
      }
      const choice = body.choices[0];
      if (!isRecord(choice) || !isRecord(choice.message)) {
        throw new ResponseShapeError("expected `choices[0].message`");
      }
      const content = choice.message.content;
      const text =
        typeof content === "string" ? content : Array.isArray(content) ? joinContentParts(content) : "";
      const rawFinishReason = typeof choice.finish_reason === "string" ? choice.finish_reason : undefined;
      return {
        text,
        rawFinishReason,
        finishReason: mapOpenAiFinishReason(rawFinishReason),
        usage: readOpenAiUsage(body.usage),
        model: typeof body.model === "string" ? body.model : options.model,
      };
    },
    toolCalls: openAiChatToolCalls,
    reasoning: openAiChatReasoning,
    createStreamReader(): ProviderStreamReader {
      let rawFinishReason: string | undefined;
      let usage: ModelUsage = { inputTokens: undefined, outputTokens: undefined };
      let model = options.model;
      return {
        push(event) {
          if (event.data === "[DONE]") return "";
          let chunk: unknown;
          try {
            chunk = JSON.parse(event.data);
          } catch {
            throw new ResponseShapeError("an SSE event's data is not JSON");
          }
          if (!isRecord(chunk)) throw new ResponseShapeError("an SSE event's data is not a JSON object");
          if (chunk.error !== undefined) {
            const error = chunk.error;
            const status = isRecord(error) ? (optionalNumber(error.code) ?? 500) : 500;
            throw new ProviderStreamError(
              status >= 400 && status < 600 ? status : 500,
              JSON.stringify(error),
            );
          }
          if (typeof chunk.model === "string" && chunk.model !== "") model = chunk.model;
          if (chunk.usage !== undefined && chunk.usage !== null) usage = readOpenAiUsage(chunk.usage);
          if (!Array.isArray(chunk.choices))
            throw new ResponseShapeError("a stream chunk has no `choices` array");
          const choice = chunk.choices[0];
          if (!isRecord(choice)) return "";
          if (typeof choice.finish_reason === "string") rawFinishReason = choice.finish_reason;
          const delta = choice.delta;
          return isRecord(delta) && typeof delta.content === "string" ? delta.content : "";
        },
        result() {
          return { rawFinishReason, finishReason: mapOpenAiFinishReason(rawFinishReason), usage, model };
        },
      };
    },
  };
}

/**
 * One chat message per role turn, content as typed parts, each carrying its rendered message's metadata
 * (as BAML sends it). `openai-generic` sends a text-only turn without metadata as a string, as BAML does
 * (local servers, older vLLM and llama.cpp, often accept only string content); metadata the client filters
 * out still counts as metadata there (`{}`, see apply-role-policy.ts).
 */
function toOpenAiMessage(turn: RoleTurn, provider: string): Record<string, unknown> {
  const plain =
    provider === "openai-generic" &&
    turn.parts.every(({ part, metadata }) => part.type === "text" && metadata === undefined);
  const content = plain
    ? turnText(turn)
    : turn.parts.map(({ part, metadata }) => ({
        ...(part.type === "text"
          ? { type: "text", text: part.text }
          : toOpenAiMediaPart(part.media, provider)),
        ...metadata,
      }));
  return { role: turn.role, content };
}

function toOpenAiMediaPart(media: MediaValue, provider: string): Record<string, unknown> {
  const fail = (detail: string): never => {
    throw new LlmOptionsError(`media_url_handler.${media.type}`, detail, { provider });
  };
  const dataUrl =
    media.base64 !== undefined ? `data:${media.mediaType ?? ""};base64,${media.base64}` : undefined;
  switch (media.type) {
    case "image":
      return { type: "image_url", image_url: { url: media.url ?? dataUrl } };
    case "audio": {
      if (media.base64 === undefined)
        return fail("OpenAI chat accepts audio only as base64; use send_base64.");
      const format = (media.mediaType ?? "audio/wav")
        .split("/")[1]
        ?.replace(/^x-/, "")
        .replace("mpeg", "mp3");
      return { type: "input_audio", input_audio: { data: media.base64, format } };
    }
    case "pdf":
      if (dataUrl === undefined) return fail("OpenAI chat accepts PDFs only as base64; use send_base64.");
      return { type: "file", file: { filename: "document.pdf", file_data: dataUrl } };
    case "video":
      return fail("OpenAI chat completions do not accept video input.");
  }
}

function joinContentParts(parts: unknown[]): string {
  return parts.map((part) => (isRecord(part) && typeof part.text === "string" ? part.text : "")).join("");
}

function readOpenAiUsage(usage: unknown): ModelUsage {
  if (!isRecord(usage)) return { inputTokens: undefined, outputTokens: undefined };
  const result: ModelUsage = {
    inputTokens: optionalNumber(usage.prompt_tokens),
    outputTokens: optionalNumber(usage.completion_tokens),
  };
  const cached = isRecord(usage.prompt_tokens_details)
    ? optionalNumber(usage.prompt_tokens_details.cached_tokens)
    : undefined;
  if (cached !== undefined) result.cachedInputTokens = cached;
  const reasoning = isRecord(usage.completion_tokens_details)
    ? optionalNumber(usage.completion_tokens_details.reasoning_tokens)
    : undefined;
  if (reasoning !== undefined) result.reasoningTokens = reasoning;
  return result;
}

export function mapOpenAiFinishReason(raw: string | undefined): FinishReason {
  switch (raw) {
    case undefined:
      return "unknown";
    case "stop":
      return "stop";
    case "length":
      return "length";
    case "content_filter":
      return "content-filter";
    case "tool_calls":
    case "function_call":
      return "tool-calls";
    default:
      return "other";
  }
}
