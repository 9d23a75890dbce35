/**
 * The Bedrock Converse wire format: messages of content blocks (`{text}`, `{image: {format, source:
 * {bytes}}}`, `{document: …}`, `{video: …}`), system prompts in `system: [{text}]`, `inferenceConfig`; the
 * answer in `output.message.content[].text` with `stopReason` and `usage`. ConverseStream sends the same
 * data as events named by the event stream's `:event-type`: `messageStart`, `contentBlockStart`,
 * `contentBlockDelta {delta: {text}}`, `contentBlockStop`, `messageStop {stopReason}`,
 * `metadata {usage, metrics}`; failures arrive as exception messages (`:message-type` `exception`).
 */

import type {
  FinishReason,
  ModelUsage,
  ProviderAnswer,
  ProviderStreamReader,
  StreamDecoder,
} from "../llm/index.js";
import {
  isRecord,
  LlmOptionsError,
  optionalNumber,
  ProviderStreamError,
  ResponseShapeError,
  type RoleTurn,
  splitSystemTurn,
} from "../provider-helpers/index.js";
import type { ChatMessage, MediaValue } from "../util/index.js";
import {
  AwsEventStreamDecoder,
  AwsEventStreamError,
  type AwsEventStreamMessage,
} from "./aws-event-stream.js";

/**
 * The body's `system` and `messages`, by BAML's rules (role-turns.ts): the opening system turn goes to
 * `system`, a later one is sent as user. Blank text blocks are dropped, and a rendered message with
 * `cache_control` metadata ends with a `cachePoint` block (BAML adds one after every block; Bedrock allows
 * four per request, so one per message is what a longer message can use). Unlike BAML, adjacent turns that
 * end up with the same role (user, a later system turn, user) are joined: Converse refuses a conversation
 * that does not alternate between user and assistant.
 */
export function toConverseMessages(
  messages: readonly ChatMessage[],
  provider: string,
): { system: Record<string, unknown>[]; messages: Record<string, unknown>[] } {
  const turns = splitSystemTurn(messages);
  let documentCount = 0;
  const toBlocks = (turn: RoleTurn, inSystem: boolean): Record<string, unknown>[] => {
    const blocks: Record<string, unknown>[] = [];
    for (const { part, metadata, endsMessage } of turn.parts) {
      // Bedrock rejects a text block that is empty or only whitespace ("the text field … is blank").
      if (part.type === "text") {
        if (part.text.trim() !== "") blocks.push({ text: part.text });
      } else {
        if (inSystem) {
          throw new LlmOptionsError("media", "Bedrock takes media in user messages, not system prompts.", {
            provider,
          });
        }
        if (part.media.type === "pdf") documentCount++;
        blocks.push(toMediaBlock(part.media, documentCount, provider));
      }
      if (endsMessage && metadata?.cache_control !== undefined && blocks.length > 0) {
        blocks.push({ cachePoint: { type: "default" } });
      }
    }
    return blocks;
  };
  const system = turns.system === undefined ? [] : toBlocks(turns.system, true);
  const conversation: Record<string, unknown>[] = [];
  for (const turn of turns.conversation) {
    if (turn.role !== "user" && turn.role !== "assistant") {
      throw new LlmOptionsError(
        "remap_roles",
        `Bedrock Converse accepts the roles system, user and assistant, not "${turn.role}". Map it with remap_roles { ${turn.role} "user" }.`,
        { provider },
      );
    }
    const blocks = toBlocks(turn, false);
    if (blocks.length === 0) continue;
    const previous = conversation[conversation.length - 1];
    if (previous?.role === turn.role) (previous.content as Record<string, unknown>[]).push(...blocks);
    else conversation.push({ role: turn.role, content: blocks });
  }
  return { system, messages: conversation };
}

const videoFormats: Record<string, string> = {
  "video/mp4": "mp4",
  "video/webm": "webm",
  "video/quicktime": "mov",
  "video/x-matroska": "mkv",
  "video/x-flv": "flv",
  "video/mpeg": "mpeg",
  "video/x-ms-wmv": "wmv",
  "video/3gpp": "three_gp",
};

function toMediaBlock(media: MediaValue, documentNumber: number, provider: string): Record<string, unknown> {
  const fail = (option: string, detail: string): never => {
    throw new LlmOptionsError(option, detail, { provider });
  };
  if (media.type === "audio") return fail("media", "Bedrock Converse does not accept audio input.");
  let source: Record<string, unknown>;
  if (media.base64 !== undefined) source = { bytes: media.base64 };
  else if (media.url?.startsWith("s3://")) source = { s3Location: { uri: media.url } };
  else {
    return fail(
      "media_url_handler",
      `Bedrock takes media as bytes or an s3:// location, not the URL ${media.url}. Use media_url_handler { ${media.type} "send_base64" } (the default).`,
    );
  }
  const mediaType = (media.mediaType ?? "").toLowerCase();
  if (media.type === "pdf") {
    // Converse requires a document name; it is shown to the model, so a neutral one.
    return { document: { format: "pdf", name: `document ${documentNumber}`, source } };
  }
  if (media.type === "image") {
    const format = /^image\/(png|jpeg|gif|webp)$/.exec(mediaType.replace("image/jpg", "image/jpeg"))?.[1];
    if (format === undefined) {
      return fail("media", `Bedrock accepts PNG, JPEG, GIF and WebP images, not "${media.mediaType}".`);
    }
    return { image: { format, source } };
  }
  const format = videoFormats[mediaType];
  if (format === undefined) {
    return fail(
      "media",
      `Bedrock does not accept video of type "${media.mediaType}" (mp4, webm, mov, mkv, …).`,
    );
  }
  return { video: { format, source } };
}

/** Reads a Converse response. */
export function parseConverseResponse(body: unknown, model: string | undefined): ProviderAnswer {
  const message = isRecord(body) && isRecord(body.output) ? body.output.message : undefined;
  if (!isRecord(body) || !isRecord(message) || !Array.isArray(message.content)) {
    throw new ResponseShapeError("expected a Converse response with `output.message.content`");
  }
  let text = "";
  for (const block of message.content)
    if (isRecord(block) && typeof block.text === "string") text += block.text;
  const rawFinishReason = typeof body.stopReason === "string" ? body.stopReason : undefined;
  return {
    text,
    rawFinishReason,
    finishReason: mapBedrockStopReason(rawFinishReason),
    usage: readConverseUsage(body.usage, { inputTokens: undefined, outputTokens: undefined }),
    model,
  };
}

/** Reads ConverseStream events (as named by `createConverseStreamDecoder`). */
export function createConverseStreamReader(model: string | undefined): ProviderStreamReader {
  let rawFinishReason: string | undefined;
  let usage: ModelUsage = { inputTokens: undefined, outputTokens: undefined };
  return {
    push(event) {
      let data: unknown;
      try {
        data = JSON.parse(event.data);
      } catch {
        throw new ResponseShapeError(`a ConverseStream ${event.event ?? ""} event's payload is not JSON`);
      }
      if (!isRecord(data)) throw new ResponseShapeError("a ConverseStream event's payload is not an object");
      switch (event.event) {
        case "contentBlockDelta":
          return isRecord(data.delta) && typeof data.delta.text === "string" ? data.delta.text : "";
        case "messageStop":
          if (typeof data.stopReason === "string") rawFinishReason = data.stopReason;
          return "";
        case "metadata":
          usage = readConverseUsage(data.usage, usage);
          return "";
        default:
          // messageStart, contentBlockStart (tool use), contentBlockStop, and event types added later.
          return "";
      }
    },
    result() {
      return { rawFinishReason, finishReason: mapBedrockStopReason(rawFinishReason), usage, model };
    },
  };
}

/** The HTTP status Bedrock documents for each ConverseStream exception. */
const exceptionStatus: Record<string, number> = {
  validationException: 400,
  accessDeniedException: 403,
  resourceNotFoundException: 404,
  modelTimeoutException: 408,
  modelStreamErrorException: 424,
  throttlingException: 429,
  internalServerException: 500,
  serviceUnavailableException: 503,
};

/**
 * Event stream frames → events named by `:event-type` with the payload as text. An exception frame is the
 * provider's error (`ProviderStreamError` with its documented status); corrupt frames are a shape error.
 */
export function createConverseStreamDecoder(): StreamDecoder {
  const decoder = new AwsEventStreamDecoder();
  const utf8 = new TextDecoder();
  const toEvents = (messages: AwsEventStreamMessage[]) =>
    messages.flatMap((message) => {
      const data = utf8.decode(message.payload);
      const messageType = message.headers[":message-type"];
      if (messageType === "exception") {
        const type = String(message.headers[":exception-type"] ?? "exception");
        throw new ProviderStreamError(exceptionStatus[type] ?? 500, describeException(type, data));
      }
      if (messageType === "error") {
        const code = String(message.headers[":error-code"] ?? "error");
        const text = String(message.headers[":error-message"] ?? data);
        throw new ProviderStreamError(500, JSON.stringify({ type: code, message: text }));
      }
      const event = message.headers[":event-type"];
      return typeof event === "string" ? [{ event, data }] : [];
    });
  const read = <T>(step: () => T): T => {
    try {
      return step();
    } catch (error) {
      if (error instanceof AwsEventStreamError) throw new ResponseShapeError(error.message);
      throw error;
    }
  };
  return {
    push: (chunk) => read(() => toEvents(decoder.push(chunk))),
    end: () =>
      read(() => {
        decoder.end();
        return [];
      }),
  };
}

/** `{"type": "throttlingException", "message": "…"}`: the exception's payload, named. */
function describeException(type: string, payload: string): string {
  try {
    const parsed: unknown = JSON.parse(payload);
    if (isRecord(parsed)) return JSON.stringify({ type, ...parsed });
  } catch {
    // Not JSON: keep the text as sent.
  }
  return JSON.stringify({ type, message: payload });
}

/** Bedrock, like Anthropic, counts cache reads and writes apart; Sapling's `inputTokens` includes them. */
function readConverseUsage(usage: unknown, previous: ModelUsage): ModelUsage {
  if (!isRecord(usage)) return previous;
  const cached = optionalNumber(usage.cacheReadInputTokens) ?? previous.cachedInputTokens;
  const written = optionalNumber(usage.cacheWriteInputTokens) ?? previous.cacheWriteInputTokens;
  const uncached = optionalNumber(usage.inputTokens);
  const result: ModelUsage = {
    inputTokens: uncached === undefined ? previous.inputTokens : uncached + (cached ?? 0) + (written ?? 0),
    outputTokens: optionalNumber(usage.outputTokens) ?? previous.outputTokens,
  };
  if (cached !== undefined) result.cachedInputTokens = cached;
  if (written !== undefined) result.cacheWriteInputTokens = written;
  return result;
}

export function mapBedrockStopReason(raw: string | undefined): FinishReason {
  switch (raw) {
    case undefined:
      return "unknown";
    case "end_turn":
    case "stop_sequence":
      return "stop";
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "tool_use":
      return "tool-calls";
    case "guardrail_intervened":
    case "content_filtered":
      return "content-filter";
    default:
      return "other";
  }
}
