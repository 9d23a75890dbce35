import type { Flag } from "../sap/index.js";
import type { ChatMessage } from "../util/index.js";
import type { AnswerCompleteness } from "./answer-completeness.js";
import { type CallRecord, type Clock, endCallRecord } from "./call-record.js";
import {
  addUsage,
  costOfCalls,
  type FunctionLog,
  type LlmCall,
  type ToolCallLog,
  type Usage,
} from "./collector.js";
import { costOfUsage, findPrice, type Prices } from "./cost.js";
import { promptToText } from "./function-pipeline.js";
import type { ToolCallUse } from "./read-answer.js";
import type { SpanRecord, Tracer } from "./tracing.js";

/**
 * Writes one function call's `FunctionLog` into every collector of the call, as it happens: each attempt
 * appears when it starts and is completed when it ends, so a collector read mid-stream shows progress.
 * The same events price each attempt and open and close the call's spans (function > attempts), so the
 * Collector, the log lines and the exported spans tell one story.
 */
export class CallRecorder {
  readonly log: FunctionLog;
  readonly #record: CallRecord;
  readonly #prices: Prices;
  readonly #tracer: Tracer | undefined;
  readonly #span: SpanRecord | undefined;
  readonly #attemptSpans = new Map<LlmCall, SpanRecord>();
  readonly #prompts = new Map<LlmCall, readonly ChatMessage[]>();

  /** Records the rest of a call whose record `startCallRecord` started (call-record.ts). */
  constructor(record: CallRecord, prices: Prices = {}) {
    this.#record = record;
    this.log = record.log;
    this.#prices = prices;
    this.#tracer = record.tracer;
    this.#span = record.span;
  }

  private get clock(): Clock {
    return this.#record.clock;
  }

  /** Starts recording one attempt against one leaf client. */
  startAttempt(clientName: string, provider: string, streaming: boolean): LlmCall {
    const call: LlmCall = {
      clientName,
      provider,
      timing: {
        startTimeUtcMs: this.clock(),
        durationMs: null,
        ...(streaming ? { timeToFirstTokenMs: null } : {}),
      },
      httpRequest: null,
      httpResponse: null,
      usage: null,
      selected: false,
      error: null,
      rawText: null,
      finishReason: null,
      toolCalls: [],
      model: null,
      reasoning: null,
      costUsd: null,
    };
    this.log.calls.push(call);
    if (this.#tracer !== undefined && this.#span !== undefined) {
      this.#attemptSpans.set(call, this.#tracer.startSpan("attempt", clientName, this.#span, { call }));
    }
    return call;
  }

  /** The prompt an attempt sends (for the log event of the answer used, and spans that record content). */
  setPrompt(call: LlmCall, messages: readonly ChatMessage[]): void {
    this.#prompts.set(call, messages);
    const span = this.#attemptSpans.get(call);
    if (span !== undefined) span.prompt = messages;
  }

  /** Marks the first text chunk of a streaming attempt. */
  firstToken(call: LlmCall): void {
    if (call.timing.timeToFirstTokenMs === null) {
      call.timing.timeToFirstTokenMs = this.clock() - call.timing.startTimeUtcMs;
    }
  }

  /** Ends an attempt; `usage` is added to the function's total. */
  endAttempt(call: LlmCall, outcome: { usage?: Usage | null; error?: string }): void {
    call.timing.durationMs = this.clock() - call.timing.startTimeUtcMs;
    if (outcome.usage) {
      call.usage = outcome.usage;
      call.costUsd = costOfUsage(outcome.usage, findPrice(call.model, this.#prices));
      this.log.usage = addUsage(this.log.usage, outcome.usage);
      this.log.costUsd = costOfCalls(this.log.calls);
    }
    if (outcome.error !== undefined) {
      call.error = outcome.error;
      this.#endAttemptSpan(call);
    }
    // An answer's span ends once the runtime says whether it is the one used (`select`), or at `finish`.
  }

  #endAttemptSpan(call: LlmCall): void {
    const span = this.#attemptSpans.get(call);
    if (span === undefined) return;
    this.#attemptSpans.delete(call);
    const ended =
      call.timing.durationMs === null ? undefined : call.timing.startTimeUtcMs + call.timing.durationMs;
    this.#tracer?.endSpan(span, {
      ...(call.error === null ? {} : { error: call.error }),
      ...(ended === undefined ? {} : { endTimeUtcMs: ended }),
    });
  }

  /** The answer of `call` is the one the function used (even if it then fails to parse, as in BAML). */
  select(call: LlmCall): void {
    for (const other of this.log.calls) other.selected = other === call;
    this.log.selectedCall = call;
    this.log.rawLlmResponse = call.rawText;
    this.#endAttemptSpan(call);
  }

  /** The repairs the parser made to the selected answer (a Sapling addition to BAML's log). */
  recordRepairs(repairs: readonly Flag[], completeness: AnswerCompleteness): void {
    this.log.repairs = [...repairs];
    this.log.truncated = completeness.truncated;
    this.log.incompleteFields = [...completeness.incompleteFields];
  }

  /** The native tool calls of `call`'s answer, which the function used (Sapling addition). */
  recordToolCalls(call: LlmCall, uses: readonly ToolCallUse[]): void {
    const logs: ToolCallLog[] = uses.map(({ call: toolCall, used }) => ({
      id: toolCall.id ?? null,
      name: toolCall.name,
      arguments: toolCall.arguments,
      used,
    }));
    call.toolCalls = logs;
    this.log.toolCalls = logs;
  }

  /** Ends the function call with its value, or the (redacted) message it failed with. */
  finish(outcome: { value: unknown } | { error: string }): void {
    for (const call of [...this.#attemptSpans.keys()]) this.#endAttemptSpan(call);
    const selected = this.log.selectedCall;
    const prompt = selected === null ? undefined : this.#prompts.get(selected);
    endCallRecord(this.#record, outcome, prompt === undefined ? undefined : promptToText(prompt));
  }
}
