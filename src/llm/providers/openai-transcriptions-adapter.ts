/**
 * OpenAI's speech-to-text API (`POST {base_url}/audio/transcriptions`), used by the `openai-transcriptions`
 * provider (BAML 0.226). The request is a multipart form, as BAML 0.226.2 sends it (measured): `model`, the
 * prompt's text as `prompt` (left out when empty), every other option as a field of its own, `stream` on
 * streaming calls, and last the audio as `file` (`audio.{subtype}`). The prompt must carry exactly one audio
 * value and no other media. The answer is the JSON body's `text`; a stream's `transcript.text.delta`
 * events carry the text and `transcript.text.done` the usage. BAML does not stream this provider (its
 * streamed calls send one whole request), so `supports_streaming` is false unless the client sets it.
 */

import {
  isRecord,
  LlmOptionsError,
  mergeHeaders,
  optionalNumber,
  ResponseShapeError,
  withQuery,
} from "../../provider-helpers/index.js";
import type { ChatMessage, MediaValue } from "../../util/index.js";
import type { ClientOptions } from "../client-options.js";
import type { ModelUsage, ProviderRequest } from "../language-model.js";
import type { ProviderAdapter, ProviderAnswer, ProviderStreamReader } from "./provider-adapter.js";
import { readTypedEvent } from "./read-typed-event.js";

export interface OpenAiTranscriptionsSettings {
  provider: string;
  /** The full endpoint without query (`…/audio/transcriptions`). */
  url: string;
  /** Auth headers, before the client's `headers` option (which wins). */
  headers: Record<string, string>;
  options: ClientOptions;
}

export function createOpenAiTranscriptionsAdapter(settings: OpenAiTranscriptionsSettings): ProviderAdapter {
  const { options, provider } = settings;
  const outcome = (body: Record<string, unknown>): Omit<ProviderAnswer, "text"> => ({
    rawFinishReason: undefined,
    finishReason: "unknown",
    usage: readUsage(body.usage),
    model: options.model,
  });
  return {
    modelId: options.model,
    // The audio is uploaded, so a URL is always downloaded first (BAML fetches it too).
    defaultMediaUrlMode: () => "send_base64",
    buildRequest(messages: readonly ChatMessage[], stream: boolean): ProviderRequest {
      const { text, audio } = splitPrompt(messages, provider);
      const fields: Record<string, unknown> = {};
      if (options.model !== undefined) fields.model = options.model;
      if (text !== "") fields.prompt = text;
      for (const [name, value] of Object.entries(options.passthrough)) {
        if (name !== "stream" && name !== "file") fields[name] = value;
      }
      if (stream) fields.stream = true;
      fields.file = audio;
      return {
        url: withQuery(settings.url, options.queryParams),
        method: "POST",
        // No content-type: `fetch` writes the multipart one with its boundary.
        headers: mergeHeaders(settings.headers, options.headers),
        body: fields,
        encoding: "multipart",
      };
    },
    parseResponse(body: unknown): ProviderAnswer {
      if (!isRecord(body) || typeof body.text !== "string") {
        throw new ResponseShapeError("expected a transcription object with a string `text`");
      }
      return { text: body.text, ...outcome(body) };
    },
    createStreamReader(): ProviderStreamReader {
      let result = outcome({});
      return {
        push(event) {
          const data = readTypedEvent(event);
          if (data.type === "transcript.text.done") result = outcome(data);
          if (data.type !== "transcript.text.delta") return "";
          if (typeof data.delta !== "string") throw new ResponseShapeError("a text delta has no `delta`");
          return data.delta;
        },
        result: () => result,
      };
    },
  };
}

/** The prompt's text (trimmed) and its one audio value; any other media, or not one audio, is refused. */
function splitPrompt(
  messages: readonly ChatMessage[],
  provider: string,
): { text: string; audio: MediaValue } {
  const texts: string[] = [];
  const media: MediaValue[] = [];
  for (const message of messages) {
    let text = "";
    for (const part of message.parts) {
      if (part.type === "text") text += part.text;
      else media.push(part.media);
    }
    texts.push(text);
  }
  const audio = media[0];
  if (media.length !== 1 || audio === undefined || audio.type !== "audio") {
    const found = media.map((value) => value.type).join(", ") || "none";
    throw new LlmOptionsError(
      "prompt",
      `an ${provider} call uploads one audio file: render exactly one audio value ({{ clip }}) and no other media; found: ${found}.`,
      { provider },
    );
  }
  return { text: texts.join("\n").trim(), audio };
}

function readUsage(usage: unknown): ModelUsage {
  if (!isRecord(usage)) return { inputTokens: undefined, outputTokens: undefined };
  return {
    inputTokens: optionalNumber(usage.input_tokens),
    outputTokens: optionalNumber(usage.output_tokens),
  };
}
