/**
 * How the mock server writes a scripted answer's reasoning ("thinking") text, in each provider's own
 * place: `reasoning_content` on OpenAI chat (as DeepSeek and vLLM send it), a `reasoning` output item with
 * a summary on OpenAI Responses, a `thinking` block (with its signature) on Anthropic, `thought: true`
 * parts on Gemini, `reasoningContent` blocks on Bedrock Converse. Streams send it before the text, in
 * chunks, as the providers do.
 */
import { encodeAwsEventStreamMessage } from "../aws-bedrock/index.js";
import type { MockRoute } from "./mock-answer.js";
import type { MockFrame, RenderContext } from "./mock-wire-formats.js";

/** A fixed stand-in for the provider's signature of the thinking (clients send it back unchanged). */
const signature = "bW9jay1zaWduYXR1cmU=";

function sse(data: unknown, event?: string): string {
  return `${event === undefined ? "" : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;
}

/** A whole answer's reasoning blocks, in the wire format of `route` (empty when there is no reasoning). */
export function mockReasoningBlocks(route: MockRoute, context: RenderContext): Record<string, unknown>[] {
  const text = context.reasoning;
  if (text === "") return [];
  switch (route) {
    case "openai":
      return [{ reasoning_content: text }];
    case "responses":
      return [reasoningItem(context, text)];
    case "anthropic":
      return [{ type: "thinking", thinking: text, signature }];
    case "gemini":
      return [{ text, thought: true }];
    case "bedrock":
      return [{ reasoningContent: { reasoningText: { text, signature } } }];
    case "transcriptions":
      return []; // Speech to text has no reasoning.
  }
}

function reasoningItem(context: RenderContext, text: string): Record<string, unknown> {
  return { type: "reasoning", id: `rs_${context.id}`, summary: [{ type: "summary_text", text }] };
}

/**
 * The stream frames of the reasoning, sent before the answer's text. `frame` builds the provider's own
 * chunk for formats whose chunks carry more than the reasoning (an OpenAI chunk's id and model, a Gemini
 * response's usage), so this module needs only the reasoning's part of them.
 */
export function mockReasoningFrames(
  route: MockRoute,
  context: RenderContext,
  frame: (delta: Record<string, unknown>) => MockFrame = (delta) => sse(delta),
): MockFrame[] {
  const chunks = context.reasoningChunks;
  if (chunks.length === 0) return [];
  switch (route) {
    case "openai":
      return chunks.map((text) => frame({ reasoning_content: text }));
    case "gemini":
      return chunks.map((text) => frame({ text, thought: true }));
    case "anthropic":
      return [
        sse(
          { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "" } },
          "content_block_start",
        ),
        ...chunks.map((thinking) =>
          sse(
            { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking } },
            "content_block_delta",
          ),
        ),
        sse(
          { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature } },
          "content_block_delta",
        ),
        sse({ type: "content_block_stop", index: 0 }, "content_block_stop"),
      ];
    case "responses": {
      const item = { type: "reasoning", id: `rs_${context.id}`, summary: [] };
      const location = { item_id: item.id, output_index: 0, summary_index: 0 };
      const done = reasoningItem(context, context.reasoning);
      return [
        frame({ type: "response.output_item.added", output_index: 0, item }),
        frame({
          type: "response.reasoning_summary_part.added",
          ...location,
          part: { type: "summary_text", text: "" },
        }),
        ...chunks.map((delta) =>
          frame({ type: "response.reasoning_summary_text.delta", ...location, delta }),
        ),
        frame({ type: "response.reasoning_summary_text.done", ...location, text: context.reasoning }),
        frame({ type: "response.output_item.done", output_index: 0, item: done }),
      ];
    }
    case "bedrock":
      return [
        ...chunks.map((text) => bedrockDelta({ reasoningContent: { text } })),
        bedrockDelta({ reasoningContent: { signature } }),
        bedrockEvent("contentBlockStop", { contentBlockIndex: 0 }),
      ];
    case "transcriptions":
      return [];
  }
}

function bedrockDelta(delta: Record<string, unknown>): MockFrame {
  return bedrockEvent("contentBlockDelta", { contentBlockIndex: 0, delta });
}

function bedrockEvent(type: string, payload: Record<string, unknown>): MockFrame {
  return encodeAwsEventStreamMessage(
    { ":event-type": type, ":content-type": "application/json", ":message-type": "event" },
    JSON.stringify(payload),
  );
}
