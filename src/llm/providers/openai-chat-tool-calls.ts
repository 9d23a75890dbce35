/**
 * Tool calls in the OpenAI chat-completions format (also Azure, openai-generic, Ollama, OpenRouter):
 * `tools: [{type: "function", function: {name, description, parameters}}]` with `tool_choice`; answers
 * carry `choices[0].message.tool_calls[{id, function: {name, arguments}}]` (arguments as JSON text), and
 * streams send `delta.tool_calls[{index, id?, function: {name?, arguments}}]` pieces. A provider-enforced
 * schema is `response_format: {type: "json_schema", json_schema: {name, schema, strict: true}}`.
 */

import {
  addOutputFields,
  isRecord,
  readToolEvent,
  toolCall,
  toStrictJsonSchema,
  withoutDialect,
} from "../../provider-helpers/index.js";
import type { OutputRequest, ToolCall, ToolCallDelta, ToolCallWire } from "../tool-calls.js";

export const openAiChatToolCalls: ToolCallWire = {
  writeRequest(body, output) {
    return addOutputFields(body, openAiChatOutputFields(output));
  },
  readToolCalls(body) {
    if (!isRecord(body) || !Array.isArray(body.choices)) return [];
    const message = isRecord(body.choices[0]) ? body.choices[0].message : undefined;
    if (!isRecord(message)) return [];
    const calls: ToolCall[] = [];
    if (Array.isArray(message.tool_calls)) {
      for (const call of message.tool_calls) {
        if (!isRecord(call) || !isRecord(call.function)) continue;
        calls.push(readFunction(call.function, call.id));
      }
    } else if (isRecord(message.function_call)) {
      // The deprecated single `function_call` some compatible servers still send.
      calls.push(readFunction(message.function_call, undefined));
    }
    return calls;
  },
  createStreamReader() {
    return {
      push(event) {
        const chunk = readToolEvent(event, ["tool_calls"]);
        if (chunk === undefined || !Array.isArray(chunk.choices)) return [];
        const delta = isRecord(chunk.choices[0]) ? chunk.choices[0].delta : undefined;
        if (!isRecord(delta) || !Array.isArray(delta.tool_calls)) return [];
        const pieces: ToolCallDelta[] = [];
        for (const [position, call] of delta.tool_calls.entries()) {
          if (!isRecord(call)) continue;
          const fn = isRecord(call.function) ? call.function : {};
          pieces.push({
            index: typeof call.index === "number" ? call.index : position,
            ...(typeof call.id === "string" ? { id: call.id } : {}),
            ...(typeof fn.name === "string" ? { name: fn.name } : {}),
            argumentsDelta: typeof fn.arguments === "string" ? fn.arguments : "",
          });
        }
        return pieces;
      },
    };
  },
};

/** The body fields of an output request in the chat-completions spelling. */
function openAiChatOutputFields(output: OutputRequest): Record<string, unknown> {
  if (output.type === "json-schema") {
    return {
      response_format: {
        type: "json_schema",
        json_schema: {
          name: output.name,
          ...(output.description === undefined ? {} : { description: output.description }),
          schema: toStrictJsonSchema(output.schema),
          strict: true,
        },
      },
    };
  }
  const only = output.tools.length === 1 ? output.tools[0] : undefined;
  return {
    tools: output.tools.map((tool) => ({
      type: "function",
      function: {
        name: tool.name,
        ...(tool.description === undefined ? {} : { description: tool.description }),
        parameters: withoutDialect(tool.parameters),
      },
    })),
    tool_choice:
      output.choice === "auto"
        ? "auto"
        : only !== undefined
          ? { type: "function", function: { name: only.name } }
          : "required",
  };
}

function readFunction(fn: Record<string, unknown>, id: unknown): ToolCall {
  return toolCall(id, fn.name, typeof fn.arguments === "string" ? fn.arguments : "");
}
