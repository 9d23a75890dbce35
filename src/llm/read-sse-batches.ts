/**
 * Reads a streaming body and yields, per network chunk, the SSE events it completed (or, given a provider's
 * `StreamDecoder`, the events of its non-SSE framing, read under the same deadline). Decoding is inline
 * (no stream stages between the socket and the decoder): per event that saves two stream hops, most of the
 * adapter's cost on token-sized chunks (see bench/llm.ts). The deadline sees every chunk (idle timeout), and
 * an abort ends a pending read at once even when the body ignores the fetch signal.
 */

import type { StreamDecoder } from "./providers/provider-adapter.js";
import type { RequestDeadline } from "./request-deadline.js";
import { SseDecoder, type SseEvent } from "./sse-decoder.js";

export async function* readSseBatches(
  body: ReadableStream<Uint8Array>,
  deadline: RequestDeadline,
  decoder: StreamDecoder = createSseStreamDecoder(),
): AsyncGenerator<SseEvent[]> {
  const reader = body.getReader();
  deadline.onAbort(() => reader.cancel().catch(() => {}));
  let ended = false;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (deadline.signal.aborted) throw deadline.signal.reason;
      if (done) {
        ended = true;
        const last = decoder.end();
        if (last.length > 0) yield last;
        return;
      }
      deadline.chunkReceived();
      const events = decoder.push(value);
      if (events.length > 0) yield events;
    }
  } finally {
    // Stopped early (the consumer left, or an error): release the connection.
    if (!ended) reader.cancel().catch(() => {});
  }
}

/** SSE over UTF-8 bytes (a character may be split across chunks). */
function createSseStreamDecoder(): StreamDecoder {
  const utf8 = new TextDecoder();
  const decoder = new SseDecoder();
  return {
    push: (chunk) => decoder.push(utf8.decode(chunk, { stream: true })),
    end: () => [...decoder.push(utf8.decode()), ...decoder.end()],
  };
}
