/**
 * How the mock server writes each provider's answers, following the documented wire formats: OpenAI chat
 * completions (chunks, then a usage chunk when `stream_options.include_usage`, then `[DONE]`), Anthropic
 * messages (named events), Gemini (`alt=sse` events that are each a whole GenerateContentResponse), OpenAI
 * Responses (named `response.*` events ending with the whole response, no `[DONE]`), Bedrock Converse
 * (binary event-stream frames, in `mock-bedrock-wire.ts`).
 */
import { anthropicErrorTypes } from "../util/index.js";
import type { MockRoute, MockToolCall } from "./mock-answer.js";
import { bedrockWire } from "./mock-bedrock-wire.js";
import { mockReasoningBlocks, mockReasoningFrames } from "./mock-reasoning.js";
import { endsWithToolCalls } from "./mock-tool-call-context.js";
import { responsesToolItems } from "./mock-tool-calls.js";

/** Everything a wire format needs to write one answer. */
export interface RenderContext {
  id: string;
  text: string;
  finishReason: "stop" | "length";
  /**
   * Totals, as Sapling reports them: `inputTokens` includes cache reads and writes, `outputTokens` includes
   * reasoning; each wire format writes them in its provider's own accounting.
   */
  usage: {
    inputTokens: number;
    outputTokens: number;
    cachedInputTokens?: number;
    cacheWriteInputTokens?: number;
    reasoningTokens?: number;
  };
  /** The reasoning text (`""`: none) and its stream chunks (see mock-reasoning.ts). */
  reasoning: string;
  reasoningChunks: readonly string[];
  /** The index of the answer's text block: after the reasoning block when there is one. */
  textIndex: number;
  model: string;
  /** The parsed request body. */
  request: Record<string, unknown>;
  /** Native tool calls sent after the text (mock-tool-calls.ts). */
  toolCalls?: readonly MockToolCall[];
}

export interface MockWireFormat {
  route: MockRoute;
  /** Whether this request asks for a stream. */
  isStream(path: string, query: URLSearchParams, body: Record<string, unknown>): boolean;
  requestedModel(path: string, body: Record<string, unknown>): string | undefined;
  completeBody(context: RenderContext): unknown;
  /** The stream's content type (default `text/event-stream`). */
  streamContentType?: string;
  /** Frames sent right after the headers, before the first text chunk. */
  streamStart(context: RenderContext): MockFrame[];
  streamChunk(context: RenderContext, text: string, index: number): MockFrame;
  streamEnd(context: RenderContext): MockFrame[];
  /** The `malformed` fault's frame: one whose data is cut-off JSON (default: such an SSE event). */
  malformedFrame?(): MockFrame;
  errorBody(status: number, message: string): unknown;
}

/** SSE text, or the bytes of a binary frame. */
export type MockFrame = string | Uint8Array;

export function sseFrame(data: unknown, event?: string): string {
  const text = typeof data === "string" ? data : JSON.stringify(data);
  return `${event === undefined ? "" : `event: ${event}\n`}data: ${text}\n\n`;
}

const openAiWire: MockWireFormat = {
  route: "openai",
  isStream: (_path, _query, body) => body.stream === true,
  requestedModel: (_path, body) => (typeof body.model === "string" ? body.model : undefined),
  completeBody: (context) => ({
    id: context.id,
    object: "chat.completion",
    created: 1_700_000_000,
    model: context.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: context.text,
          refusal: null,
          ...mockReasoningBlocks("openai", context)[0],
        },
        logprobs: null,
        finish_reason: endsWithToolCalls(context) ? "tool_calls" : context.finishReason,
      },
    ],
    usage: openAiUsage(context),
  }),
  streamStart: (context) => [
    sseFrame(openAiChunk(context, { role: "assistant", content: "" }, null)),
    ...mockReasoningFrames("openai", context, (delta) => sseFrame(openAiChunk(context, delta, null))),
  ],
  streamChunk: (context, text) => sseFrame(openAiChunk(context, { content: text }, null)),
  streamEnd: (context) => {
    const finishReason = endsWithToolCalls(context) ? "tool_calls" : context.finishReason;
    const frames = [sseFrame(openAiChunk(context, {}, finishReason))];
    const streamOptions = context.request.stream_options;
    if (typeof streamOptions === "object" && streamOptions !== null && "include_usage" in streamOptions) {
      if ((streamOptions as { include_usage?: unknown }).include_usage === true) {
        frames.push(sseFrame({ ...openAiChunkBase(context), choices: [], usage: openAiUsage(context) }));
      }
    }
    frames.push(sseFrame("[DONE]"));
    return frames;
  },
  errorBody: (status, message) => ({
    error: {
      message,
      type: status === 429 ? "rate_limit_exceeded" : "server_error",
      param: null,
      code: null,
    },
  }),
};

function openAiChunkBase(context: RenderContext) {
  return { id: context.id, object: "chat.completion.chunk", created: 1_700_000_000, model: context.model };
}

function openAiChunk(context: RenderContext, delta: Record<string, unknown>, finishReason: string | null) {
  return {
    ...openAiChunkBase(context),
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  };
}

function openAiUsage(context: RenderContext) {
  const { inputTokens, outputTokens, cachedInputTokens, reasoningTokens } = context.usage;
  return {
    prompt_tokens: inputTokens,
    completion_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
    prompt_tokens_details: { cached_tokens: cachedInputTokens ?? 0 },
    completion_tokens_details: { reasoning_tokens: reasoningTokens ?? 0 },
  };
}

const anthropicWire: MockWireFormat = {
  route: "anthropic",
  isStream: (_path, _query, body) => body.stream === true,
  // Claude on Vertex AI names the model in the path (`…/models/claude-…:rawPredict`), not the body.
  requestedModel: (path, body) =>
    typeof body.model === "string" ? body.model : /\/models\/([^/:]+):/.exec(path)?.[1],
  completeBody: (context) => ({
    id: context.id,
    type: "message",
    role: "assistant",
    model: context.model,
    content: [...mockReasoningBlocks("anthropic", context), { type: "text", text: context.text }],
    stop_reason: anthropicStopReason(context),
    stop_sequence: null,
    usage: anthropicUsage(context, context.usage.outputTokens),
  }),
  streamStart: (context) => [
    sseFrame(
      {
        type: "message_start",
        message: {
          id: context.id,
          type: "message",
          role: "assistant",
          model: context.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: anthropicUsage(context, 1),
        },
      },
      "message_start",
    ),
    ...mockReasoningFrames("anthropic", context),
    sseFrame(
      { type: "content_block_start", index: context.textIndex, content_block: { type: "text", text: "" } },
      "content_block_start",
    ),
    sseFrame({ type: "ping" }, "ping"),
  ],
  streamChunk: (context, text) =>
    sseFrame(
      { type: "content_block_delta", index: context.textIndex, delta: { type: "text_delta", text } },
      "content_block_delta",
    ),
  streamEnd: (context) => [
    sseFrame({ type: "content_block_stop", index: context.textIndex }, "content_block_stop"),
    sseFrame(
      {
        type: "message_delta",
        delta: { stop_reason: anthropicStopReason(context), stop_sequence: null },
        usage: { output_tokens: context.usage.outputTokens },
      },
      "message_delta",
    ),
    sseFrame({ type: "message_stop" }, "message_stop"),
  ],
  errorBody: (status, message) => ({
    type: "error",
    error: {
      type: anthropicErrorTypes[status] ?? "api_error",
      message,
    },
  }),
};

function anthropicStopReason(context: RenderContext): string {
  if (endsWithToolCalls(context)) return "tool_use";
  return context.finishReason === "length" ? "max_tokens" : "end_turn";
}

/** Anthropic counts cache reads and writes apart from `input_tokens`. */
function anthropicUsage(context: RenderContext, outputTokens: number) {
  const { inputTokens, cachedInputTokens = 0, cacheWriteInputTokens = 0 } = context.usage;
  return {
    input_tokens: inputTokens - cachedInputTokens - cacheWriteInputTokens,
    cache_creation_input_tokens: cacheWriteInputTokens,
    cache_read_input_tokens: cachedInputTokens,
    output_tokens: outputTokens,
  };
}

const geminiWire: MockWireFormat = {
  route: "gemini",
  isStream: (path) => path.endsWith(":streamGenerateContent"),
  requestedModel: (path) => /\/models\/([^/:]+):/.exec(path)?.[1],
  completeBody: (context) =>
    geminiResponse(context, [...mockReasoningBlocks("gemini", context), { text: context.text }], true),
  streamStart: (context) =>
    mockReasoningFrames("gemini", context, (part) => sseFrame(geminiResponse(context, [part], false))),
  streamChunk: (context, text) => sseFrame(geminiResponse(context, [{ text }], false)),
  streamEnd: (context) => [sseFrame(geminiResponse(context, [{ text: "" }], true))],
  errorBody: (status, message) => ({
    error: { code: status, message, status: status === 429 ? "RESOURCE_EXHAUSTED" : "INTERNAL" },
  }),
};

function geminiResponse(context: RenderContext, parts: Record<string, unknown>[], last: boolean) {
  const candidate: Record<string, unknown> = { content: { parts, role: "model" }, index: 0 };
  if (last) candidate.finishReason = context.finishReason === "length" ? "MAX_TOKENS" : "STOP";
  const { inputTokens, outputTokens, cachedInputTokens } = context.usage;
  const usageMetadata: Record<string, number> = {
    promptTokenCount: inputTokens,
    totalTokenCount: inputTokens,
  };
  if (last) {
    // Gemini counts thinking apart from the candidates.
    const thoughts = context.usage.reasoningTokens;
    usageMetadata.candidatesTokenCount = outputTokens - (thoughts ?? 0);
    if (thoughts !== undefined) usageMetadata.thoughtsTokenCount = thoughts;
    usageMetadata.totalTokenCount = inputTokens + outputTokens;
    if (cachedInputTokens !== undefined) usageMetadata.cachedContentTokenCount = cachedInputTokens;
  }
  return { candidates: [candidate], usageMetadata, modelVersion: context.model, responseId: context.id };
}

/** Numbers a Responses stream's events in order (`sequence_number`), per answer. */
const responsesSequence = new WeakMap<RenderContext, number>();

export function responsesEvent(
  context: RenderContext,
  type: string,
  fields: Record<string, unknown>,
): string {
  const sequence = responsesSequence.get(context) ?? 0;
  responsesSequence.set(context, sequence + 1);
  return sseFrame({ type, sequence_number: sequence, ...fields }, type);
}

function responsesObject(context: RenderContext, status: "in_progress" | "final") {
  const cut = context.finishReason === "length";
  const { inputTokens, outputTokens, cachedInputTokens, reasoningTokens } = context.usage;
  const done = status === "final";
  return {
    id: `resp_${context.id}`,
    object: "response",
    created_at: 1_700_000_000,
    status: done ? (cut ? "incomplete" : "completed") : "in_progress",
    error: null,
    incomplete_details: done && cut ? { reason: "max_output_tokens" } : null,
    model: context.model,
    output: done
      ? [
          ...mockReasoningBlocks("responses", context),
          responsesMessage(context, cut ? "incomplete" : "completed"),
          ...responsesToolItems(context),
        ]
      : [],
    usage: done
      ? {
          input_tokens: inputTokens,
          input_tokens_details: { cached_tokens: cachedInputTokens ?? 0 },
          output_tokens: outputTokens,
          output_tokens_details: { reasoning_tokens: reasoningTokens ?? 0 },
          total_tokens: inputTokens + outputTokens,
        }
      : null,
  };
}

function responsesMessage(context: RenderContext, status: string) {
  return {
    type: "message",
    id: `msg_${context.id}`,
    status,
    role: "assistant",
    content: [{ type: "output_text", text: context.text, annotations: [] }],
  };
}

const responsesWire: MockWireFormat = {
  route: "responses",
  isStream: (_path, _query, body) => body.stream === true,
  requestedModel: (_path, body) => (typeof body.model === "string" ? body.model : undefined),
  completeBody: (context) => responsesObject(context, "final"),
  streamStart: (context) => {
    const pending = responsesObject(context, "in_progress");
    const item = { ...responsesMessage(context, "in_progress"), content: [] };
    return [
      responsesEvent(context, "response.created", { response: pending }),
      responsesEvent(context, "response.in_progress", { response: pending }),
      ...mockReasoningFrames("responses", context, (fields) =>
        responsesEvent(context, String(fields.type), fields),
      ),
      responsesEvent(context, "response.output_item.added", { output_index: context.textIndex, item }),
      responsesEvent(context, "response.content_part.added", {
        item_id: item.id,
        output_index: context.textIndex,
        content_index: 0,
        part: { type: "output_text", text: "", annotations: [] },
      }),
    ];
  },
  streamChunk: (context, text) =>
    responsesEvent(context, "response.output_text.delta", {
      item_id: `msg_${context.id}`,
      output_index: context.textIndex,
      content_index: 0,
      delta: text,
    }),
  streamEnd: (context) => {
    const final = responsesObject(context, "final");
    const location = { item_id: `msg_${context.id}`, output_index: context.textIndex, content_index: 0 };
    return [
      responsesEvent(context, "response.output_text.done", { ...location, text: context.text }),
      responsesEvent(context, "response.content_part.done", {
        ...location,
        part: { type: "output_text", text: context.text, annotations: [] },
      }),
      responsesEvent(context, "response.output_item.done", {
        output_index: context.textIndex,
        item: final.output.at(-1),
      }),
      responsesEvent(context, `response.${final.status}`, { response: final }),
    ];
  },
  errorBody: openAiWire.errorBody,
};

/**
 * OpenAI speech to text (`…/audio/transcriptions`, a multipart form read into fields): the whole answer is
 * `{ text, usage }`; a stream (form field `stream` = `true`) is `transcript.text.delta` events ending with
 * `transcript.text.done`.
 */
const transcriptionsWire: MockWireFormat = {
  route: "transcriptions",
  isStream: (_path, _query, body) => body.stream === "true",
  requestedModel: (_path, body) => (typeof body.model === "string" ? body.model : undefined),
  completeBody: (context) => ({ text: context.text, usage: transcriptionUsage(context) }),
  streamStart: () => [],
  streamChunk: (_context, text) => sseFrame({ type: "transcript.text.delta", delta: text }),
  streamEnd: (context) => [
    sseFrame({ type: "transcript.text.done", text: context.text, usage: transcriptionUsage(context) }),
  ],
  errorBody: openAiWire.errorBody,
};

function transcriptionUsage(context: RenderContext) {
  const { inputTokens, outputTokens } = context.usage;
  return {
    type: "tokens",
    input_tokens: inputTokens,
    output_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
  };
}

export const mockWireFormats: Readonly<Record<MockRoute, MockWireFormat>> = {
  openai: openAiWire,
  responses: responsesWire,
  anthropic: anthropicWire,
  gemini: geminiWire,
  bedrock: bedrockWire,
  transcriptions: transcriptionsWire,
};

/**
 * Which wire format a request path speaks: any `…/chat/completions`, `…/responses`, `…/v1/messages`,
 * `…/models/x:generateContent` (Gemini), `…/models/x:rawPredict` (Claude on Vertex AI: Anthropic's format),
 * `/model/x/converse` and `/model/x/converse-stream` (Bedrock), `…/audio/transcriptions` (OpenAI speech to text).
 */
export function routeForPath(path: string): MockRoute | undefined {
  if (path.endsWith("/chat/completions")) return "openai";
  if (path.endsWith("/audio/transcriptions")) return "transcriptions";
  if (path.endsWith("/responses")) return "responses";
  if (path.endsWith("/v1/messages")) return "anthropic";
  if (/\/models\/[^/:]+:(generateContent|streamGenerateContent)$/.test(path)) return "gemini";
  if (/\/models\/[^/:]+:(rawPredict|streamRawPredict)$/.test(path)) return "anthropic";
  if (/^\/model\/[^/]+\/(converse|converse-stream)$/.test(path)) return "bedrock";
  return undefined;
}
