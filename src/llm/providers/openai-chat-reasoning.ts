import { eventJson, isRecord, type ReasoningReader, textOf } from "../../provider-helpers/index.js";

/**
 * Reasoning on the OpenAI chat-completions wire: OpenAI itself sends none, but OpenAI-compatible servers
 * do — DeepSeek, vLLM and SGLang as `reasoning_content`, OpenRouter and Ollama as `reasoning` — on the
 * message of a whole answer and on the `delta` of stream chunks.
 */

function reasoningOf(message: unknown): string {
  if (!isRecord(message)) return "";
  return textOf(message.reasoning_content) || textOf(message.reasoning);
}

function firstChoice(body: unknown): Record<string, unknown> | undefined {
  const choice = isRecord(body) && Array.isArray(body.choices) ? body.choices[0] : undefined;
  return isRecord(choice) ? choice : undefined;
}

export const openAiChatReasoning: ReasoningReader = {
  fromResponse: (body) => reasoningOf(firstChoice(body)?.message),
  fromEvent: (event) => {
    const data = eventJson(event, '"reasoning');
    return data === undefined ? "" : reasoningOf(firstChoice(data)?.delta);
  },
};
