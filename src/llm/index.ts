/**
 * The `llm` room: a provider-neutral model interface and adapters for OpenAI chat (and compatible servers),
 * OpenAI Responses, Anthropic messages and Gemini (Bedrock Converse is the `aws-bedrock` room's and Vertex AI
 * the `vertex-ai` room's, each passed in as a `ProviderExtension`), over an injected `fetch`. Browser-safe. One model call = one HTTP attempt; retries, fallback and parsing belong to
 * the runtime.
 */

export { raceAbort } from "../util/index.js";
export type { ClientOptions, HttpTimeouts, MediaUrlMode, RolePolicy } from "./client-options.js";
export type { FinishReasonPolicy } from "./finish-reason-policy.js";
export type {
  BuildRequestOptions,
  FinishReason,
  GenerateResult,
  LanguageModel,
  LanguageModelDependencies,
  ModelCallOptions,
  ModelStreamEvent,
  ModelUsage,
  OutputMode,
  ProviderRequest,
  ReadTextFile,
  ResponseInfo,
} from "./language-model.js";
export type { LlmErrorCode, LlmErrorContext } from "./llm-error.js";
// A request's failures (`LlmHttpError`, `LlmTimeoutError`, …) are the `provider-helpers` room's.
export { LlmError, LlmLoadError } from "./llm-error.js";
export { loadAddressChecks } from "./load-address-checks.js";
export { loadLanguageModel, prefetchLanguageModels } from "./load-language-model.js";
export { loadOnFirstUse } from "./load-on-first-use.js";
export { defaultMediaLimits } from "./media-limits.js";
export type { MediaUrlPolicy } from "./media-url-policy.js";
export type {
  ExtensionProvider,
  ProviderAdapterKit,
  ProviderExtension,
  ProviderExtensionSettings,
} from "./provider-extension.js";
// The adapter contract an adapter outside this room (the `aws-bedrock` and `vertex-ai` rooms) implements.
// What adapters build with is the `provider-helpers` room's (docs/decisions/0049-provider-helpers-room.md),
// and the wire formats they wrap come in `ProviderExtensionSettings.kit`: this door is in the runtime entry,
// and those load with the adapters on the first call.
export type {
  AuthorizeContext,
  ProviderAdapter,
  ProviderAnswer,
  ProviderStreamReader,
  StreamDecoder,
} from "./providers/provider-adapter.js";
export type { EnvOptionValue } from "./redact.js";
export {
  collectSecrets,
  hasUserInfo,
  isSecretHeaderName,
  redactedText,
  redactHeaders,
  redactLoggedHeaders,
  redactRequest,
  redactSecrets,
  redactText,
  redactUrl,
  redactValue,
  withRequestSecrets,
} from "./redact.js";
export type { SseEvent } from "./sse-decoder.js";
export type {
  JsonSchemaObject,
  OutputRequest,
  ToolCall,
  ToolCallDelta,
  ToolCallWire,
  ToolDefinition,
} from "./tool-calls.js";
export { ToolCallAccumulator } from "./tool-calls.js";
