/**
 * The reasoning ("thinking") text a model writes beside its answer, read per wire format. Each provider
 * sends it in its own place (OpenAI Responses reasoning items, `reasoning_content` on OpenAI-compatible
 * servers, Anthropic `thinking` blocks, Gemini thought parts, Bedrock `reasoningContent`); a reader finds
 * it in a whole answer and in one stream event. Kept apart from the adapters' text parsers so the answer's
 * text has one reader and the reasoning another; neither throws on shapes it does not know (the text
 * parser already rejects malformed answers).
 */
import type { SseEvent } from "../llm/index.js";
import { isRecord } from "./adapter-values.js";

export interface ReasoningReader {
  /** The reasoning text of a whole answer (`""` when there is none). */
  fromResponse(body: unknown): string;
  /** The reasoning text one stream event adds (`""` when none). */
  fromEvent(event: SseEvent): string;
}

/**
 * An event's JSON when its text mentions `marker`, else `undefined`. Most events carry no reasoning: a
 * substring test spares them a second `JSON.parse` (the text parser has parsed them once already).
 */
export function eventJson(event: SseEvent, marker: string): Record<string, unknown> | undefined {
  if (!event.data.includes(marker)) return undefined;
  try {
    const data: unknown = JSON.parse(event.data);
    return isRecord(data) ? data : undefined;
  } catch {
    return undefined;
  }
}

/** `value` when it is a string, else `""`. */
export function textOf(value: unknown): string {
  return typeof value === "string" ? value : "";
}
