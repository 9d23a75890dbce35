/**
 * How the mock server answers Bedrock Converse: a whole answer as Converse JSON; a stream as binary AWS
 * event-stream frames (`messageStart`, `contentBlockDelta` per chunk, `contentBlockStop`, `messageStop`
 * with the stop reason, `metadata` with usage), each event's JSON carrying the `p` padding field Bedrock
 * adds; errors as `{"message": …}`.
 */
import { encodeAwsEventStreamMessage } from "../aws-bedrock/index.js";
import { mockReasoningBlocks, mockReasoningFrames } from "./mock-reasoning.js";
import { endsWithToolCalls } from "./mock-tool-call-context.js";
import type { MockFrame, MockWireFormat, RenderContext } from "./mock-wire-formats.js";

function eventFrame(type: string, payload: Record<string, unknown>): MockFrame {
  return encodeAwsEventStreamMessage(
    { ":event-type": type, ":content-type": "application/json", ":message-type": "event" },
    JSON.stringify({ ...payload, p: "abcdefghijklmnopqrstuvwxyz".slice(0, 1 + (type.length % 20)) }),
  );
}

/** One event-stream frame of a ConverseStream event (mock-tool-calls.ts sends tool calls with it). */
export const bedrockEventFrame = eventFrame;

function stopReason(context: RenderContext): string {
  if (endsWithToolCalls(context)) return "tool_use";
  return context.finishReason === "length" ? "max_tokens" : "end_turn";
}

/** Bedrock counts cache reads and writes apart from `inputTokens`. */
function usage(context: RenderContext) {
  const { inputTokens, outputTokens, cachedInputTokens, cacheWriteInputTokens } = context.usage;
  return {
    inputTokens: inputTokens - (cachedInputTokens ?? 0) - (cacheWriteInputTokens ?? 0),
    outputTokens,
    totalTokens: inputTokens + outputTokens,
    ...(cachedInputTokens === undefined ? {} : { cacheReadInputTokens: cachedInputTokens }),
    ...(cacheWriteInputTokens === undefined ? {} : { cacheWriteInputTokens }),
  };
}

/** `/model/{modelId}/converse[-stream]`, the id percent-encoded. */
function modelFromPath(path: string): string | undefined {
  const encoded = /^\/model\/([^/]+)\//.exec(path)?.[1];
  return encoded === undefined ? undefined : decodeURIComponent(encoded);
}

export const bedrockWire: MockWireFormat = {
  route: "bedrock",
  isStream: (path) => path.endsWith("/converse-stream"),
  requestedModel: (path) => modelFromPath(path),
  streamContentType: "application/vnd.amazon.eventstream",
  completeBody: (context) => ({
    output: {
      message: {
        role: "assistant",
        content: [...mockReasoningBlocks("bedrock", context), { text: context.text }],
      },
    },
    stopReason: stopReason(context),
    usage: usage(context),
    metrics: { latencyMs: 42 },
  }),
  streamStart: (context) => [
    eventFrame("messageStart", { role: "assistant" }),
    ...mockReasoningFrames("bedrock", context),
  ],
  streamChunk: (context, text) =>
    eventFrame("contentBlockDelta", { contentBlockIndex: context.textIndex, delta: { text } }),
  streamEnd: (context) => [
    eventFrame("contentBlockStop", { contentBlockIndex: context.textIndex }),
    eventFrame("messageStop", { stopReason: stopReason(context) }),
    eventFrame("metadata", { usage: usage(context), metrics: { latencyMs: 42 } }),
  ],
  // A well-framed event whose payload is cut-off JSON.
  malformedFrame: () =>
    encodeAwsEventStreamMessage(
      { ":event-type": "contentBlockDelta", ":content-type": "application/json", ":message-type": "event" },
      '{"unterminated": "event',
    ),
  errorBody: (_status, message) => ({ message }),
};
