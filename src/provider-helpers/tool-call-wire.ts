/**
 * The tool-call helpers adapters read and write their wire formats with: calls from provider fields, their
 * arguments as text, the output fields a body gets, the stream events that carry calls.
 */
import type { ToolCall, ToolCallDelta } from "../llm/index.js";

/** The pieces a whole answer's calls make (a non-streamed answer delivered as a stream). */
export function toolCallDeltas(calls: readonly ToolCall[]): ToolCallDelta[] {
  return calls.map((call, index) => ({
    index,
    ...(call.id === undefined ? {} : { id: call.id }),
    name: call.name,
    argumentsDelta: call.arguments,
  }));
}

/** Arguments a provider sends as a JSON value (Anthropic `input`, Gemini `args`), as JSON text. */
export function argumentsText(value: unknown): string {
  if (typeof value === "string") return value;
  return value === undefined ? "" : JSON.stringify(value);
}

/**
 * `body` with `fields` added after its own keys; a key the body already has (an option the client set,
 * such as its own `tool_choice`) keeps the client's value.
 */
export function addOutputFields(
  body: Record<string, unknown>,
  fields: Record<string, unknown>,
): Record<string, unknown> {
  const result = { ...body };
  for (const [key, value] of Object.entries(fields)) if (result[key] === undefined) result[key] = value;
  return result;
}

/** A call from a provider's fields: an id and a name only when they are strings. */
export function toolCall(id: unknown, name: unknown, args: string): ToolCall {
  return {
    id: typeof id === "string" ? id : undefined,
    name: typeof name === "string" ? name : "",
    arguments: args,
  };
}

/**
 * A stream event's JSON object, when its data mentions one of `markers`. Most events carry text, and the
 * text parser reads each of them already: testing for a marker first spares a second `JSON.parse`. Data
 * that is not a JSON object is `undefined` here (the text parser reports it).
 */
export function readToolEvent(
  event: { data: string },
  markers: readonly string[],
): Record<string, unknown> | undefined {
  if (!markers.some((marker) => event.data.includes(marker))) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(event.data);
  } catch {
    return undefined;
  }
  return typeof data === "object" && data !== null && !Array.isArray(data)
    ? (data as Record<string, unknown>)
    : undefined;
}
