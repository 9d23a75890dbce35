import type { OutputMode, ToolCall, ToolCallDelta } from "../llm/index.js";
import type { PromptClient } from "../prompt/index.js";
import type { Flag, StreamPush } from "../sap/index.js";
import type { ChatMessage } from "../util/index.js";
import type { OutputPlan } from "./output-plan.js";
import type { ToolCallUse } from "./read-answer.js";

/** A final parse: the value and every repair the parser made to reach it (empty for exact JSON). */
export interface ParsedAnswer {
  value: unknown;
  repairs: readonly Flag[];
  /** The answer's native tool calls, each marked used or not (empty for a text answer). */
  toolCalls: readonly ToolCallUse[];
}

/**
 * Turns a streamed answer into partial values. `append` (text) and `pushToolCall` (native tool calls)
 * only advance the parser; `read` builds the partial when someone wants it and gives the stream parser's
 * `StreamPush` as it is (its value in the function's shape: `@check` results wrapped), so whether the
 * partial is new since the previous read is the parser's answer, decided once. Once a tool call starts,
 * the calls are the answer and text no longer makes partials: `read` is then another function, the tool
 * calls' (a new source for the stream, see `StreamSink.offer`).
 */
export interface PartialParser {
  append(chunk: string): void;
  pushToolCall(delta: ToolCallDelta): void;
  readonly read: () => StreamPush;
}

/** A whole answer: its text and its native tool calls. */
export interface AnswerContent {
  text: string;
  toolCalls: readonly ToolCall[];
}

/**
 * What the runtime needs from one function for one call: its prompt, and the parser of its answers. The
 * attempt loop sees only this seam, so strategies, retries and streaming do not depend on how prompts are
 * rendered or answers parsed.
 */
export interface FunctionPipeline {
  /**
   * The prompt; `ctx.output_format` renders empty when the plan's schema is enforced by the provider. The
   * first render loads the prompt room (`LlmLoadError` when it cannot be loaded).
   */
  render(client: PromptClient, plan?: OutputPlan): Promise<ChatMessage[]>;
  /**
   * How answers are asked for and read in `mode` (cached per mode). Throws `BamlInvalidArgumentError` when
   * the return type cannot be served that way.
   */
  outputPlan(mode: OutputMode): OutputPlan;
  /**
   * Final-mode parse of a text (`b.parse`) or a whole answer read by `plan` (default: prompt mode); throws
   * `BamlValidationError` (with the prompt and the raw text or tool arguments) on failure.
   */
  parseFinal(
    answer: string | AnswerContent,
    messages: readonly ChatMessage[],
    plan?: OutputPlan,
  ): ParsedAnswer;
  createPartialParser(plan?: OutputPlan): PartialParser;
  /** Prefix-mode parse of a partial answer into the partial type (`b.parseStream`). */
  parsePartial(text: string): unknown;
}

/** The prompt as text, one `role: text` block per message, for error messages and `BamlValidationError`. */
export function promptToText(messages: readonly ChatMessage[]): string {
  return messages
    .map((message) => {
      const body = message.parts
        .map((part) =>
          part.type === "text" ? part.text : `<${part.media.type} ${part.media.url ?? "base64"}>`,
        )
        .join("");
      return `${message.role}: ${body}`;
    })
    .join("\n\n");
}
