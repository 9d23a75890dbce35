/**
 * Tool calls in the OpenAI Responses format: `tools: [{type: "function", name, description, parameters}]`
 * with `tool_choice`; answers carry `function_call` output items (`call_id`, `name`, `arguments` as JSON
 * text); streams announce each call with `response.output_item.added` and send its arguments in
 * `response.function_call_arguments.delta` events. A provider-enforced schema is
 * `text.format: {type: "json_schema", name, schema, strict: true}`.
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

export const openAiResponsesToolCalls: ToolCallWire = {
  writeRequest(body, output) {
    if (output.type === "json-schema") {
      const format = {
        type: "json_schema",
        name: output.name,
        ...(output.description === undefined ? {} : { description: output.description }),
        schema: toStrictJsonSchema(output.schema),
        strict: true,
      };
      // `text` may carry other settings of the client's (`verbosity`); a format it names wins.
      const text = isRecord(body.text) ? body.text : {};
      return { ...body, text: { format, ...text } };
    }
    return addOutputFields(body, responsesToolFields(output));
  },
  readToolCalls(body) {
    if (!isRecord(body) || !Array.isArray(body.output)) return [];
    return body.output.flatMap((item) => (isFunctionCall(item) ? [readCall(item)] : []));
  },
  createStreamReader() {
    let sawCall = false;
    return {
      push(event) {
        const data = readToolEvent(event, ["function_call"]);
        if (data === undefined) return [];
        const index = typeof data.output_index === "number" ? data.output_index : 0;
        switch (data.type) {
          case "response.output_item.added": {
            if (!isFunctionCall(data.item)) return [];
            sawCall = true;
            const call = readCall(data.item);
            return [
              { index, ...(call.id ? { id: call.id } : {}), name: call.name, argumentsDelta: call.arguments },
            ];
          }
          case "response.function_call_arguments.delta":
            return typeof data.delta === "string" ? [{ index, argumentsDelta: data.delta }] : [];
          case "response.completed":
          case "response.incomplete": {
            // A server that sends only the final response still delivers its calls.
            if (sawCall || !isRecord(data.response) || !Array.isArray(data.response.output)) return [];
            const pieces: ToolCallDelta[] = [];
            for (const [position, item] of data.response.output.entries()) {
              if (!isFunctionCall(item)) continue;
              const call = readCall(item);
              pieces.push({
                index: position,
                ...(call.id ? { id: call.id } : {}),
                name: call.name,
                argumentsDelta: call.arguments,
              });
            }
            return pieces;
          }
          default:
            return [];
        }
      },
    };
  },
};

function responsesToolFields(output: Extract<OutputRequest, { type: "tools" }>): Record<string, unknown> {
  const only = output.tools.length === 1 ? output.tools[0] : undefined;
  return {
    tools: output.tools.map((tool) => ({
      type: "function",
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      parameters: withoutDialect(tool.parameters),
      strict: false,
    })),
    tool_choice:
      output.choice === "auto"
        ? "auto"
        : only !== undefined
          ? { type: "function", name: only.name }
          : "required",
  };
}

function isFunctionCall(item: unknown): item is Record<string, unknown> {
  return isRecord(item) && item.type === "function_call";
}

function readCall(item: Record<string, unknown>): ToolCall {
  const id = typeof item.call_id === "string" ? item.call_id : item.id;
  return toolCall(id, item.name, typeof item.arguments === "string" ? item.arguments : "");
}
