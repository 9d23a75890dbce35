/**
 * The `llm` room: a provider-neutral model interface and adapters for OpenAI chat (and compatible servers),
 * OpenAI Responses, Anthropic messages, Gemini and Bedrock Converse (SigV4, AWS event streams), over an
 * injected `fetch`. Browser-safe. One model call = one HTTP attempt; retries, fallback and parsing belong to
 * the runtime.
 */
export { applyRolePolicy } from "./apply-role-policy.js";
export type { ClientOptions, HttpTimeouts, MediaUrlMode, RolePolicy } from "./client-options.js";
export { readClientOptions } from "./client-options.js";
export type { ProviderDefinition } from "./create-language-model.js";
export {
  createLanguageModel,
  providerDefinitions,
  providerOptionNames,
  resolveProviderName,
} from "./create-language-model.js";
export type { FinishReasonPolicy } from "./finish-reason-policy.js";
export { isFinishReasonAllowed } from "./finish-reason-policy.js";
export type {
  BuildRequestOptions,
  CallOptions,
  FinishReason,
  GenerateResult,
  HttpRequest,
  LanguageModel,
  LanguageModelDependencies,
  OutputMode,
  ReadTextFile,
  ResponseInfo,
  StreamEvent,
  Usage,
} from "./language-model.js";
export type { LlmErrorCode, LlmErrorContext, TimeoutKind } from "./llm-error.js";
export {
  LlmAbortError,
  LlmConnectionError,
  LlmError,
  LlmHttpError,
  LlmMalformedResponseError,
  LlmOptionsError,
  LlmTimeoutError,
} from "./llm-error.js";
export { parseRetryAfter } from "./parse-retry-after.js";
export type { AwsEventStreamHeaderValue, AwsEventStreamMessage } from "./providers/aws-event-stream.js";
export {
  AwsEventStreamDecoder,
  AwsEventStreamError,
  encodeAwsEventStreamMessage,
} from "./providers/aws-event-stream.js";
export type {
  AwsCredentials,
  AwsSignableRequest,
  AwsSignature,
  AwsSigningSettings,
} from "./providers/aws-sigv4.js";
export { signAwsRequest } from "./providers/aws-sigv4.js";
export {
  collectSecrets,
  isSecretHeaderName,
  redactedText,
  redactHeaders,
  redactLoggedHeaders,
  redactRequest,
  redactSecrets,
  redactText,
  redactUrl,
  redactValue,
} from "./redact.js";
export type { SseEvent } from "./sse-decoder.js";
export { decodeSseStream, SseDecoder } from "./sse-decoder.js";
export type {
  JsonSchemaObject,
  OutputRequest,
  ToolCall,
  ToolCallDelta,
  ToolDefinition,
} from "./tool-calls.js";
export { ToolCallAccumulator } from "./tool-calls.js";
