import type { ChatMessage, MediaValue, MessagePart } from "../util/index.js";
import { MEDIA_DELIMITER, ROLE_DELIMITER } from "./chat-markers.js";

/**
 * Splits a rendered prompt into chat messages the way BAML does: without role markers or media the whole
 * text is one message in the client's default role (kept as is); otherwise each role marker starts a
 * message, text parts are trimmed, empty parts and empty messages are dropped, and media values become
 * their own parts. Role kwargs other than `role` become the message's metadata.
 */
export function splitChatMessages(
  rendered: string,
  defaultRole: string,
  media: readonly MediaValue[],
): ChatMessage[] {
  if (!rendered.includes(ROLE_DELIMITER) && !rendered.includes(MEDIA_DELIMITER)) {
    return [{ role: defaultRole, parts: [{ type: "text", text: rendered }] }];
  }
  const messages: ChatMessage[] = [];
  let role: string | undefined;
  let metadata: Record<string, unknown> | undefined;
  for (const chunk of rendered.split(ROLE_DELIMITER)) {
    if (chunk.startsWith(":baml-start-baml:") && chunk.endsWith(":baml-end-baml:")) {
      const parsed = JSON.parse(chunk.slice(":baml-start-baml:".length, -":baml-end-baml:".length)) as Record<
        string,
        unknown
      >;
      role = String(parsed.role);
      const { role: _role, ...rest } = parsed;
      metadata = Object.keys(rest).length > 0 ? rest : undefined;
      continue;
    }
    if (role === undefined && chunk === "") continue;
    const parts: MessagePart[] = [];
    for (const piece of chunk.split(MEDIA_DELIMITER)) {
      if (piece.startsWith(":baml-start-media:") && piece.endsWith(":baml-end-media:")) {
        const item = media[Number(piece.slice(":baml-start-media:".length, -":baml-end-media:".length))];
        if (item) parts.push({ type: "media", media: item });
      } else if (piece.trim() !== "") {
        parts.push({ type: "text", text: piece.trim() });
      }
    }
    if (parts.length > 0)
      messages.push({ role: role ?? defaultRole, parts, ...(metadata ? { metadata } : {}) });
  }
  return messages;
}
