/**
 * Gemini's `generateContent` / `streamGenerateContent?alt=sse`: roles `user` and `model`, system messages
 * hoisted into `system_instruction`, media as `inline_data` (base64) or `file_data` (URI). Every stream event
 * is a whole `GenerateContentResponse`; there is no end marker, the stream just ends, and `usageMetadata`
 * on the last event holds the totals.
 */

import {
  isRecord,
  mergeHeaders,
  optionalNumber,
  ProviderStreamError,
  ResponseShapeError,
  type RoleTurn,
  splitSystemTurn,
  withQuery,
} from "../../provider-helpers/index.js";
import type { ChatMessage, MediaKind, MediaValue } from "../../util/index.js";
import type { ClientOptions, MediaUrlMode } from "../client-options.js";
import type { FinishReason, ModelUsage, ProviderRequest } from "../language-model.js";
import { geminiToolCalls } from "./gemini-tool-calls.js";
import { googleReasoning } from "./google-reasoning.js";
import type { ProviderAdapter, ProviderAnswer, ProviderStreamReader } from "./provider-adapter.js";

export const googleDefaultModel = "gemini-2.5-flash";

/**
 * `modelsUrl` is the URL the model name is appended to: `{baseUrl}/models` for the Gemini API, a project's
 * `…/publishers/google/models` on Vertex AI.
 */
export function createGoogleGenerateContentAdapter(
  options: ClientOptions,
  baseUrl: string,
  modelsUrl = `${baseUrl}/models`,
): ProviderAdapter {
  // Google's own names carry a `models/` prefix (`models/gemini-2.5-flash`); the URL adds it already.
  const model = (options.model ?? googleDefaultModel).replace(/^models\//, "");
  return {
    modelId: model,
    // As BAML does: an image URL is downloaded and inlined (Gemini fetches no arbitrary image URL), while
    // audio, pdf and video URLs go as `file_data.file_uri`, unfetched (Gemini reads them itself).
    defaultMediaUrlMode: (kind: MediaKind): MediaUrlMode =>
      kind === "image" ? "send_base64_unless_google_url" : "send_url",
    buildRequest(messages: readonly ChatMessage[], stream: boolean): ProviderRequest {
      const { system, conversation } = splitSystemTurn(messages);
      const body: Record<string, unknown> = { ...options.passthrough };
      if (system !== undefined) body.system_instruction = { parts: toParts(system) };
      body.contents = conversation.map((turn) => ({
        role: turn.role === "assistant" ? "model" : turn.role,
        parts: toParts(turn),
      }));
      const path = `${modelsUrl}/${encodeURIComponent(model)}:${stream ? "streamGenerateContent" : "generateContent"}`;
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (options.apiKey !== undefined) headers["x-goog-api-key"] = options.apiKey;
      return {
        url: withQuery(path, { ...(stream ? { alt: "sse" } : {}), ...options.queryParams }),
        method: "POST",
        headers: mergeHeaders(headers, options.headers),
        body,
      };
    },
    parseResponse(body: unknown): ProviderAnswer {
      const piece = readPiece(body, model);
      return { ...piece, usage: piece.usage ?? { inputTokens: undefined, outputTokens: undefined } };
    },
    toolCalls: geminiToolCalls,
    reasoning: googleReasoning,
    createStreamReader(): ProviderStreamReader {
      let rawFinishReason: string | undefined;
      let usage: ModelUsage = { inputTokens: undefined, outputTokens: undefined };
      let answerModel: string | undefined = model;
      return {
        push(event) {
          let data: unknown;
          try {
            data = JSON.parse(event.data);
          } catch {
            throw new ResponseShapeError("an SSE event's data is not JSON");
          }
          if (isRecord(data) && isRecord(data.error)) {
            const status = optionalNumber(data.error.code) ?? 500;
            throw new ProviderStreamError(
              status >= 400 && status < 600 ? status : 500,
              JSON.stringify(data.error),
            );
          }
          const piece = readPiece(data, answerModel);
          if (piece.rawFinishReason !== undefined) rawFinishReason = piece.rawFinishReason;
          if (piece.usage !== undefined) usage = piece.usage;
          answerModel = piece.model;
          return piece.text;
        },
        result() {
          return {
            rawFinishReason,
            finishReason: mapGoogleFinishReason(rawFinishReason),
            usage,
            model: answerModel,
          };
        },
      };
    },
  };
}

/** One `GenerateContentResponse` (a whole answer, or one stream event). */
function readPiece(
  body: unknown,
  model: string | undefined,
): Omit<ProviderAnswer, "usage"> & { usage?: ModelUsage } {
  if (!isRecord(body)) throw new ResponseShapeError("expected a GenerateContentResponse object");
  const answerModel = typeof body.modelVersion === "string" ? body.modelVersion : model;
  const usage = readGoogleUsage(body.usageMetadata);
  const candidates = body.candidates;
  if (!Array.isArray(candidates) || candidates.length === 0) {
    // A prompt blocked by safety settings has no candidates, only `promptFeedback.blockReason`.
    const blockReason =
      isRecord(body.promptFeedback) && typeof body.promptFeedback.blockReason === "string"
        ? body.promptFeedback.blockReason
        : undefined;
    if (blockReason === undefined && candidates !== undefined && !Array.isArray(candidates)) {
      throw new ResponseShapeError("`candidates` is not an array");
    }
    if (blockReason === undefined && usage === undefined) {
      throw new ResponseShapeError("expected `candidates`, `promptFeedback` or `usageMetadata`");
    }
    return {
      text: "",
      rawFinishReason: blockReason,
      finishReason: blockReason === undefined ? "unknown" : "content-filter",
      model: answerModel,
      ...(usage === undefined ? {} : { usage }),
    };
  }
  const candidate = candidates[0];
  if (!isRecord(candidate)) throw new ResponseShapeError("`candidates[0]` is not an object");
  let text = "";
  const parts = isRecord(candidate.content) ? candidate.content.parts : undefined;
  if (Array.isArray(parts)) {
    for (const part of parts) {
      // Thought summaries (`thought: true`) are not part of the answer.
      if (isRecord(part) && typeof part.text === "string" && part.thought !== true) text += part.text;
    }
  }
  const rawFinishReason = typeof candidate.finishReason === "string" ? candidate.finishReason : undefined;
  return {
    text,
    rawFinishReason,
    finishReason: mapGoogleFinishReason(rawFinishReason),
    model: answerModel,
    ...(usage === undefined ? {} : { usage }),
  };
}

/** A turn's parts; each carries its rendered message's role metadata, as BAML sends it. */
function toParts(turn: RoleTurn): Record<string, unknown>[] {
  return turn.parts.map(({ part, metadata }) => ({
    ...(part.type === "text" ? { text: part.text } : toMediaPart(part.media)),
    ...metadata,
  }));
}

function toMediaPart(media: MediaValue): Record<string, unknown> {
  if (media.base64 !== undefined) {
    return { inline_data: { mime_type: media.mediaType ?? "", data: media.base64 } };
  }
  const fileData: Record<string, string> = { file_uri: media.url ?? "" };
  // A pdf's type is known without asking (BAML sends it too); other kinds name none unless given.
  const mediaType = media.mediaType ?? (media.type === "pdf" ? "application/pdf" : undefined);
  if (mediaType !== undefined) fileData.mime_type = mediaType;
  return { file_data: fileData };
}

function readGoogleUsage(metadata: unknown): ModelUsage | undefined {
  if (!isRecord(metadata)) return undefined;
  // Gemini counts thinking apart from the candidates; Sapling's `outputTokens` includes it (as OpenAI's does).
  const candidates = optionalNumber(metadata.candidatesTokenCount);
  const thoughts = optionalNumber(metadata.thoughtsTokenCount);
  const usage: ModelUsage = {
    inputTokens: optionalNumber(metadata.promptTokenCount),
    outputTokens:
      candidates === undefined && thoughts === undefined ? undefined : (candidates ?? 0) + (thoughts ?? 0),
  };
  const cached = optionalNumber(metadata.cachedContentTokenCount);
  if (cached !== undefined) usage.cachedInputTokens = cached;
  if (thoughts !== undefined) usage.reasoningTokens = thoughts;
  return usage;
}

export function mapGoogleFinishReason(raw: string | undefined): FinishReason {
  switch (raw) {
    case undefined:
      return "unknown";
    case "STOP":
      return "stop";
    case "MAX_TOKENS":
      return "length";
    case "SAFETY":
    case "RECITATION":
    case "BLOCKLIST":
    case "PROHIBITED_CONTENT":
    case "SPII":
    case "IMAGE_SAFETY":
      return "content-filter";
    case "MALFORMED_FUNCTION_CALL":
      return "error";
    default:
      return "other";
  }
}
