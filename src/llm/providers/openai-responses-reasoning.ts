import { eventJson, isRecord, type ReasoningReader, textOf } from "../../provider-helpers/index.js";

/**
 * Reasoning on the OpenAI Responses wire: `reasoning` output items carry a `summary` (summary_text parts,
 * when `reasoning.summary` is asked for) and, on servers that expose it, `content` (reasoning_text parts).
 * Streams send `response.reasoning_summary_text.delta` and `response.reasoning_text.delta` events.
 */

function partsText(parts: unknown): string {
  if (!Array.isArray(parts)) return "";
  return parts.map((part) => (isRecord(part) ? textOf(part.text) : "")).join("");
}

const deltaEvents = new Set(["response.reasoning_summary_text.delta", "response.reasoning_text.delta"]);

export const openAiResponsesReasoning: ReasoningReader = {
  fromResponse: (body) => {
    if (!isRecord(body) || !Array.isArray(body.output)) return "";
    let text = "";
    for (const item of body.output) {
      if (isRecord(item) && item.type === "reasoning")
        text += partsText(item.summary) + partsText(item.content);
    }
    return text;
  },
  fromEvent: (event) => {
    const data = eventJson(event, "reasoning");
    return data !== undefined && typeof data.type === "string" && deltaEvents.has(data.type)
      ? textOf(data.delta)
      : "";
  },
};
