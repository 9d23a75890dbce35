import type { Flag } from "../sap/index.js";
import { addCost } from "./cost.js";
import type { HttpBody } from "./http-request.js";

/**
 * Observability for calls, in BAML's Collector shape: pass `collector` in the call options and read
 * `collector.last` afterwards — every attempt (retries and fallbacks included), timings, token usage, and
 * the raw HTTP request and response with API keys redacted.
 */

/**
 * Token counts; `null` when the provider did not report them. Totals include their parts, on every
 * provider: `inputTokens` counts cache reads and writes, `outputTokens` counts reasoning.
 */
export interface Usage {
  inputTokens: number | null;
  outputTokens: number | null;
  /** Input read from the provider's prompt cache. */
  cachedInputTokens: number | null;
  /** Sapling addition: input written to the prompt cache (Anthropic, Bedrock). */
  cacheWriteInputTokens: number | null;
  /** Sapling addition: output spent on reasoning (OpenAI, Gemini). */
  reasoningTokens: number | null;
}

export interface Timing {
  /** Wall-clock start, milliseconds since the epoch. */
  startTimeUtcMs: number;
  /** `null` while running. */
  durationMs: number | null;
  /** Streams only: milliseconds from the start to the first text chunk. */
  timeToFirstTokenMs?: number | null;
}

/** The HTTP request a client sent, secrets replaced by `[REDACTED]`. */
export interface HttpRequestLog {
  url: string;
  method: string;
  headers: Record<string, string>;
  /** The JSON body itself (`body.messages`), which also answers BAML's `body.json()` and `body.text()`. */
  body: HttpBody;
}

/** The provider's answer; for a stream, the body is the list of decoded events' raw data. */
export interface HttpResponseLog {
  status: number;
  headers: Record<string, string>;
  /** The JSON value (a stream: the list of events' data), also answering `body.json()` and `body.text()`. */
  body: HttpBody;
}

/**
 * Sapling addition: a native tool call of an answer. `used` says whether the value came from it; an answer
 * with more calls than the return type has room for (several calls, a return type that is not a list)
 * returns the first and records the others with `used: false`.
 */
export interface ToolCallLog {
  id: string | null;
  name: string;
  /** The arguments as the model wrote them (JSON text, possibly cut or malformed). */
  arguments: string;
  used: boolean;
}

/** One attempt against one leaf client. */
export interface LlmCall {
  clientName: string;
  provider: string;
  timing: Timing;
  httpRequest: HttpRequestLog | null;
  httpResponse: HttpResponseLog | null;
  usage: Usage | null;
  /** Whether this attempt's answer is the one the call used. */
  selected: boolean;
  /** Why the attempt failed (redacted message), when it did. */
  error: string | null;
  /** The model's text, when it answered. */
  rawText: string | null;
  finishReason: string | null;
  /** Sapling addition: the answer's native tool calls (empty when it made none). */
  toolCalls: ToolCallLog[];
  /** Sapling addition: the model that answered (as the provider reports it), else the one requested. */
  model: string | null;
  /**
   * Sapling addition: the model's reasoning or thinking text so far (OpenAI Responses summaries and
   * `reasoning_content`, Anthropic thinking, Gemini thoughts, Bedrock reasoning); `null` when it sent none.
   */
  reasoning: string | null;
  /** Sapling addition: what this attempt cost in US dollars, from the price table; `null` when unknown. */
  costUsd: number | null;
}

/** One server-sent event of a streamed answer (BAML's `SSEResponse`): its data, as text and parsed. */
export interface SseResponse {
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: BAML's SSEResponse.json() is `any`; code written for it relies on that
  json(): any;
}

/**
 * A streamed attempt (BAML's `LlmStreamCall`): an `LlmCall` whose `httpResponse` body is the list of the
 * events' data and whose timing has `timeToFirstTokenMs`, and which also answers `sseResponses()` (a
 * method, not enumerable, so logs serialize as before). `"sseResponses" in call` tells a stream's attempt.
 */
export interface LlmStreamCall extends LlmCall {
  /** The events the provider sent, in order, secrets removed; `null` before the response started. */
  sseResponses(): SseResponse[] | null;
}

/** One function call or stream, with all its attempts. */
export interface FunctionLog {
  id: string;
  functionName: string;
  logType: "call" | "stream";
  timing: Timing;
  /** Summed over every attempt. */
  usage: Usage;
  calls: LlmCall[];
  selectedCall: LlmCall | null;
  rawLlmResponse: string | null;
  tags: Record<string, string>;
  /** The error the call ended with, when it failed (redacted message). */
  error: string | null;
  /**
   * Sapling addition: every repair the parser made to the selected answer (fence, fixed JSON, `"7.5"` →
   * 8, …), each with its path; empty when the answer was exact JSON of the declared type.
   */
  repairs: Flag[];
  /**
   * Sapling addition: the selected answer was cut (the token limit stopped it, or it ended inside a value).
   * The value is still returned, as in BAML; `finish_reason_deny_list ["length"]` on the client makes it
   * fail instead, and `parseRecovery: { nextClient: true }` then moves on to the next client.
   */
  truncated: boolean;
  /** Sapling addition: paths of the fields the cut answer did not finish (`$.name`, `$.tags`). */
  incompleteFields: string[];
  /**
   * Sapling addition: the selected answer's native tool calls, each with `used`; the ones with
   * `used: false` are calls the return type had no room for (kept here, never dropped silently).
   */
  toolCalls: ToolCallLog[];
  /**
   * Sapling addition: what the call cost in US dollars, summed over its attempts that reported usage;
   * `null` when one of them has no price (an unknown model) — never a partial sum.
   */
  costUsd: number | null;
}

export function emptyUsage(): Usage {
  return {
    inputTokens: null,
    outputTokens: null,
    cachedInputTokens: null,
    cacheWriteInputTokens: null,
    reasoningTokens: null,
  };
}

function addCount(left: number | null, right: number | null): number | null {
  if (left === null) return right;
  if (right === null) return left;
  return left + right;
}

/** Adds two usages; a count stays `null` only when neither side reported it. */
export function addUsage(left: Usage, right: Usage | null): Usage {
  if (!right) return { ...left };
  return {
    inputTokens: addCount(left.inputTokens, right.inputTokens),
    outputTokens: addCount(left.outputTokens, right.outputTokens),
    cachedInputTokens: addCount(left.cachedInputTokens, right.cachedInputTokens),
    cacheWriteInputTokens: addCount(left.cacheWriteInputTokens, right.cacheWriteInputTokens),
    reasoningTokens: addCount(left.reasoningTokens, right.reasoningTokens),
  };
}

/** The cost of a call's attempts: those that reported usage, `null` if one of them has no price. */
export function costOfCalls(calls: readonly LlmCall[]): number | null {
  let total: number | null = 0;
  for (const call of calls) if (call.usage !== null) total = addCost(total, call.costUsd);
  return total;
}

/** Function logs held by collectors not yet garbage-collected (BAML's `Collector.__functionSpanCount`). */
let heldLogs = 0;
// A collector's count leaves the total when the collector is collected (where the platform says so).
const collected =
  typeof FinalizationRegistry === "function"
    ? new FinalizationRegistry<{ count: number }>((held) => {
        heldLogs -= held.count;
      })
    : undefined;

/** Records function logs; one collector may watch many calls, and one call may feed many collectors. */
export class Collector {
  readonly #logs: FunctionLog[] = [];
  readonly #held = { count: 0 };

  constructor(readonly name = "default") {
    collected?.register(this, this.#held);
  }

  /**
   * BAML's leak check: how many function logs collectors still hold in this process, counting each
   * collector until it is cleared or garbage-collected.
   */
  static __functionSpanCount(): number {
    return heldLogs;
  }

  /** Every recorded call, oldest first. Logs of running calls are updated in place. */
  get logs(): readonly FunctionLog[] {
    return this.#logs;
  }

  /** The most recent call, or `null`. */
  get last(): FunctionLog | null {
    return this.#logs.at(-1) ?? null;
  }

  /** Token usage summed over every recorded call. */
  get usage(): Usage {
    return this.#logs.reduce((total, log) => addUsage(total, log.usage), emptyUsage());
  }

  /**
   * Sapling addition: what every recorded call cost in US dollars; `null` when one of them has no price.
   * Calls still running count with the attempts they have finished.
   */
  get costUsd(): number | null {
    return this.#logs.reduce<number | null>((total, log) => addCost(total, costOfCalls(log.calls)), 0);
  }

  /** The log with this id, or `null`. */
  id(functionLogId: string): FunctionLog | null {
    return this.#logs.find((log) => log.id === functionLogId) ?? null;
  }

  /** Forgets every recorded call; returns how many there were. */
  clear(): number {
    const count = this.#logs.length;
    this.#logs.length = 0;
    heldLogs -= count;
    this.#held.count = 0;
    return count;
  }

  /** Called by the runtime when a call starts. */
  record(log: FunctionLog): void {
    this.#logs.push(log);
    heldLogs++;
    this.#held.count++;
  }
}
