/**
 * How BAML turns a rendered prompt into provider messages (measured against @boundaryml/baml 0.226.2's
 * `buildRequest`, see `npm run bench -- prompt`): consecutive messages of one role become one turn whose
 * content lists every part, and the role metadata (`cache_control`, …) of each rendered message stays with
 * that message's own parts, not with the whole turn. Providers with a separate system field (Anthropic,
 * Gemini, Bedrock) take a system turn there only when it opens the prompt and something follows; any other
 * system turn is sent as a user turn, since those APIs have no system role inside the conversation.
 */
import type { ChatMessage, MessagePart } from "../util/index.js";

/** One part of a turn, with the metadata of the rendered message it came from. */
export interface TurnPart {
  part: MessagePart;
  metadata: Record<string, unknown> | undefined;
  /** The last part of its rendered message (Anthropic and Bedrock put a cache mark only there). */
  endsMessage: boolean;
}

/** Consecutive messages of one role, merged. */
export interface RoleTurn {
  role: string;
  parts: TurnPart[];
}

/** Merges consecutive messages of one role; messages without parts are dropped, as BAML does. */
export function toRoleTurns(messages: readonly ChatMessage[]): RoleTurn[] {
  const turns: RoleTurn[] = [];
  for (const message of messages) {
    if (message.parts.length === 0) continue;
    const parts = message.parts.map((part, index) => ({
      part,
      metadata: message.metadata,
      endsMessage: index === message.parts.length - 1,
    }));
    const previous = turns[turns.length - 1];
    if (previous?.role === message.role) previous.parts.push(...parts);
    else turns.push({ role: message.role, parts });
  }
  return turns;
}

/**
 * For APIs with a separate system field: the opening system turn (when other turns follow) and the
 * conversation, where any other system turn has become a user turn (not merged with its neighbours, as in
 * BAML).
 */
export function splitSystemTurn(messages: readonly ChatMessage[]): {
  system: RoleTurn | undefined;
  conversation: RoleTurn[];
} {
  const turns = toRoleTurns(messages);
  const first = turns[0];
  const system = first?.role === "system" && turns.length > 1 ? first : undefined;
  const conversation = (system === undefined ? turns : turns.slice(1)).map((turn) =>
    turn.role === "system" ? { role: "user", parts: turn.parts } : turn,
  );
  return { system, conversation };
}

/** The text of a turn's text parts, joined by a space (BAML's string content for `openai-generic`). */
export function turnText(turn: RoleTurn): string {
  return turn.parts.map(({ part }) => (part.type === "text" ? part.text : "")).join(" ");
}
