import { eventJson, isRecord, type ReasoningReader, textOf } from "../provider-helpers/index.js";
/**
 * Bedrock Converse reasoning (Claude and other reasoning models on Bedrock): `reasoningContent` content
 * blocks with `reasoningText.text` in a whole answer; `contentBlockDelta` events whose delta is
 * `reasoningContent.text` in a stream (`signature` and `redactedContent` deltas carry no readable text).
 */

export const bedrockReasoning: ReasoningReader = {
  fromResponse: (body) => {
    const message = isRecord(body) && isRecord(body.output) ? body.output.message : undefined;
    if (!isRecord(message) || !Array.isArray(message.content)) return "";
    let text = "";
    for (const block of message.content) {
      const reasoning = isRecord(block) ? block.reasoningContent : undefined;
      if (isRecord(reasoning) && isRecord(reasoning.reasoningText))
        text += textOf(reasoning.reasoningText.text);
    }
    return text;
  },
  fromEvent: (event) => {
    if (event.event !== "contentBlockDelta") return "";
    const data = eventJson(event, "reasoningContent");
    const delta = data !== undefined && isRecord(data.delta) ? data.delta.reasoningContent : undefined;
    return isRecord(delta) ? textOf(delta.text) : "";
  },
};
