/**
 * `sapling-llm/runtime`: what generated clients import. Runs functions (render → call → parse) with retries,
 * fallback and round-robin; streams partial values; records calls in Collectors; overrides clients
 * (ClientRegistry) and types (TypeBuilder) per call. Browser-safe: `fetch`, env, clock, sleep and logger
 * are injected. Never imports the compiler.
 */

export type { OutputMode, ProviderExtension } from "../llm/index.js";
// The package's one redaction module lives in the llm room; applications print requests with it.
export { redactHeaders, redactRequest } from "../llm/index.js";
export { SAPLING_VERSION } from "../util/index.js";
export type { AnswerCompleteness } from "./answer-completeness.js";
export { answerCompleteness } from "./answer-completeness.js";
export type { BamlSourceCompilation, BamlSourceCompiler } from "./baml-source-compiler.js";
export type {
  CallOptions,
  OutputIssue,
  OutputValidation,
  ParseRecovery,
  SchemaExtension,
  TickReason,
  ValidatedAnswer,
} from "./call-options.js";
export type { Clock } from "./call-record.js";
export type { CallSummary } from "./call-summary.js";
export {
  formatCallFacts,
  formatCallSummary,
  formatCost,
  formatTokens,
  summarizeCall,
} from "./call-summary.js";
export { ignoredBamlCallOptions } from "./check-call-options.js";
export { checkGeneratedVersion, SaplingVersionError } from "./check-generated-version.js";
export { ClassBuilder, ClassPropertyBuilder } from "./class-builder.js";
export { ClientRegistry } from "./client-registry.js";
export type {
  FunctionLog,
  HttpRequestLog,
  HttpResponseLog,
  LlmCall,
  LlmStreamCall,
  SseResponse,
  Timing,
  ToolCallLog,
  Usage,
} from "./collector.js";
export { Collector } from "./collector.js";
export type { Prices } from "./cost.js";
export { costOfUsage, findPrice } from "./cost.js";
export { EnumBuilder, EnumValueBuilder } from "./enum-builder.js";
export type { FailedAttempt } from "./errors.js";
export {
  BamlAbortError,
  BamlAllClientsFailedError,
  BamlClientError,
  BamlClientFinishReasonError,
  BamlClientHttpError,
  BamlClientOptionsError,
  BamlError,
  BamlInvalidArgumentError,
  BamlMediaUrlError,
  BamlMissingEnvVarError,
  BamlTimeoutError,
  BamlValidationError,
  isBamlError,
} from "./errors.js";
export type { Sleep } from "./execute-plan.js";
export { FieldType } from "./field-type.js";
export type { HTTPBody, HTTPRequest, HttpBody, HttpRequest } from "./http-request.js";
export { withBodyReaders } from "./http-request.js";
export type { ConsoleLoggerOptions, LineLevel, LogFields, LogLevel, RuntimeLogger } from "./log.js";
export { createConsoleLogger, getLogLevel, parseLogLevel, setLogLevel } from "./log.js";
export { Audio, Image, Pdf, Video } from "./media.js";
export type { ModelPrice, PriceTable } from "./price-table.js";
export { defaultPriceTable } from "./price-table.js";
export type { Environment } from "./resolve-options.js";
export type { RuntimeOptions } from "./sapling-runtime.js";
export {
  /** BAML's name for the runtime class, for code that imports it from `@boundaryml/baml`; its methods are Sapling's. */
  SaplingRuntime as BamlRuntime,
  SaplingRuntime,
} from "./sapling-runtime.js";
export {
  SaplingStream,
  type StreamableOptions,
  type StreamPacing,
  type StreamProducer,
  type StreamSink,
} from "./sapling-stream.js";
export type { SchemaTypeAdditions, SchemaTypeConverter } from "./schema-type-converter.js";
export { ndjsonLine, type StreamEvent, type StreamFormat, streamEvents } from "./stream-events.js";
export type { BamlLogEvent, SpanExporter, SpanKind, SpanRecord } from "./tracing.js";
export { Tracer } from "./tracing.js";
export { TypeBuilder, type TypeBuilderOptions } from "./type-builder.js";
export { validateArguments } from "./validate-arguments.js";
export type { CheckOutcome } from "./wrap-checked.js";
