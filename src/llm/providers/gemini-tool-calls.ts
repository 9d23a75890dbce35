/**
 * Tool calls in the Gemini `generateContent` format (Google AI and Vertex AI): `tools:
 * [{functionDeclarations: [{name, description, parameters}]}]` with `toolConfig.functionCallingConfig`
 * (`ANY`, limited to one name when there is one tool); answers carry `functionCall {name, args}` parts,
 * `args` a JSON value. Streams send each call whole in one event. A provider-enforced schema is
 * `generationConfig {responseMimeType: "application/json", responseSchema}`. Schemas are converted to
 * Gemini's OpenAPI subset; a recursive one is sent as JSON Schema (`parametersJsonSchema`,
 * `responseJsonSchema`), which Gemini also takes.
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
import { toGeminiSchema } from "./gemini-schema.js";

export const geminiToolCalls: ToolCallWire = {
  writeRequest(body, output) {
    if (output.type === "json-schema") {
      const converted = toGeminiSchema(output.schema);
      const schemaField =
        converted === undefined
          ? { responseJsonSchema: withoutDialect(output.schema) }
          : { responseSchema: converted };
      // The client's own generation settings (`temperature`…) stay; a schema it gives wins.
      const key = isRecord(body.generation_config) ? "generation_config" : "generationConfig";
      const given = isRecord(body[key]) ? body[key] : {};
      return { ...body, [key]: { responseMimeType: "application/json", ...schemaField, ...given } };
    }
    return addOutputFields(body, geminiToolFields(output));
  },
  readToolCalls(body) {
    return readCalls(body);
  },
  createStreamReader() {
    let count = 0;
    return {
      push(event) {
        const data = readToolEvent(event, ["functionCall"]);
        if (data === undefined) return [];
        // Each event holds whole calls: number them across the stream.
        return readCalls(data).map((call) => ({
          index: count++,
          ...(call.id === undefined ? {} : { id: call.id }),
          name: call.name,
          argumentsDelta: call.arguments,
        }));
      },
    };
  },
};

function geminiToolFields(output: Extract<OutputRequest, { type: "tools" }>): Record<string, unknown> {
  const only = output.tools.length === 1 ? output.tools[0] : undefined;
  return {
    tools: [
      {
        functionDeclarations: output.tools.map((tool) => {
          const converted = toGeminiSchema(tool.parameters);
          return {
            name: tool.name,
            ...(tool.description === undefined ? {} : { description: tool.description }),
            ...(converted === undefined
              ? { parametersJsonSchema: withoutDialect(tool.parameters) }
              : { parameters: converted }),
          };
        }),
      },
    ],
    toolConfig: {
      functionCallingConfig:
        output.choice === "auto"
          ? { mode: "AUTO" }
          : { mode: "ANY", ...(only === undefined ? {} : { allowedFunctionNames: [only.name] }) },
    },
  };
}

function readCalls(body: unknown): ToolCall[] {
  if (!isRecord(body) || !Array.isArray(body.candidates)) return [];
  const candidate = body.candidates[0];
  const parts = isRecord(candidate) && isRecord(candidate.content) ? candidate.content.parts : undefined;
  if (!Array.isArray(parts)) return [];
  const calls: ToolCall[] = [];
  for (const part of parts) {
    if (!isRecord(part) || !isRecord(part.functionCall)) continue;
    const call = part.functionCall;
    calls.push(toolCall(call.id, call.name, argumentsText(call.args ?? {})));
  }
  return calls;
}
