/**
 * An adapter with a `StreamDecoder` (a non-SSE stream body, here AWS event-stream frames carrying OpenAI
 * chunks) is read by `HttpLanguageModel` under the same rules as SSE: text deltas as frames complete, raw
 * events named by the decoder, undecodable bytes as a malformed response, an in-stream error as an HTTP
 * error, and the idle timeout and abort applied to every chunk.
 */
import { describe, expect, it } from "vitest";
import {
  AwsEventStreamDecoder,
  AwsEventStreamError,
  encodeAwsEventStreamMessage,
} from "../aws-bedrock/index.js";
import { ProviderStreamError, ResponseShapeError } from "../provider-helpers/index.js";
import type { ChatMessage } from "../util/index.js";
import { readClientOptions } from "./client-options.js";
import { HttpLanguageModel } from "./http-language-model.js";
import type { ModelStreamEvent } from "./language-model.js";
import { LlmError } from "./llm-error.js";
import { createOpenAiChatAdapter } from "./providers/openai-chat-adapter.js";
import type { ProviderAdapter, StreamDecoder } from "./providers/provider-adapter.js";

const messages: ChatMessage[] = [{ role: "user", parts: [{ type: "text", text: "hi" }] }];

function frame(event: string, payload: unknown, messageType = "event"): Uint8Array {
  const name = messageType === "event" ? ":event-type" : ":exception-type";
  return encodeAwsEventStreamMessage(
    { [name]: event, ":message-type": messageType },
    JSON.stringify(payload),
  );
}

const delta = (text: string) => frame("chunk", { choices: [{ delta: { content: text } }] });
const finish = frame("chunk", { choices: [{ delta: {}, finish_reason: "stop" }] });

/** Frames as the adapter under test reads them: `:event-type` names the event, exceptions throw. */
function eventStreamDecoder(): StreamDecoder {
  const decoder = new AwsEventStreamDecoder();
  const read = (step: () => ReturnType<AwsEventStreamDecoder["push"]>) => {
    try {
      return step().map((message) => {
        const data = new TextDecoder().decode(message.payload);
        if (message.headers[":message-type"] === "exception") throw new ProviderStreamError(429, data);
        return { event: String(message.headers[":event-type"]), data };
      });
    } catch (error) {
      if (error instanceof AwsEventStreamError) throw new ResponseShapeError(error.message);
      throw error;
    }
  };
  return {
    push: (chunk) => read(() => decoder.push(chunk)),
    end: () =>
      read(() => {
        decoder.end();
        return [];
      }),
  };
}

/** A fetch answering with `chunks`, `delayMs` apart, honouring the abort signal. */
/** A fetch whose body sends `chunks` `delayMs` apart; `sent` counts the chunks the body gave out. */
function binaryFetch(chunks: Uint8Array[], delayMs = 0, sent = { chunks: 0 }): typeof fetch {
  return async (_url, init) => {
    const signal = init?.signal ?? undefined;
    let index = 0;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        signal?.addEventListener("abort", () => controller.error(signal.reason), { once: true });
      },
      async pull(controller) {
        if (index > 0 && delayMs > 0) {
          // The wait ends early on abort, as a socket's does.
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, delayMs);
            const stop = () => {
              clearTimeout(timer);
              resolve();
            };
            signal?.addEventListener("abort", stop, { once: true });
          });
        }
        if (signal?.aborted) return;
        const chunk = chunks[index++];
        if (chunk === undefined) controller.close();
        else {
          sent.chunks++;
          controller.enqueue(chunk);
        }
      },
    });
    return new Response(body, { headers: { "content-type": "application/vnd.amazon.eventstream" } });
  };
}

function model(fetchFunction: typeof fetch, http: Record<string, number> = {}) {
  const options = readClientOptions(
    { model: "m", http },
    { provider: "test", extraKeys: [], modelInBody: true },
  );
  const adapter: ProviderAdapter = {
    ...createOpenAiChatAdapter({
      provider: "test",
      url: "http://127.0.0.1:1/x",
      headers: {},
      query: {},
      options,
    }),
    createStreamDecoder: eventStreamDecoder,
  };
  return new HttpLanguageModel("test", options, adapter, fetchFunction);
}

async function collect(iterable: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

async function failure(promise: Promise<unknown>): Promise<LlmError> {
  try {
    await promise;
  } catch (error) {
    if (LlmError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

/** `bytes` cut into pieces of `size` (frames split anywhere, including inside the prelude). */
function cut(bytes: Uint8Array, size: number): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) pieces.push(bytes.slice(offset, offset + size));
  return pieces;
}

function join(...parts: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    all.set(part, offset);
    offset += part.length;
  }
  return all;
}

describe("HttpLanguageModel with an adapter's stream decoder", () => {
  it("yields the decoder's events and text deltas, whatever the chunking", async () => {
    const body = join(delta("Hel"), delta("lo"), finish);
    for (const size of [1, 7, 50, body.length]) {
      const events = await collect(model(binaryFetch(cut(body, size))).stream(messages));
      const text = events.flatMap((event) => (event.type === "text-delta" ? [event.text] : []));
      expect(text.join(""), `chunks of ${size} bytes`).toBe("Hello");
      expect(events.filter((event) => event.type === "raw").map((event) => event.event)).toEqual([
        "chunk",
        "chunk",
        "chunk",
      ]);
      expect(events.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" });
    }
  });

  it("corrupt bytes are a malformed response, not a connection error", async () => {
    const corrupt = delta("Hello");
    corrupt[20] = (corrupt[20] ?? 0) ^ 0xff;
    const error = await failure(collect(model(binaryFetch([delta("ok"), corrupt])).stream(messages)));
    expect(error.code).toBe("llm_malformed_response");
    expect(error.message).toContain("the message checksum does not match");
  });

  it("a body that ends inside a frame is a malformed response", async () => {
    const error = await failure(collect(model(binaryFetch([delta("ok").slice(0, 30)])).stream(messages)));
    expect(error.code).toBe("llm_malformed_response");
    expect(error.message).toContain("ended inside a message");
  });

  it("an error the provider sends in the stream is an HTTP error with the decoder's status", async () => {
    const throttled = frame("throttlingException", { message: "Too many tokens" }, "exception");
    const error = await failure(collect(model(binaryFetch([delta("a"), throttled])).stream(messages)));
    expect(error).toMatchObject({ code: "llm_http_error", status: 429 });
    expect((error as LlmError & { body: string }).body).toContain("Too many tokens");
  });

  it("the idle timeout applies between binary chunks", async () => {
    const fetch = binaryFetch([delta("a"), delta("b"), finish], 1000);
    const error = await failure(collect(model(fetch, { idle_timeout_ms: 100 }).stream(messages)));
    expect(error).toMatchObject({ code: "llm_timeout", timeout: "idle" });
  });

  it("an abort ends a binary stream promptly", async () => {
    const controller = new AbortController();
    // The next chunk would come an hour later: only the abort can end this stream (no clock is read).
    const sent = { chunks: 0 };
    const fetch = binaryFetch([delta("a"), delta("b"), finish], 60 * 60_000, sent);
    const error = await failure(
      (async () => {
        for await (const event of model(fetch).stream(messages, { signal: controller.signal }))
          if (event.type === "text-delta") controller.abort();
      })(),
    );
    expect(error.code).toBe("llm_aborted");
    expect(sent.chunks).toBe(1);
  });
});
