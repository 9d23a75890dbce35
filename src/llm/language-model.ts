/**
 * The provider-neutral model interface: what the runtime sees of every provider. A model builds the HTTP
 * request it would send, sends it once (`generate`) or streams it (`stream`). Retries, fallback and parsing
 * live in the runtime; a model makes exactly one HTTP attempt per call.
 */

import type { ChatMessage } from "../util/index.js";
import type { FinishReasonPolicy } from "./finish-reason-policy.js";
import type { MediaUrlPolicy } from "./media-url-policy.js";
import type { ProviderExtension } from "./provider-extension.js";
import type { OutputRequest, ToolCall } from "./tool-calls.js";

/** The request a model would send, exactly (headers include credentials; print it through `redactRequest`). */
export interface ProviderRequest {
  url: string;
  method: "POST";
  headers: Record<string, string>;
  /** The JSON body as a plain object (serialized with `JSON.stringify` when sent). */
  body: Record<string, unknown>;
  /**
   * `multipart`: the body's fields are sent as a multipart form (`openai-transcriptions`), a media value
   * as a file; absent: as JSON. See `encodeRequestBody`.
   */
  encoding?: "multipart";
}

/** Token counts as reported by the provider; a field is `undefined` when the provider did not report it. */
export interface ModelUsage {
  inputTokens: number | undefined;
  outputTokens: number | undefined;
  /**
   * Input tokens served from the provider's prompt cache (OpenAI cached tokens, Anthropic and Bedrock cache
   * reads, Gemini cached content). Included in `inputTokens`, on every provider.
   */
  cachedInputTokens?: number;
  /** Input tokens written to the prompt cache (Anthropic, Bedrock). Included in `inputTokens`. */
  cacheWriteInputTokens?: number;
  /** Output tokens spent on reasoning (OpenAI, Gemini thoughts). Included in `outputTokens`. */
  reasoningTokens?: number;
}

/**
 * Why the model stopped, normalized across providers. The provider's own string is kept beside it as
 * `rawFinishReason`, which is what `finish_reason_allow_list` / `deny_list` compare against (as in BAML).
 */
export type FinishReason =
  | "stop"
  | "length"
  | "content-filter"
  | "tool-calls"
  | "error"
  | "other"
  | "unknown";

/** The HTTP status and headers of the provider's answer. */
export interface ResponseInfo {
  status: number;
  headers: Record<string, string>;
}

/** The outcome of one non-streaming call. */
export interface GenerateResult {
  text: string;
  finishReason: FinishReason;
  /** The provider's finish reason as sent (`stop`, `end_turn`, `MAX_TOKENS`, …). */
  rawFinishReason: string | undefined;
  usage: ModelUsage;
  /** The model that answered, as the provider reports it (falls back to the requested model). */
  model: string | undefined;
  /** The model's reasoning or thinking text, when the provider sent it (never part of `text`). */
  reasoning?: string;
  /** The parsed JSON body of the answer. */
  rawResponse: unknown;
  response: ResponseInfo;
  /** The native tool calls of the answer, in order (none: `[]`). */
  toolCalls: ToolCall[];
}

/**
 * The closed union of events a stream yields, in order: one `response-start`, then `raw` and `text-delta`
 * events interleaved, then exactly one `finish`. A failure is thrown from the iterator (a typed `LlmError`),
 * never yielded as an event.
 */
export type ModelStreamEvent =
  | { type: "response-start"; response: ResponseInfo }
  /** One decoded SSE event's data, as sent (for collectors and debugging). */
  | { type: "raw"; data: string; event?: string }
  | { type: "text-delta"; text: string }
  /** A piece of a native tool call (see `ToolCallDelta`); calls are told apart by `index`. */
  | { type: "tool-call-delta"; index: number; id?: string; name?: string; argumentsDelta: string }
  /** Reasoning or thinking text (never part of the answer's text). */
  | { type: "reasoning-delta"; text: string }
  | {
      type: "finish";
      finishReason: FinishReason;
      rawFinishReason: string | undefined;
      usage: ModelUsage;
      model: string | undefined;
    };

/** Per-call options. */
export interface ModelCallOptions {
  /** Aborting ends the call promptly with an `LlmAbortError` (and closes the connection). */
  signal?: AbortSignal;
  /** Tools the model must call, or a schema the provider enforces (see `OutputRequest`). */
  output?: OutputRequest;
}

export interface BuildRequestOptions {
  stream: boolean;
  /** As in `ModelCallOptions`. */
  output?: OutputRequest;
}

/** A configured client of one provider. Create it with `loadLanguageModel` (or `createLanguageModel` where its module is loaded already). */
export interface LanguageModel {
  /** The provider string as configured (`openai`, `anthropic`, …). */
  readonly provider: string;
  /** The requested model (`options.model`), if any. */
  readonly modelId: string | undefined;
  /** `false` when `supports_streaming false`: `stream()` then makes one non-streaming request. */
  readonly supportsStreaming: boolean;
  readonly finishReasonPolicy: FinishReasonPolicy;
  /** The client's `output_mode` option, when it sets one (`prompt`, `tools`, `native`). */
  readonly outputMode: OutputMode | undefined;
  /**
   * The role of a prompt without role markers (`default_role`, else the provider's default: `system` for
   * OpenAI-family clients, `user` for the others and for OpenAI's o1 models). Roles the client does not
   * allow become this role too.
   */
  readonly defaultRole: string;
  /**
   * The request that `generate` (`stream: false`) or `stream` (`stream: true`) would send. Async because
   * media given by URL may have to be downloaded and inlined, depending on `media_url_handler`.
   */
  buildRequest(messages: readonly ChatMessage[], options: BuildRequestOptions): Promise<ProviderRequest>;
  generate(messages: readonly ChatMessage[], options?: ModelCallOptions): Promise<GenerateResult>;
  stream(messages: readonly ChatMessage[], options?: ModelCallOptions): AsyncIterable<ModelStreamEvent>;
  /** Whether `rawFinishReason` passes this client's `finish_reason_allow_list` / `deny_list`. */
  isFinishReasonAllowed(rawFinishReason: string | undefined): boolean;
}

/**
 * How a function's structured answer is asked for: described in the prompt (`prompt`, BAML's way), as
 * native tools whose arguments are the answer (`tools`), or as a schema the provider enforces (`native`).
 * The answer is parsed by the Schema-Aligned Parser in every mode.
 */
export type OutputMode = "prompt" | "tools" | "native";

/** Reads a whole UTF-8 text file; the host decides how relative paths resolve (Node: the working directory). */
export type ReadTextFile = (path: string) => Promise<string>;

/** What a model needs from its environment. */
export interface LanguageModelDependencies {
  fetch: typeof fetch;
  /**
   * Environment used only for the provider's default API key (`OPENAI_API_KEY`, …) when `api_key` is not
   * in the options. Options themselves arrive already resolved.
   */
  env?: Record<string, string | undefined>;
  /**
   * Reads a text file (UTF-8), for credentials given as a file path (a `vertex-ai` key file) and the AWS
   * shared credentials and config files (`aws-bedrock` profiles; a missing file must fail with
   * `code: "ENOENT"`, as Node's does). Hosts that can read files pass one (the runtime does on Node);
   * without it such a path or profile is refused with a message saying what to pass instead.
   */
  readTextFile?: ReadTextFile;
  /**
   * Adapters from entry points of their own (`awsBedrock` of `sapling-llm/aws-bedrock`, `vertexAi` of
   * `sapling-llm/vertex-ai`); a client whose
   * provider needs one that is not here fails with a message saying how to pass it.
   */
  providers?: readonly ProviderExtension[];
  /** Which media URLs may be used and the download limits (absent: every URL, default limits). */
  mediaUrls?: MediaUrlPolicy;
}
