/**
 * Tool calls in the Anthropic messages format (also Claude on Vertex AI): `tools: [{name, description,
 * input_schema}]` with `tool_choice` (`any`, or `tool` naming one); answers carry `tool_use` content blocks
 * whose `input` is a JSON value; streams open each with `content_block_start` and send its input as
 * `input_json_delta` text pieces. Anthropic has no response-schema mode: a provider-enforced schema is
 * one tool the model is forced to call.
 */

import {
  addOutputFields,
  argumentsText,
  isRecord,
  readToolEvent,
  toolCall,
  withoutDialect,
} from "../../provider-helpers/index.js";
import type { OutputRequest, ToolCall, ToolCallWire } from "../tool-calls.js";

export const anthropicToolCalls: ToolCallWire = {
  writeRequest(body, output) {
    return addOutputFields(body, anthropicOutputFields(output));
  },
  readToolCalls(body) {
    if (!isRecord(body) || !Array.isArray(body.content)) return [];
    const calls: ToolCall[] = [];
    for (const block of body.content) {
      if (!isRecord(block) || block.type !== "tool_use") continue;
      calls.push(toolCall(block.id, block.name, argumentsText(block.input)));
    }
    return calls;
  },
  createStreamReader() {
    return {
      push(event) {
        const data = readToolEvent(event, ["tool_use", "input_json_delta"]);
        if (data === undefined) return [];
        const index = typeof data.index === "number" ? data.index : 0;
        if (data.type === "content_block_start" && isRecord(data.content_block)) {
          const block = data.content_block;
          if (block.type !== "tool_use") return [];
          // The start carries `input: {}`; the input itself follows as `input_json_delta` pieces.
          return [
            {
              index,
              ...(typeof block.id === "string" ? { id: block.id } : {}),
              name: typeof block.name === "string" ? block.name : "",
              argumentsDelta: "",
            },
          ];
        }
        if (data.type === "content_block_delta" && isRecord(data.delta)) {
          const delta = data.delta;
          if (delta.type === "input_json_delta" && typeof delta.partial_json === "string") {
            return [{ index, argumentsDelta: delta.partial_json }];
          }
        }
        return [];
      },
    };
  },
};

function anthropicOutputFields(output: OutputRequest): Record<string, unknown> {
  if (output.type === "json-schema") {
    return {
      tools: [
        {
          name: output.name,
          ...(output.description === undefined ? {} : { description: output.description }),
          input_schema: withoutDialect(output.schema),
        },
      ],
      tool_choice: { type: "tool", name: output.name },
    };
  }
  const only = output.tools.length === 1 ? output.tools[0] : undefined;
  return {
    tools: output.tools.map((tool) => ({
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      input_schema: withoutDialect(tool.parameters),
    })),
    tool_choice:
      output.choice === "auto"
        ? { type: "auto" }
        : only !== undefined
          ? { type: "tool", name: only.name }
          : { type: "any" },
  };
}
