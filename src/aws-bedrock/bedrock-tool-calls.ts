/**
 * Tool calls in the Bedrock Converse format: `toolConfig {tools: [{toolSpec: {name, description,
 * inputSchema: {json}}}], toolChoice}` (`any`, or `tool` naming one); answers carry `toolUse {toolUseId,
 * name, input}` content blocks, `input` a JSON value; ConverseStream opens each with a `contentBlockStart`
 * whose `start.toolUse` names it and sends its input as `delta.toolUse.input` text pieces. Converse has no
 * response-schema mode: a provider-enforced schema is one tool the model is forced to call.
 */
import type { OutputRequest, ToolCall, ToolCallWire } from "../llm/index.js";
import {
  addOutputFields,
  argumentsText,
  isRecord,
  readToolEvent,
  toolCall,
  withoutDialect,
} from "../provider-helpers/index.js";

export const bedrockToolCalls: ToolCallWire = {
  writeRequest(body, output) {
    return addOutputFields(body, { toolConfig: bedrockToolConfig(output) });
  },
  readToolCalls(body) {
    const message = isRecord(body) && isRecord(body.output) ? body.output.message : undefined;
    if (!isRecord(message) || !Array.isArray(message.content)) return [];
    const calls: ToolCall[] = [];
    for (const block of message.content) {
      if (!isRecord(block) || !isRecord(block.toolUse)) continue;
      const use = block.toolUse;
      calls.push(toolCall(use.toolUseId, use.name, argumentsText(use.input)));
    }
    return calls;
  },
  createStreamReader() {
    return {
      push(event) {
        if (event.event !== "contentBlockStart" && event.event !== "contentBlockDelta") return [];
        const data = readToolEvent(event, ["toolUse"]);
        if (data === undefined) return [];
        const index = typeof data.contentBlockIndex === "number" ? data.contentBlockIndex : 0;
        if (event.event === "contentBlockStart") {
          const use = isRecord(data.start) ? data.start.toolUse : undefined;
          if (!isRecord(use)) return [];
          return [
            {
              index,
              ...(typeof use.toolUseId === "string" ? { id: use.toolUseId } : {}),
              name: typeof use.name === "string" ? use.name : "",
              argumentsDelta: "",
            },
          ];
        }
        const use = isRecord(data.delta) ? data.delta.toolUse : undefined;
        if (!isRecord(use)) return [];
        return [{ index, argumentsDelta: argumentsText(use.input) }];
      },
    };
  },
};

function bedrockToolConfig(output: OutputRequest): Record<string, unknown> {
  const spec = (name: string, description: string | undefined, schema: Record<string, unknown>) => ({
    toolSpec: {
      name,
      ...(description === undefined ? {} : { description }),
      inputSchema: { json: withoutDialect(schema) },
    },
  });
  if (output.type === "json-schema") {
    return {
      tools: [spec(output.name, output.description, output.schema)],
      toolChoice: { tool: { name: output.name } },
    };
  }
  const only = output.tools.length === 1 ? output.tools[0] : undefined;
  return {
    tools: output.tools.map((tool) => spec(tool.name, tool.description, tool.parameters)),
    toolChoice:
      output.choice === "auto"
        ? { auto: {} }
        : only !== undefined
          ? { tool: { name: only.name } }
          : { any: {} },
  };
}
