import type { Flag } from "../sap/index.js";
import type { AnswerCompleteness } from "./answer-completeness.js";
import {
  addUsage,
  type Collector,
  emptyUsage,
  type FunctionLog,
  type LlmCall,
  type ToolCallLog,
  type Usage,
} from "./collector.js";
import type { ToolCallUse } from "./read-answer.js";

/** A clock: milliseconds since the epoch. Injected so durations are testable. */
export type Clock = () => number;

let sequence = 0;

/** A log id unique within the process and sortable by creation. */
function nextId(clock: Clock): string {
  sequence += 1;
  return `${clock().toString(36)}-${sequence.toString(36)}`;
}

/**
 * Writes one function call's `FunctionLog` into every collector of the call, as it happens: each attempt
 * appears when it starts and is completed when it ends, so a collector read mid-stream shows progress.
 */
export class CallRecorder {
  readonly log: FunctionLog;

  constructor(
    functionName: string,
    logType: "call" | "stream",
    tags: Record<string, string>,
    collectors: readonly Collector[],
    private readonly clock: Clock,
  ) {
    this.log = {
      id: nextId(clock),
      functionName,
      logType,
      timing: { startTimeUtcMs: clock(), durationMs: null },
      usage: emptyUsage(),
      calls: [],
      selectedCall: null,
      rawLlmResponse: null,
      tags: { ...tags },
      error: null,
      repairs: [],
      truncated: false,
      incompleteFields: [],
      toolCalls: [],
    };
    for (const collector of collectors) collector.record(this.log);
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
    };
    this.log.calls.push(call);
    return call;
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
      this.log.usage = addUsage(this.log.usage, outcome.usage);
    }
    if (outcome.error !== undefined) call.error = outcome.error;
  }

  /** The answer of `call` is the one the function used (even if it then fails to parse, as in BAML). */
  select(call: LlmCall): void {
    for (const other of this.log.calls) other.selected = other === call;
    this.log.selectedCall = call;
    this.log.rawLlmResponse = call.rawText;
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

  /** Ends the function call; `error` is the (redacted) message it failed with. */
  finish(error?: string): void {
    this.log.timing.durationMs = this.clock() - this.log.timing.startTimeUtcMs;
    if (error !== undefined) this.log.error = error;
  }
}
