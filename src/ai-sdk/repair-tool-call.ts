import { InvalidToolInputError } from "ai";
import { jsonSchemaTypedSchema } from "../json-schema/index.js";
import { parseTyped, SchemaParseError } from "../typed-schema/index.js";

/** The part of a model's tool call the repair reads and rewrites (AI SDK 6 `…V3ToolCall`, 7 `…V4ToolCall`). */
interface ToolCallLike {
  toolName: string;
  input: string;
}

/** What the AI SDK passes to `experimental_repairToolCall` (the fields read here, in both majors). */
export interface RepairToolCallOptions<Call extends ToolCallLike> {
  toolCall: Call;
  inputSchema: (options: { toolName: string }) => PromiseLike<unknown>;
  error: unknown;
}

/** Options of `repairToolCall`. */
export interface RepairToolCallSettings {
  /** Called when Sapling could not read the arguments either (the SDK then reports its own error). */
  onUnrepairable?: ((error: SchemaParseError, toolName: string) => void) | undefined;
}

/**
 * A repair function for `generateText` / `streamText`'s `experimental_repairToolCall`: when a tool call's
 * arguments are not valid JSON for the tool's input schema (single quotes, a fence, a trailing comma,
 * `"7"` for a number, arguments cut off by `max_tokens`), Sapling's parser reads them toward that schema and
 * the call goes on with the repaired arguments, with no second model call. A call to an unknown tool, or
 * arguments that name no value of the schema, are not repaired: the SDK reports its error as before.
 *
 * ```ts
 * await generateText({ model, tools, prompt, experimental_repairToolCall: repairToolCall() });
 * ```
 */
export function repairToolCall(settings: RepairToolCallSettings = {}) {
  return async <Call extends ToolCallLike>(options: RepairToolCallOptions<Call>): Promise<Call | null> => {
    // Only arguments can be read again; an unknown tool name is the model's choice, not its syntax.
    if (!InvalidToolInputError.isInstance(options.error)) return null;
    const { toolName } = options.toolCall;
    const schema = await options.inputSchema({ toolName });
    if (schema === null || typeof schema !== "object") return null;
    try {
      const { value } = parseTyped(
        jsonSchemaTypedSchema(schema as Record<string, unknown>),
        options.toolCall.input,
      );
      return { ...options.toolCall, input: JSON.stringify(value) };
    } catch (error) {
      if (!SchemaParseError.isInstance(error)) throw error;
      settings.onUnrepairable?.(error, toolName);
      return null;
    }
  };
}
