import type { Client } from "../ir/index.js";
import {
  type FinishReason,
  type GenerateResult,
  type LanguageModel,
  type ModelUsage,
  redactLoggedHeaders,
  redactText,
  redactValue,
  type ToolCall,
  ToolCallAccumulator,
} from "../llm/index.js";
import type { ChatMessage } from "../util/index.js";
import type { LlmCall, SseResponse, Usage } from "./collector.js";
import { BamlClientHttpError } from "./errors.js";
import { withBodyReaders } from "./http-request.js";
import { mapLlmError } from "./map-llm-error.js";
import type { OutputPlan } from "./output-plan.js";
import { withOutput } from "./output-request.js";
import type { AttemptContext } from "./run-attempt.js";

/** One model call and its answer: the text, finish reason, tool calls and the log entry of the HTTP call. */
export interface AnsweredCall {
  text: string;
  rawFinishReason: string | undefined;
  /** The finish reason normalized across providers (`length` when the token limit cut the answer). */
  finishReason: FinishReason | undefined;
  /** The answer's native tool calls, in order (none: `[]`). */
  toolCalls: ToolCall[];
  call: LlmCall;
}

function toUsage(usage: ModelUsage): Usage {
  return {
    inputTokens: usage.inputTokens ?? null,
    outputTokens: usage.outputTokens ?? null,
    cachedInputTokens: usage.cachedInputTokens ?? null,
    cacheWriteInputTokens: usage.cacheWriteInputTokens ?? null,
    reasoningTokens: usage.reasoningTokens ?? null,
  };
}

/** `onTick` must never break the call: its failures are reported (as BAML prints them) and ignored. */
function tick(context: AttemptContext): void {
  if (context.onTick === undefined) return;
  try {
    context.onTick();
  } catch (error) {
    context.onTickError?.(error);
  }
}

/** What one HTTP call to a model needs: the model, the prompt, where to record it and how to read it. */
export interface ModelAsk {
  model: LanguageModel;
  messages: readonly ChatMessage[];
  /** The log entry the call is recorded into. */
  call: LlmCall;
  client: Client;
  context: AttemptContext;
  /** Streamed (each text delta fed to the partial parser) or whole (`generate`). */
  streaming: boolean;
  /** Values redacted from everything recorded. */
  secrets: readonly string[];
  plan: OutputPlan;
}

/** Set when the partial parser threw: that error is a bug, not the client's, and must not be retried as one. */
interface ParserFailure {
  failed?: { error: unknown };
}

/**
 * One HTTP call to a model — whole (`generate`) or streamed, each text delta fed to the partial parser —
 * recorded into `call` (response, raw text, finish reason, usage) with secrets redacted. Transport and
 * provider failures are thrown as BAML-named errors; a failure of the partial parser is a bug and is thrown
 * unchanged.
 */
export async function askModel(ask: ModelAsk): Promise<AnsweredCall> {
  const { call, client, context, secrets } = ask;
  const parser: ParserFailure = {};
  try {
    return ask.streaming ? await streamAnswer(ask, parser) : await generateAnswer(ask);
  } catch (error) {
    if (parser.failed && error === parser.failed.error) {
      context.recorder.endAttempt(call, { error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
    const mapped = mapLlmError(error, client.name, client.provider, secrets);
    if (BamlClientHttpError.isInstance(mapped)) {
      call.httpResponse = { status: mapped.statusCode, headers: {}, body: withBodyReaders(mapped.body) };
    }
    context.recorder.endAttempt(call, { error: mapped.message });
    throw mapped;
  }
}

/** The model's options for this call: the attempt's abort signal and the plan's tools or schema. */
function modelOptions(ask: ModelAsk) {
  return {
    ...(ask.context.signal ? { signal: ask.context.signal } : {}),
    ...withOutput(ask.plan),
  };
}

/** A whole answer (`generate`), recorded. */
async function generateAnswer(ask: ModelAsk): Promise<AnsweredCall> {
  const { model, call, secrets } = ask;
  const { recorder } = ask.context;
  const result: GenerateResult = await model.generate(ask.messages, modelOptions(ask));
  call.httpResponse = {
    status: result.response.status,
    headers: redactLoggedHeaders(result.response.headers, secrets),
    body: withBodyReaders(redactValue(result.rawResponse, secrets)),
  };
  call.rawText = result.text;
  call.finishReason = result.rawFinishReason ?? null;
  recordCalls(recorder, call, result.toolCalls);
  call.model = result.model ?? model.modelId ?? null;
  if (result.reasoning !== undefined) call.reasoning = result.reasoning;
  recorder.endAttempt(call, { usage: toUsage(result.usage) });
  return {
    text: result.text,
    rawFinishReason: result.rawFinishReason,
    finishReason: result.finishReason,
    toolCalls: result.toolCalls,
    call,
  };
}

/** A streamed answer, each text delta and tool-call piece fed to the partial parser as it arrives, recorded. */
async function streamAnswer(ask: ModelAsk, failure: ParserFailure): Promise<AnsweredCall> {
  const { model, call, context, secrets } = ask;
  const { recorder } = context;
  const parser = context.pipeline.createPartialParser(ask.plan);
  const toolCalls = new ToolCallAccumulator();
  const events: string[] = [];
  let started = false;
  // BAML's `LlmStreamCall.sseResponses()`, a method the log does not serialize.
  Object.defineProperty(call, "sseResponses", {
    value: (): SseResponse[] | null =>
      started ? events.map((text) => ({ text, json: () => JSON.parse(text) })) : null,
  });
  let buffer = "";
  let rawFinishReason: string | undefined;
  let finishReason: FinishReason | undefined;
  let usage: Usage | null = null;
  for await (const event of model.stream(ask.messages, modelOptions(ask))) {
    switch (event.type) {
      case "response-start":
        started = true;
        call.httpResponse = {
          status: event.response.status,
          headers: redactLoggedHeaders(event.response.headers, secrets),
          body: withBodyReaders(events),
        };
        break;
      case "raw":
        events.push(redactText(event.data, secrets));
        break;
      case "reasoning-delta":
        recorder.firstToken(call);
        call.reasoning = (call.reasoning ?? "") + event.text;
        tick(context);
        break;
      case "text-delta": {
        recorder.firstToken(call);
        buffer += event.text;
        call.rawText = buffer;
        try {
          parser.append(event.text);
        } catch (error) {
          failure.failed = { error };
          throw error;
        }
        context.onText?.(parser.read);
        tick(context);
        break;
      }
      case "tool-call-delta": {
        recorder.firstToken(call);
        toolCalls.push(event);
        try {
          parser.pushToolCall(event);
        } catch (error) {
          failure.failed = { error };
          throw error;
        }
        context.onText?.(parser.read);
        break;
      }
      case "finish":
        rawFinishReason = event.rawFinishReason;
        finishReason = event.finishReason;
        call.finishReason = rawFinishReason ?? null;
        call.model = event.model ?? model.modelId ?? null;
        usage = toUsage(event.usage);
        break;
    }
  }
  call.rawText = buffer;
  recordCalls(recorder, call, toolCalls.calls());
  recorder.endAttempt(call, { usage });
  tick(context);
  return { text: buffer, rawFinishReason, finishReason, toolCalls: toolCalls.calls(), call };
}

/** Every call an answer made, recorded as it arrived; the parse then marks the ones it used. */
function recordCalls(
  recorder: AttemptContext["recorder"],
  call: LlmCall,
  toolCalls: readonly ToolCall[],
): void {
  if (toolCalls.length > 0) {
    recorder.recordToolCalls(
      call,
      toolCalls.map((toolCall) => ({ call: toolCall, used: false })),
    );
  }
}
