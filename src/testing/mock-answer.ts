/**
 * What the mock LLM server answers: text with chosen chunking and delays, or a fault. Answers are plain
 * data so a test reads as a script: `server.script(answer("hi"), rateLimited(2), serverError())`.
 */

/** The wire formats the mock speaks. */
export type MockRoute = "openai" | "responses" | "anthropic" | "gemini" | "bedrock" | "transcriptions";

export type MockFault =
  /** An HTTP error in the provider's error format (429 carries `retry-after` when given). */
  | { type: "http-error"; status: number; message?: string; retryAfterSeconds?: number }
  /** The connection is reset after `afterChunks` text chunks (non-streaming: before any response byte). */
  | { type: "reset"; afterChunks: number }
  /** After `afterChunks` good chunks, an SSE event whose data is not JSON (non-streaming: a non-JSON body). */
  | { type: "malformed"; afterChunks: number }
  /** Headers are never sent (a stuck upstream); only `close()` or the client's timeout ends it. */
  | { type: "hang" };

/** A native tool call in a scripted answer (see mock-tool-calls.ts). */
export interface MockToolCall {
  name: string;
  /** The arguments as JSON text; may be cut or malformed on purpose. */
  arguments: string;
  /** The call's id (default: one in the provider's style). */
  id?: string;
}

export interface MockAnswer {
  /** The answer text (default `""`). */
  text?: string;
  /**
   * Native tool calls, sent after the text in the provider's format (streamed arguments in pieces of
   * `chunkSize`); the finish reason is then the provider's tool-use reason unless `finishReason` is
   * `length`.
   */
  toolCalls?: readonly MockToolCall[];
  /** Explicit stream chunking; their concatenation replaces `text`. */
  chunks?: readonly string[];
  /** Characters per streamed chunk when `chunks` is not given (default 8). */
  chunkSize?: number;
  /** Delay before the response headers (default 0). */
  headersDelayMs?: number;
  /** Delay between the headers and the first text chunk (a slow first token). */
  firstTokenDelayMs?: number;
  /** Delay between text chunks. */
  chunkDelayMs?: number;
  /** `length` is sent in each provider's spelling (`length`, `max_tokens`, `MAX_TOKENS`). Default `stop`. */
  finishReason?: "stop" | "length";
  /**
   * The model's reasoning ("thinking") text, written in each provider's wire format before the answer
   * (see mock-reasoning.ts) and streamed in chunks of `chunkSize`.
   */
  reasoning?: string;
  /**
   * Reported usage, as Sapling totals it (input includes cache reads and writes, output includes reasoning;
   * each wire writes its provider's own accounting). Defaults: input = ⌈request body length / 4⌉,
   * reasoning = ⌈reasoning length / 4⌉ when there is reasoning, output = ⌈text length / 4⌉ + reasoning.
   */
  usage?: {
    inputTokens?: number;
    outputTokens?: number;
    cachedInputTokens?: number;
    cacheWriteInputTokens?: number;
    reasoningTokens?: number;
  };
  /** The model reported in the answer (default: the requested model). */
  model?: string;
  fault?: MockFault;
}

/** A plain answer. */
export function answer(text: string, options: Omit<MockAnswer, "text"> = {}): MockAnswer {
  return { ...options, text };
}

/** An answer that calls tools: `toolCallAnswer({ name: "Person", arguments: '{"name": "Ada"}' })`. */
export function toolCallAnswer(
  calls: MockToolCall | readonly MockToolCall[],
  options: Omit<MockAnswer, "toolCalls"> = {},
): MockAnswer {
  return { ...options, toolCalls: Array.isArray(calls) ? calls : [calls as MockToolCall] };
}

/** HTTP 429 with `retry-after` in seconds. */
export function rateLimited(retryAfterSeconds = 1): MockAnswer {
  return { fault: { type: "http-error", status: 429, message: "Rate limit reached", retryAfterSeconds } };
}

/** HTTP 500 (or another status). */
export function serverError(
  status = 500,
  message = "The server had an error processing your request",
): MockAnswer {
  return { fault: { type: "http-error", status, message } };
}

/** Streams `text` but resets the connection after `afterChunks` chunks. */
export function resetMidStream(
  text: string,
  afterChunks = 1,
  options: Omit<MockAnswer, "text" | "fault"> = {},
): MockAnswer {
  return { ...options, text, fault: { type: "reset", afterChunks } };
}

/** Sends headers at once, then waits `delayMs` before the first text chunk. */
export function slowFirstToken(
  text: string,
  delayMs: number,
  options: Omit<MockAnswer, "text"> = {},
): MockAnswer {
  return { ...options, text, firstTokenDelayMs: delayMs };
}

/** A stream with a non-JSON event after `afterChunks` good chunks. */
export function malformedStream(text: string, afterChunks = 1): MockAnswer {
  return { text, fault: { type: "malformed", afterChunks } };
}

/** An answer cut by the token limit: finish reason `length`. */
export function cutByLength(
  text: string,
  options: Omit<MockAnswer, "text" | "finishReason"> = {},
): MockAnswer {
  return { ...options, text, finishReason: "length" };
}

/** Never answers. */
export function hang(): MockAnswer {
  return { fault: { type: "hang" } };
}
