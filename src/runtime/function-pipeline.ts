import type { Flag } from "../sap/index.js";
import type { ChatMessage } from "../util/index.js";

/** The client a prompt is rendered for (`ctx.client` in templates). */
export interface PromptClient {
  name: string;
  provider: string;
}

/** A final parse: the value and every repair the parser made to reach it (empty for exact JSON). */
export interface ParsedAnswer {
  value: unknown;
  repairs: readonly Flag[];
}

/** Turns streamed text into partial values; `push` returns `undefined` when nothing new can be shown. */
export interface PartialParser {
  push(chunk: string): unknown;
}

/**
 * What the runtime needs from one function for one call: its prompt, and the parser of its answers. The
 * attempt loop sees only this seam, so strategies, retries and streaming do not depend on how prompts are
 * rendered or answers parsed.
 */
export interface FunctionPipeline {
  render(client: PromptClient): ChatMessage[];
  /** Final-mode parse; throws `BamlValidationError` (with the prompt and the raw text) on failure. */
  parseFinal(text: string, messages: readonly ChatMessage[]): ParsedAnswer;
  createPartialParser(): PartialParser;
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
