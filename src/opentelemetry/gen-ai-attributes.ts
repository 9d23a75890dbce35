/**
 * Sapling's spans as OpenTelemetry attributes: the GenAI semantic conventions for each HTTP attempt
 * (`gen_ai.operation.name`, `gen_ai.provider.name`, `gen_ai.request.model`, `gen_ai.response.model`,
 * `gen_ai.usage.input_tokens`, `gen_ai.usage.output_tokens`, `gen_ai.response.finish_reasons`,
 * `server.address`, `error.type`), and `sapling.*` attributes for what the conventions have no name for:
 * the parser's repairs and outcome, cost, cache and reasoning tokens, the client that answered. Pure data
 * mapping: the only module here that knows attribute names.
 */
import type { FunctionLog, LlmCall, SpanRecord, Usage } from "../runtime/index.js";

export type AttributeValue = string | number | boolean | string[];
export type SpanAttributes = Record<string, AttributeValue>;

/** Sapling provider → `gen_ai.provider.name` (the conventions' well-known values). */
const providerNames: Record<string, string> = {
  openai: "openai",
  "openai-responses": "openai",
  "azure-openai": "azure.ai.openai",
  anthropic: "anthropic",
  "google-ai": "gcp.gemini",
  "vertex-ai": "gcp.vertex_ai",
  "aws-bedrock": "aws.bedrock",
};

/** The span name: `chat {model}` for attempts (the conventions' rule), the function's or trace's name else. */
export function spanName(span: SpanRecord): string {
  if (span.kind !== "attempt" || span.call === undefined) return span.name;
  const model = requestedModel(span.call);
  return model === undefined ? "chat" : `chat ${model}`;
}

/** Attributes known when a span starts. */
export function startAttributes(span: SpanRecord): SpanAttributes {
  const attributes: SpanAttributes = { "sapling.span.kind": span.kind };
  for (const [name, value] of Object.entries(span.tags)) attributes[`sapling.tag.${name}`] = value;
  if (span.kind === "function") attributes["sapling.function.name"] = span.name;
  if (span.kind === "attempt" && span.call !== undefined) {
    attributes["gen_ai.operation.name"] = "chat";
    attributes["gen_ai.provider.name"] = providerNames[span.call.provider] ?? span.call.provider;
    attributes["sapling.client.name"] = span.call.clientName;
    attributes["sapling.provider"] = span.call.provider;
  }
  return attributes;
}

/** Attributes known when a span ends; content only when `recordContent`. */
export function endAttributes(span: SpanRecord, recordContent: boolean): SpanAttributes {
  if (span.kind === "attempt" && span.call !== undefined)
    return attemptAttributes(span, span.call, recordContent);
  if (span.kind === "function" && span.functionLog !== undefined) {
    return functionAttributes(span.functionLog, recordContent);
  }
  return {};
}

function attemptAttributes(span: SpanRecord, call: LlmCall, recordContent: boolean): SpanAttributes {
  const attributes: SpanAttributes = {
    ...usageAttributes(call.usage),
    "sapling.attempt.selected": call.selected,
  };
  const model = requestedModel(call);
  if (model !== undefined) attributes["gen_ai.request.model"] = model;
  if (call.model !== null) attributes["gen_ai.response.model"] = call.model;
  if (call.finishReason !== null) attributes["gen_ai.response.finish_reasons"] = [call.finishReason];
  if (call.costUsd !== null) attributes["sapling.cost.usd"] = call.costUsd;
  if (call.timing.timeToFirstTokenMs != null)
    attributes["sapling.time_to_first_token_ms"] = call.timing.timeToFirstTokenMs;
  Object.assign(attributes, serverAttributes(call.httpRequest?.url));
  const status = call.httpResponse?.status;
  if (status !== undefined) attributes["http.response.status_code"] = status;
  if (call.error !== null)
    attributes["error.type"] = status !== undefined && status >= 400 ? String(status) : "_OTHER";
  if (recordContent) {
    if (span.prompt !== undefined) attributes["gen_ai.input.messages"] = JSON.stringify(inputMessages(span));
    if (call.rawText !== null) attributes["gen_ai.output.messages"] = JSON.stringify(outputMessages(call));
  }
  return attributes;
}

function functionAttributes(log: FunctionLog, recordContent: boolean): SpanAttributes {
  const attributes: SpanAttributes = {
    ...usageAttributes(log.usage),
    "sapling.log.id": log.id,
    "sapling.attempts": log.calls.length,
    "sapling.repairs.count": log.repairs.length,
    "sapling.repairs": [...new Set(log.repairs.map((repair) => repair.kind))],
    "sapling.parse.outcome": parseOutcome(log),
  };
  if (log.selectedCall !== null) attributes["sapling.client.name"] = log.selectedCall.clientName;
  if (log.costUsd !== null) attributes["sapling.cost.usd"] = log.costUsd;
  if (log.truncated) attributes["sapling.incomplete_fields"] = log.incompleteFields;
  if (recordContent && log.rawLlmResponse !== null) attributes["sapling.raw_output"] = log.rawLlmResponse;
  return attributes;
}

/**
 * `exact` (the answer was the declared type as written), `repaired` (the parser fixed it), `truncated`
 * (a cut answer, accepted), `failed` (no answer was used: the call failed), or `unparsed` (an answer came
 * but yielded no value: a validation or finish-reason error).
 */
function parseOutcome(log: FunctionLog): string {
  if (log.error !== null) return log.selectedCall === null ? "failed" : "unparsed";
  if (log.truncated) return "truncated";
  return log.repairs.length > 0 ? "repaired" : "exact";
}

function usageAttributes(usage: Usage | null): SpanAttributes {
  const attributes: SpanAttributes = {};
  if (usage === null) return attributes;
  const put = (name: string, value: number | null) => {
    if (value !== null) attributes[name] = value;
  };
  put("gen_ai.usage.input_tokens", usage.inputTokens);
  put("gen_ai.usage.output_tokens", usage.outputTokens);
  put("sapling.usage.cached_input_tokens", usage.cachedInputTokens);
  put("sapling.usage.cache_write_input_tokens", usage.cacheWriteInputTokens);
  put("sapling.usage.reasoning_tokens", usage.reasoningTokens);
  return attributes;
}

/** The model named in the request body (most providers), else the one that answered. */
function requestedModel(call: LlmCall): string | undefined {
  const body = call.httpRequest?.body;
  const named = typeof body === "object" && body !== null ? (body as { model?: unknown }).model : undefined;
  return typeof named === "string" ? named : (call.model ?? undefined);
}

function serverAttributes(url: string | undefined): SpanAttributes {
  if (url === undefined) return {};
  try {
    const parsed = new URL(url);
    const port = parsed.port === "" ? (parsed.protocol === "https:" ? 443 : 80) : Number(parsed.port);
    return { "server.address": parsed.hostname, "server.port": port };
  } catch {
    return {};
  }
}

/** The conventions' `gen_ai.input.messages` shape: `[{ role, parts: [{ type: "text", content }] }]`. */
function inputMessages(span: SpanRecord) {
  return (span.prompt ?? []).map((message) => ({
    role: message.role,
    parts: message.parts.map((part) =>
      part.type === "text" ? { type: "text", content: part.text } : { type: part.media.type },
    ),
  }));
}

function outputMessages(call: LlmCall) {
  const parts: { type: string; content: string }[] = [];
  if (call.reasoning !== null) parts.push({ type: "reasoning", content: call.reasoning });
  parts.push({ type: "text", content: call.rawText ?? "" });
  return [
    { role: "assistant", parts, ...(call.finishReason === null ? {} : { finish_reason: call.finishReason }) },
  ];
}
