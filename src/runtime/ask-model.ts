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
import type { LlmCall, Usage } from "./collector.js";
import { BamlClientHttpError } from "./errors.js";
import { withBodyReaders } from "./http-request.js";
import { mapLlmError } from "./map-llm-error.js";
import type { OutputPlan } from "./output-plan.js";
import type { AttemptContext } from "./run-attempt.js";

/** One model answer: its text, finish reason, and the log entry of the HTTP call that produced it. */
export interface Answer {
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

/**
 * One HTTP call to a model — whole (`generate`) or streamed, each text delta fed to the partial parser —
 * recorded into `call` (response, raw text, finish reason, usage) with secrets redacted. Transport and
 * provider failures are thrown as BAML-named errors; a failure of the partial parser is a bug and is thrown
 * unchanged.
 */
export async function askModel(
  model: LanguageModel,
  messages: readonly ChatMessage[],
  call: LlmCall,
  client: Client,
  context: AttemptContext,
  streaming: boolean,
  secrets: readonly string[],
  plan: OutputPlan,
): Promise<Answer> {
  const { recorder } = context;
  const modelOptions = {
    ...(context.signal ? { signal: context.signal } : {}),
    ...(plan.request === undefined ? {} : { output: plan.request }),
  };
  // A failure of the partial parser is a bug, not the client's: it must not be retried as one.
  let parserFailure: { error: unknown } | undefined;
  try {
    if (!streaming) {
      const result: GenerateResult = await model.generate(messages, modelOptions);
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
    const parser = context.pipeline.createPartialParser(plan);
    const toolCalls = new ToolCallAccumulator();
    // `null` means nothing usable has been written yet (prose before the JSON): not worth a partial.
    const read = (): unknown => {
      const partial = parser.read();
      return partial === null ? undefined : partial;
    };
    const events: string[] = [];
    let buffer = "";
    let rawFinishReason: string | undefined;
    let finishReason: FinishReason | undefined;
    let usage: Usage | null = null;
    for await (const event of model.stream(messages, modelOptions)) {
      switch (event.type) {
        case "response-start":
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
            parserFailure = { error };
            throw error;
          }
          context.onText?.(read);
          tick(context);
          break;
        }
        case "tool-call-delta": {
          recorder.firstToken(call);
          toolCalls.push(event);
          try {
            parser.pushToolCall(event);
          } catch (error) {
            parserFailure = { error };
            throw error;
          }
          context.onText?.(read);
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
  } catch (error) {
    if (parserFailure && error === parserFailure.error) {
      recorder.endAttempt(call, { error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
    const mapped = mapLlmError(error, client.name, client.provider, secrets);
    if (BamlClientHttpError.isInstance(mapped)) {
      call.httpResponse = { status: mapped.statusCode, headers: {}, body: withBodyReaders(mapped.body) };
    }
    recorder.endAttempt(call, { error: mapped.message });
    throw mapped;
  }
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
