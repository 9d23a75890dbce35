import type { ChatMessage } from "../../util/index.js";
import type { TokenCounter, TokenCounts } from "../count-tokens.js";

/**
 * A rendered prompt as `sapling render` prints it (and the editor's "render prompt" lens shows it): each
 * message under a `── role` line, media as a one-line placeholder, then a summary naming the client,
 * with token counts when a counter is given.
 */
export function formatRenderedMessages(
  messages: readonly ChatMessage[],
  clientName: string,
  countTokens: TokenCounter | undefined,
): string {
  const lines: string[] = [];
  const total: TokenCounts = { o200k_base: 0, cl100k_base: 0 };
  for (const message of messages) {
    const text = message.parts.map((part) => (part.type === "text" ? part.text : "")).join("");
    const metadata = message.metadata ? ` ${JSON.stringify(message.metadata)}` : "";
    if (countTokens) {
      const counts = countTokens(text);
      total.o200k_base += counts.o200k_base;
      total.cl100k_base += counts.cl100k_base;
      lines.push(
        `── ${message.role}${metadata} (${counts.o200k_base} o200k_base, ${counts.cl100k_base} cl100k_base tokens)`,
      );
    } else lines.push(`── ${message.role}${metadata}`);
    for (const part of message.parts) {
      if (part.type === "text") lines.push(part.text);
      else {
        const media = part.media;
        const where =
          media.url ?? `base64, ${media.mediaType ?? "unknown type"}, ${media.base64?.length ?? 0} chars`;
        lines.push(`[${media.type}: ${where}]`);
      }
    }
  }
  const tokens = countTokens
    ? `; text tokens: ${total.o200k_base} o200k_base, ${total.cl100k_base} cl100k_base (media not counted)`
    : "";
  return `${lines.map((line) => `${line}\n`).join("")}\n${messages.length} message(s) for client ${clientName}${tokens}\n`;
}
