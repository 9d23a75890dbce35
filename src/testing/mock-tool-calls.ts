/**
 * Native tool calls in the mock server's answers, in every wire format it speaks: OpenAI chat
 * (`message.tool_calls`; streamed `delta.tool_calls` pieces), OpenAI Responses (`function_call` output
 * items; `response.function_call_arguments.delta`), Anthropic (`tool_use` blocks; `input_json_delta`),
 * Gemini (`functionCall` parts, each streamed whole in one event) and Bedrock Converse (`toolUse` blocks;
 * `contentBlockDelta` with `delta.toolUse.input`). A call's arguments are scripted as text, so a test can
 * script cut or malformed ones: formats that carry arguments as text send it as written (streams in pieces
 * of `chunkSize`); formats that carry a JSON value (Anthropic and Bedrock whole answers, Gemini) send the
 * parsed value, or the text itself as a JSON string when it does not parse, as some gateways do.
 */
import type { MockRoute, MockToolCall } from "./mock-answer.js";
import { bedrockEventFrame } from "./mock-bedrock-wire.js";
import { type MockFrame, type RenderContext, responsesEvent, sseFrame } from "./mock-wire-formats.js";

/** A scripted call with its id filled in, in the id style of the route. */
interface ResolvedCall {
  id: string;
  name: string;
  arguments: string;
}

const idPrefixes: Record<MockRoute, string> = {
  openai: "call_mock",
  responses: "call_mock",
  anthropic: "toolu_mock",
  gemini: "gemini_mock",
  bedrock: "tooluse_mock",
  transcriptions: "call_mock",
};

export function resolveCalls(route: MockRoute, context: RenderContext): ResolvedCall[] {
  return (context.toolCalls ?? []).map((call: MockToolCall, index) => ({
    id: call.id ?? `${idPrefixes[route]}_${context.id.replace(/\W/g, "")}_${index}`,
    name: call.name,
    arguments: call.arguments,
  }));
}

/** The call's arguments as a JSON value, for formats that carry one. */
function argumentsValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A whole answer body with the context's tool calls added (after any text), in the route's format. */
export function withToolCalls(route: MockRoute, body: unknown, context: RenderContext): unknown {
  const calls = resolveCalls(route, context);
  if (calls.length === 0) return body;
  const copy = structuredClone(body) as Record<string, unknown>;
  switch (route) {
    case "openai": {
      const message = at(copy, "choices", 0, "message");
      if (message.content === "") message.content = null;
      message.tool_calls = calls.map((call) => ({
        id: call.id,
        type: "function",
        function: { name: call.name, arguments: call.arguments },
      }));
      return copy;
    }
    case "responses":
      // `responsesObject` already lists the calls (the streamed final response needs them too).
      return copy;
    case "anthropic":
      copy.content = [
        ...withoutEmptyText(copy.content),
        ...calls.map((call) => ({
          type: "tool_use",
          id: call.id,
          name: call.name,
          input: argumentsValue(call.arguments),
        })),
      ];
      return copy;
    case "gemini": {
      const content = at(copy, "candidates", 0, "content");
      content.parts = [
        ...withoutEmptyText(content.parts),
        ...calls.map((call) => ({ functionCall: { name: call.name, args: argumentsValue(call.arguments) } })),
      ];
      return copy;
    }
    case "bedrock": {
      const message = at(copy, "output", "message");
      message.content = [
        ...withoutEmptyText(message.content),
        ...calls.map((call) => ({
          toolUse: { toolUseId: call.id, name: call.name, input: argumentsValue(call.arguments) },
        })),
      ];
      return copy;
    }
    case "transcriptions":
      return body; // The speech-to-text API has no tool calls.
  }
}

/** The object at `path` inside a body this module's wire formats wrote. */
function at(value: unknown, ...path: (string | number)[]): Record<string, unknown> {
  let current = value;
  for (const key of path) current = (current as Record<string | number, unknown>)[key];
  return current as Record<string, unknown>;
}

/** Content blocks or parts without the empty text one a tool-only answer does not send. */
function withoutEmptyText(list: unknown): unknown[] {
  return (list as { text?: unknown }[]).filter((item) => item.text !== "");
}

/** The Responses output items of the context's calls (after the message item). */
export function responsesToolItems(context: RenderContext): Record<string, unknown>[] {
  return resolveCalls("responses", context).map((call) => ({
    type: "function_call",
    id: `fc_${call.id}`,
    call_id: call.id,
    name: call.name,
    arguments: call.arguments,
    status: "completed",
  }));
}

/**
 * A stream's tool-call frames, sent after the text chunks and before the stream's end frames; each inner
 * list is sent at once, and the server waits `chunkDelayMs` between lists.
 */
export function toolCallStreamFrames(
  route: MockRoute,
  context: RenderContext,
  chunkSize: number,
): MockFrame[][] {
  const calls = resolveCalls(route, context);
  const frames: MockFrame[][] = [];
  for (const [index, call] of calls.entries()) {
    const pieces = splitArguments(call.arguments, chunkSize);
    switch (route) {
      case "openai": {
        const chunk = (toolCall: Record<string, unknown>) =>
          sseFrame({
            id: context.id,
            object: "chat.completion.chunk",
            created: 1_700_000_000,
            model: context.model,
            choices: [{ index: 0, delta: { tool_calls: [toolCall] }, logprobs: null, finish_reason: null }],
          });
        frames.push([
          chunk({ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }),
        ]);
        for (const piece of pieces) frames.push([chunk({ index, function: { arguments: piece } })]);
        break;
      }
      case "responses": {
        // Output item 0 is the message (opened by the stream's start); calls follow it.
        const outputIndex = index + 1;
        const item = responsesToolItems(context)[index] as Record<string, unknown>;
        frames.push([
          responsesEvent(context, "response.output_item.added", {
            output_index: outputIndex,
            item: { ...item, arguments: "", status: "in_progress" },
          }),
        ]);
        for (const piece of pieces) {
          frames.push([
            responsesEvent(context, "response.function_call_arguments.delta", {
              item_id: item.id,
              output_index: outputIndex,
              delta: piece,
            }),
          ]);
        }
        frames.push([
          responsesEvent(context, "response.function_call_arguments.done", {
            item_id: item.id,
            output_index: outputIndex,
            arguments: call.arguments,
          }),
          responsesEvent(context, "response.output_item.done", { output_index: outputIndex, item }),
        ]);
        break;
      }
      case "anthropic": {
        // Content block 0 is the text block the stream's start opened.
        const block = index + 1;
        frames.push([
          sseFrame(
            {
              type: "content_block_start",
              index: block,
              content_block: { type: "tool_use", id: call.id, name: call.name, input: {} },
            },
            "content_block_start",
          ),
        ]);
        for (const piece of pieces) {
          frames.push([
            sseFrame(
              {
                type: "content_block_delta",
                index: block,
                delta: { type: "input_json_delta", partial_json: piece },
              },
              "content_block_delta",
            ),
          ]);
        }
        frames.push([sseFrame({ type: "content_block_stop", index: block }, "content_block_stop")]);
        break;
      }
      case "gemini":
        frames.push([
          sseFrame({
            candidates: [
              {
                content: {
                  parts: [{ functionCall: { name: call.name, args: argumentsValue(call.arguments) } }],
                  role: "model",
                },
                index: 0,
              },
            ],
            usageMetadata: {
              promptTokenCount: context.usage.inputTokens,
              totalTokenCount: context.usage.inputTokens,
            },
            modelVersion: context.model,
            responseId: context.id,
          }),
        ]);
        break;
      case "bedrock": {
        const block = index + 1;
        frames.push([
          bedrockEventFrame("contentBlockStart", {
            contentBlockIndex: block,
            start: { toolUse: { toolUseId: call.id, name: call.name } },
          }),
        ]);
        for (const piece of pieces) {
          frames.push([
            bedrockEventFrame("contentBlockDelta", {
              contentBlockIndex: block,
              delta: { toolUse: { input: piece } },
            }),
          ]);
        }
        frames.push([bedrockEventFrame("contentBlockStop", { contentBlockIndex: block })]);
        break;
      }
      case "transcriptions":
        break;
    }
  }
  return frames;
}

function splitArguments(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let offset = 0; offset < text.length; offset += Math.max(1, size)) {
    pieces.push(text.slice(offset, offset + size));
  }
  return pieces;
}
