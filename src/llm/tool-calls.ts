/**
 * Native tool calls and provider-enforced schemas, provider-neutral. A request may ask for more than text
 * (`OutputRequest`): tools the model must call, or a JSON Schema the provider enforces. Each wire format
 * writes that into its body and reads the calls back from whole answers and streams (`ToolCallWire`, one
 * file per format: `providers/*-tool-calls.ts`); the runtime decides what the calls mean.
 */
import type { SseEvent } from "./sse-decoder.js";

/** A JSON Schema document, as plain data. */
export type JsonSchemaObject = { [key: string]: unknown };

/** A tool the model may call: its name, what it is for, and the JSON Schema of its arguments. */
export interface ToolDefinition {
  name: string;
  description?: string;
  /** The arguments' JSON Schema (an object schema; `$defs` allowed). */
  parameters: JsonSchemaObject;
}

/**
 * What a request asks for beyond text:
 * - `tools`: the model calls one (or several) of these tools; `choice: "required"` makes it call one.
 * - `json-schema`: the provider enforces this schema on the answer (OpenAI `response_format` json_schema
 *   with `strict`, Gemini `responseSchema`, Anthropic and Bedrock through one forced tool named `name`).
 */
export type OutputRequest =
  | { type: "tools"; tools: readonly ToolDefinition[]; choice: "required" | "auto" }
  | { type: "json-schema"; name: string; description?: string; schema: JsonSchemaObject };

/** One tool call of an answer; `arguments` is the JSON text the model wrote (possibly cut or malformed). */
export interface ToolCall {
  /** The provider's id for the call (OpenAI `call_…`, Anthropic `toolu_…`), when it gives one. */
  id: string | undefined;
  name: string;
  arguments: string;
}

/**
 * A piece of a streamed tool call. `index` tells calls apart, in the order they started; `id` and `name`
 * come with a call's first piece, its arguments in `argumentsDelta` pieces (Gemini sends them whole).
 */
export interface ToolCallDelta {
  index: number;
  id?: string;
  name?: string;
  argumentsDelta: string;
}

/** Reads one provider's stream events for tool calls, beside the text `ProviderStreamReader`. */
export interface ToolCallStreamReader {
  push(event: SseEvent): ToolCallDelta[];
}

/** How one wire format writes an `OutputRequest` and reads tool calls. */
export interface ToolCallWire {
  /** The body with the request's tools or schema added (a copy; options the client set win). */
  writeRequest(body: Record<string, unknown>, output: OutputRequest): Record<string, unknown>;
  /** The tool calls of a whole answer's JSON body, in order (none: `[]`). */
  readToolCalls(body: unknown): ToolCall[];
  createStreamReader(): ToolCallStreamReader;
}

/** Gathers streamed pieces into whole calls, in the order they started. */
export class ToolCallAccumulator {
  readonly #calls = new Map<number, { id: string | undefined; name: string; arguments: string }>();

  /** Adds one piece; returns the call it belongs to, so far. */
  push(delta: ToolCallDelta): ToolCall {
    let call = this.#calls.get(delta.index);
    if (call === undefined) {
      call = { id: undefined, name: "", arguments: "" };
      this.#calls.set(delta.index, call);
    }
    if (delta.id !== undefined && delta.id !== "") call.id = delta.id;
    if (delta.name !== undefined && delta.name !== "") call.name = delta.name;
    call.arguments += delta.argumentsDelta;
    return call;
  }

  /** Whether any piece arrived. */
  get size(): number {
    return this.#calls.size;
  }

  /** The calls so far, ordered by index. */
  calls(): ToolCall[] {
    return [...this.#calls.entries()]
      .sort(([left], [right]) => left - right)
      .map(([, call]) => ({ ...call }));
  }
}

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
