/**
 * OpenAI's Responses API (`POST {base_url}/responses`), used by the `openai-responses` provider. Messages
 * become `input` items with typed parts (`input_text` / `input_image` / `input_file`; assistant turns
 * `output_text`). The answer is the `output_text` parts of the `message` output items (reasoning items are
 * skipped). The stream is named events: `response.output_text.delta` carries text, and the terminal
 * `response.completed` / `response.incomplete` carries the whole response (status, usage, model); `error`
 * and `response.failed` are provider failures. There is no `[DONE]` sentinel.
 *
 * The raw finish reason is the response `status` (`completed`, `incomplete`, …), as BAML reports it; the
 * normalized one also reads `incomplete_details.reason` (`max_output_tokens` → length).
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
  withQuery,
} from "../../provider-helpers/index.js";
import type { ChatMessage, MediaKind, MediaValue } from "../../util/index.js";
import type { ClientOptions, MediaUrlMode } from "../client-options.js";
import type { FinishReason, ModelUsage, ProviderRequest } from "../language-model.js";
import { openAiResponsesReasoning } from "./openai-responses-reasoning.js";
import { openAiResponsesToolCalls } from "./openai-responses-tool-calls.js";
import type { ProviderAdapter, ProviderAnswer, ProviderStreamReader } from "./provider-adapter.js";
import { readTypedEvent } from "./read-typed-event.js";

export interface OpenAiResponsesSettings {
  provider: string;
  /** The full endpoint without query (`…/responses`). */
  url: string;
  /** Auth and fixed headers, before the client's `headers` option (which wins). */
  headers: Record<string, string>;
  options: ClientOptions;
}

/** Chat-completions spellings of the output limit, renamed to the Responses API's `max_output_tokens`. */
const outputLimitAliases = ["max_tokens", "max_completion_tokens"] as const;

/** HTTP statuses for the error codes the Responses API reports inside a stream or a failed response. */
const errorCodeStatus: Record<string, number> = {
  invalid_request_error: 400,
  invalid_prompt: 400,
  context_length_exceeded: 400,
  authentication_error: 401,
  permission_denied: 403,
  not_found: 404,
  rate_limit_exceeded: 429,
  insufficient_quota: 429,
  server_error: 500,
  vector_store_timeout: 504,
};

export function createOpenAiResponsesAdapter(settings: OpenAiResponsesSettings): ProviderAdapter {
  const { options, provider } = settings;
  const passthrough = withOutputLimit(options.passthrough, provider);
  return {
    modelId: options.model,
    defaultMediaUrlMode: (kind: MediaKind): MediaUrlMode => (kind === "image" ? "send_url" : "send_base64"),
    buildRequest(messages: readonly ChatMessage[], stream: boolean): ProviderRequest {
      const body = optionFields(options.model, passthrough, stream);
      // `stream_options` is only valid on streaming calls.
      if (!stream) delete body.stream_options;
      body.input = toRoleTurns(messages).map((turn) => toInputItem(turn, provider));
      if (stream) body.stream = true;
      return {
        url: withQuery(settings.url, options.queryParams),
        method: "POST",
        headers: mergeHeaders({ "content-type": "application/json" }, settings.headers, options.headers),
        body,
      };
    },
    parseResponse(body: unknown): ProviderAnswer {
      if (!isRecord(body) || !Array.isArray(body.output)) {
        throw new ResponseShapeError("expected a response object with an `output` array");
      }
      if (body.status === "failed") throw failure(body.error ?? body);
      return { text: outputText(body.output), ...readOutcome(body, options.model) };
    },
    toolCalls: openAiResponsesToolCalls,
    reasoning: openAiResponsesReasoning,
    createStreamReader(): ProviderStreamReader {
      let outcome: Omit<ProviderAnswer, "text"> = {
        rawFinishReason: undefined,
        finishReason: "unknown",
        usage: { inputTokens: undefined, outputTokens: undefined },
        model: options.model,
      };
      let sawDelta = false;
      return {
        push(event) {
          // Not part of the Responses API, but some compatible gateways end every stream with it.
          if (event.data === "[DONE]") return "";
          const data = readTypedEvent(event);
          switch (data.type) {
            case "response.output_text.delta":
              if (typeof data.delta !== "string") {
                throw new ResponseShapeError("a `response.output_text.delta` event has no string `delta`");
              }
              sawDelta = true;
              return data.delta;
            case "response.created":
            case "response.queued":
            case "response.in_progress":
              if (isRecord(data.response) && typeof data.response.model === "string") {
                outcome = { ...outcome, model: data.response.model };
              }
              return "";
            case "response.completed":
            case "response.incomplete": {
              const response = data.response;
              if (!isRecord(response)) {
                throw new ResponseShapeError(`a \`${data.type}\` event has no \`response\` object`);
              }
              outcome = readOutcome(response, outcome.model);
              // A server that sends only the final response still delivers its text.
              return !sawDelta && Array.isArray(response.output) ? outputText(response.output) : "";
            }
            case "response.failed":
              throw failure(isRecord(data.response) ? (data.response.error ?? data.response) : data);
            case "error":
              throw failure({ code: data.code, message: data.message, param: data.param });
            default:
              // output_item / content_part / output_text.done / reasoning events, and types added later.
              return "";
          }
        },
        result() {
          return outcome;
        },
      };
    },
  };
}

/** The client's options with `max_tokens` (or `max_completion_tokens`) renamed to `max_output_tokens`. */
function withOutputLimit(passthrough: Record<string, unknown>, provider: string): Record<string, unknown> {
  const given = ["max_output_tokens", ...outputLimitAliases].filter((key) => passthrough[key] !== undefined);
  if (given.length > 1) {
    throw new LlmOptionsError(
      given[1] as string,
      `conflicts with ${given[0]}: the Responses API has one output limit, max_output_tokens. Keep only one.`,
      { provider },
    );
  }
  const alias = outputLimitAliases.find((key) => passthrough[key] !== undefined);
  if (alias === undefined) return passthrough;
  const { [alias]: limit, ...rest } = passthrough;
  return { ...rest, max_output_tokens: limit };
}

/** One input item per role turn; each part carries its rendered message's role metadata, as in BAML. */
function toInputItem(turn: RoleTurn, provider: string): Record<string, unknown> {
  const assistant = turn.role === "assistant";
  const content = turn.parts.map(({ part, metadata }) => {
    if (part.type === "text") {
      return { type: assistant ? "output_text" : "input_text", text: part.text, ...metadata };
    }
    if (assistant) {
      throw new LlmOptionsError("media", "the Responses API accepts media only in user or system turns.", {
        provider,
      });
    }
    return { ...toMediaPart(part.media, provider), ...metadata };
  });
  return { role: turn.role, content };
}

function toMediaPart(media: MediaValue, provider: string): Record<string, unknown> {
  const dataUrl =
    media.base64 !== undefined ? `data:${media.mediaType ?? ""};base64,${media.base64}` : undefined;
  switch (media.type) {
    case "image":
      return { type: "input_image", detail: "auto", image_url: media.url ?? dataUrl };
    case "pdf":
      return dataUrl !== undefined
        ? { type: "input_file", filename: "document.pdf", file_data: dataUrl }
        : { type: "input_file", file_url: media.url };
    case "audio":
    case "video":
      throw new LlmOptionsError(
        "media",
        `the Responses API does not accept ${media.type} input (only images and PDFs); use provider openai for audio.`,
        { provider },
      );
  }
}

/** The `output_text` parts of the `message` output items, in order. */
function outputText(output: unknown[]): string {
  let text = "";
  for (const item of output) {
    if (!isRecord(item) || item.type !== "message" || !Array.isArray(item.content)) continue;
    for (const part of item.content) {
      if (isRecord(part) && part.type === "output_text" && typeof part.text === "string") text += part.text;
    }
  }
  return text;
}

function readOutcome(response: Record<string, unknown>, fallbackModel: string | undefined) {
  const rawFinishReason = typeof response.status === "string" ? response.status : undefined;
  const incompleteReason = isRecord(response.incomplete_details)
    ? response.incomplete_details.reason
    : undefined;
  const calledTool =
    Array.isArray(response.output) &&
    response.output.some((item) => isRecord(item) && item.type === "function_call");
  return {
    rawFinishReason,
    finishReason: mapResponsesFinishReason(rawFinishReason, incompleteReason, calledTool),
    usage: readResponsesUsage(response.usage),
    model: typeof response.model === "string" ? response.model : fallbackModel,
  };
}

function readResponsesUsage(usage: unknown): ModelUsage {
  if (!isRecord(usage)) return { inputTokens: undefined, outputTokens: undefined };
  const result: ModelUsage = {
    inputTokens: optionalNumber(usage.input_tokens),
    outputTokens: optionalNumber(usage.output_tokens),
  };
  const cached = isRecord(usage.input_tokens_details)
    ? optionalNumber(usage.input_tokens_details.cached_tokens)
    : undefined;
  if (cached !== undefined) result.cachedInputTokens = cached;
  const reasoning = isRecord(usage.output_tokens_details)
    ? optionalNumber(usage.output_tokens_details.reasoning_tokens)
    : undefined;
  if (reasoning !== undefined) result.reasoningTokens = reasoning;
  return result;
}

/** Normalizes a response `status` (with `incomplete_details.reason` for `incomplete`). */
export function mapResponsesFinishReason(
  status: string | undefined,
  incompleteReason: unknown,
  calledTool = false,
): FinishReason {
  switch (status) {
    case undefined:
      return "unknown";
    case "completed":
      return calledTool ? "tool-calls" : "stop";
    case "incomplete":
      if (incompleteReason === "max_output_tokens") return "length";
      if (incompleteReason === "content_filter") return "content-filter";
      return "other";
    case "failed":
      return "error";
    default:
      return "other";
  }
}

/** A failure the provider reported in a 200 answer, with the HTTP status its error code stands for. */
function failure(error: unknown): ProviderStreamError {
  const code = isRecord(error) ? error.code : undefined;
  const numeric = typeof code === "string" ? Number(code) : optionalNumber(code);
  const status =
    typeof code === "string" && errorCodeStatus[code] !== undefined
      ? (errorCodeStatus[code] as number)
      : numeric !== undefined && numeric >= 400 && numeric < 600
        ? numeric
        : 500;
  return new ProviderStreamError(status, JSON.stringify(error));
}
