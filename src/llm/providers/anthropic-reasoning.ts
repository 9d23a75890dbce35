import { eventJson, isRecord, type ReasoningReader, textOf } from "../../provider-helpers/index.js";

/**
 * Anthropic extended thinking: `thinking` content blocks in a whole answer; in a stream, a
 * `content_block_start` of type `thinking` and then `thinking_delta` deltas (`signature_delta` and
 * `redacted_thinking` blocks carry no readable text).
 */

function thinkingOf(block: unknown): string {
  return isRecord(block) && block.type === "thinking" ? textOf(block.thinking) : "";
}

export const anthropicReasoning: ReasoningReader = {
  fromResponse: (body) =>
    isRecord(body) && Array.isArray(body.content) ? body.content.map(thinkingOf).join("") : "",
  fromEvent: (event) => {
    const data = eventJson(event, '"thinking');
    if (data === undefined) return "";
    if (data.type === "content_block_start") return thinkingOf(data.content_block);
    if (data.type === "content_block_delta" && isRecord(data.delta) && data.delta.type === "thinking_delta") {
      return textOf(data.delta.thinking);
    }
    return "";
  },
};
