/**
 * The text a request carries, in any wire format the mock server speaks, whichever content form the
 * client used: a string (`"content": "…"`, as `openai-generic` sends text-only turns) or typed parts
 * (`[{"type":"text","text":"…"}]`, as BAML and the other providers send them). Tests that pick an answer
 * by what the prompt says read this instead of one provider's body shape.
 */
import type { MockRoute } from "./mock-answer.js";

/** Every text of the request's system prompt and messages, in order, joined by newlines. */
export function readPromptText(route: MockRoute, body: Record<string, unknown>): string {
  const texts: string[] = [];
  const collect = (content: unknown): void => {
    if (typeof content === "string") texts.push(content);
    else if (Array.isArray(content)) {
      for (const part of content) {
        if (isRecord(part) && typeof part.text === "string") texts.push(part.text);
      }
    }
  };
  const eachMessage = (messages: unknown, field: string): void => {
    if (!Array.isArray(messages)) return;
    for (const message of messages) if (isRecord(message)) collect(message[field]);
  };
  switch (route) {
    case "openai":
      eachMessage(body.messages, "content");
      break;
    case "responses":
      if (typeof body.instructions === "string") texts.push(body.instructions);
      if (typeof body.input === "string") texts.push(body.input);
      else eachMessage(body.input, "content");
      break;
    case "anthropic":
    case "bedrock":
      collect(body.system);
      eachMessage(body.messages, "content");
      break;
    case "transcriptions":
      if (typeof body.prompt === "string") texts.push(body.prompt);
      break;
    case "gemini":
      if (isRecord(body.system_instruction)) collect(body.system_instruction.parts);
      eachMessage(body.contents, "parts");
      break;
  }
  return texts.join("\n");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
