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
