/**
 * Writes one scripted answer of the mock LLM server in a provider's wire format, with its delays and its
 * fault: an HTTP error, a reset before or during the stream, a malformed body or event, or a hang.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { MockAnswer } from "./mock-answer.js";
import { toolCallStreamFrames, withToolCalls } from "./mock-tool-calls.js";
import type { MockWireFormat, RenderContext } from "./mock-wire-formats.js";
import type { RecordedRequest } from "./start-mock-llm-server.js";

export interface MockExchange {
  incoming: IncomingMessage;
  response: ServerResponse;
  wire: MockWireFormat;
  recorded: RecordedRequest;
  rawBody: string;
  scripted: MockAnswer;
  /** A per-server counter, for answer ids. */
  answerId: number;
  /** Resolves `true` after the delay, `false` as soon as the response closes or the server stops. */
  sleep: (milliseconds: number, response: ServerResponse) => Promise<boolean>;
}

export async function writeMockAnswer(exchange: MockExchange): Promise<void> {
  const { incoming, response, wire, recorded, rawBody, scripted, answerId, sleep } = exchange;
  if (!(await sleep(scripted.headersDelayMs ?? 0, response))) return;
  const fault = scripted.fault;
  if (fault?.type === "hang") return; // Left open until the client gives up or close() destroys the socket.
  if (fault?.type === "http-error") {
    const headers: Record<string, string> = {};
    if (fault.retryAfterSeconds !== undefined) headers["retry-after"] = String(fault.retryAfterSeconds);
    sendJson(
      response,
      fault.status,
      wire.errorBody(fault.status, fault.message ?? `HTTP ${fault.status}`),
      headers,
    );
    return;
  }
  const chunks = answerChunks(scripted);
  const context = answerContext(recorded, rawBody, scripted, answerId);

  if (!recorded.stream) {
    if (fault?.type === "reset") return resetConnection(incoming);
    if (!(await sleep(scripted.firstTokenDelayMs ?? 0, response))) return;
    if (fault?.type === "malformed") {
      response.writeHead(200, { "content-type": "application/json" });
      response.end('{"choices": [{"message": {"content": "cut in the mid');
      return;
    }
    sendJson(response, 200, withToolCalls(wire.route, wire.completeBody(context), context));
    recorded.chunksSent = 1;
    return;
  }

  response.writeHead(200, {
    "content-type": wire.streamContentType ?? "text/event-stream",
    "cache-control": "no-cache",
  });
  response.flushHeaders();
  for (const frame of wire.streamStart(context)) response.write(frame);
  if (!(await sleep(scripted.firstTokenDelayMs ?? 0, response))) return;
  for (const [index, chunk] of chunks.entries()) {
    if (fault?.type === "reset" && index === fault.afterChunks) return resetAfterDelivery(exchange);
    if (fault?.type === "malformed" && index === fault.afterChunks) {
      response.end(malformedFrame(wire));
      return;
    }
    if (index > 0 && !(await sleep(scripted.chunkDelayMs ?? 0, response))) return;
    response.write(wire.streamChunk(context, chunk, index));
    recorded.chunksSent = index + 1;
  }
  if (fault?.type === "reset") return resetAfterDelivery(exchange);
  if (fault?.type === "malformed") {
    response.end(malformedFrame(wire));
    return;
  }
  for (const [index, frames] of toolCallStreamFrames(
    wire.route,
    context,
    scripted.chunkSize ?? 8,
  ).entries()) {
    if ((index > 0 || chunks.length > 0) && !(await sleep(scripted.chunkDelayMs ?? 0, response))) return;
    for (const frame of frames) response.write(frame);
  }
  for (const frame of wire.streamEnd(context)) response.write(frame);
  response.end();
}

function answerChunks(scripted: MockAnswer): readonly string[] {
  return scripted.chunks ?? splitText(scripted.text ?? "", scripted.chunkSize ?? 8);
}

/** What the wire formats render an answer from: its text, finish reason, usage and model. */
export function answerContext(
  recorded: RecordedRequest,
  rawBody: string,
  scripted: MockAnswer,
  answerId: number,
): RenderContext {
  const text = answerChunks(scripted).join("");
  const reasoning = scripted.reasoning ?? "";
  const reasoningTokens =
    scripted.usage?.reasoningTokens ?? (reasoning === "" ? undefined : Math.ceil(reasoning.length / 4));
  const { cachedInputTokens, cacheWriteInputTokens } = scripted.usage ?? {};
  return {
    id: `mock-${answerId}`,
    text,
    finishReason: scripted.finishReason ?? "stop",
    usage: {
      inputTokens: scripted.usage?.inputTokens ?? Math.ceil(rawBody.length / 4),
      outputTokens: scripted.usage?.outputTokens ?? Math.ceil(text.length / 4) + (reasoningTokens ?? 0),
      ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }),
      ...(cacheWriteInputTokens === undefined ? {} : { cacheWriteInputTokens }),
      ...(reasoningTokens === undefined ? {} : { reasoningTokens }),
    },
    reasoning,
    reasoningChunks: splitText(reasoning, scripted.chunkSize ?? 8),
    textIndex: reasoning === "" ? 0 : 1,
    model: scripted.model ?? recorded.model ?? "mock-model",
    request: recorded.body,
    ...(scripted.toolCalls === undefined ? {} : { toolCalls: scripted.toolCalls }),
  };
}

/**
 * A whole answer as a status and a JSON body, for answers that are not sent on a connection of their own
 * (the results of a provider batch). An HTTP-error fault is its error body; the connection faults (reset,
 * malformed, hang) have no meaning there and become a 500 that says so.
 */
export function wholeAnswer(
  wire: MockWireFormat,
  recorded: RecordedRequest,
  rawBody: string,
  scripted: MockAnswer,
  answerId: number,
): { status: number; body: unknown } {
  const fault = scripted.fault;
  if (fault?.type === "http-error")
    return {
      status: fault.status,
      body: wire.errorBody(fault.status, fault.message ?? `HTTP ${fault.status}`),
    };
  if (fault !== undefined)
    return {
      status: 500,
      body: wire.errorBody(500, `mock LLM server: a ${fault.type} fault cannot happen inside a batch`),
    };
  return { status: 200, body: wire.completeBody(answerContext(recorded, rawBody, scripted, answerId)) };
}

function malformedFrame(wire: MockWireFormat): string | Uint8Array {
  return wire.malformedFrame?.() ?? 'data: {"unterminated": "event\n\n';
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

/**
 * A reset discards data still in flight, so chunks already written are given a moment to reach the client
 * first: the test then sees "some text, then a reset", the shape of a real mid-stream failure.
 */
async function resetAfterDelivery(exchange: MockExchange): Promise<void> {
  if (await exchange.sleep(30, exchange.response)) resetConnection(exchange.incoming);
}

/** A TCP reset (RST), so the client sees ECONNRESET rather than a clean end. */
function resetConnection(incoming: IncomingMessage): void {
  const socket = incoming.socket;
  if (typeof socket.resetAndDestroy === "function") socket.resetAndDestroy();
  else socket.destroy();
}

function splitText(text: string, size: number): string[] {
  const chunks: string[] = [];
  for (let offset = 0; offset < text.length; offset += Math.max(1, size)) {
    chunks.push(text.slice(offset, offset + size));
  }
  return chunks;
}
