import { describe, expect, it, vi } from "vitest";
import type { LlmHttpError } from "../provider-helpers/index.js";
import { createReplayFetch } from "../testing/index.js";
import type { ChatMessage } from "../util/index.js";
import { createLanguageModel } from "./create-language-model.js";
import type { ModelStreamEvent } from "./language-model.js";
import { LlmError } from "./llm-error.js";

const messages: ChatMessage[] = [{ role: "user", parts: [{ type: "text", text: "hi" }] }];
const openAiAnswer = JSON.stringify({
  model: "gpt-x",
  choices: [{ message: { content: "whole answer" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 3, completion_tokens: 2 },
});

async function failure(promise: Promise<unknown>): Promise<LlmError> {
  try {
    await promise;
  } catch (error) {
    if (LlmError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

async function collect(iterable: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

describe("HttpLanguageModel", () => {
  it("supports_streaming false: stream() sends one non-streaming request and yields it as one delta", async () => {
    const fetch = createReplayFetch(() => ({
      body: openAiAnswer,
      headers: { "content-type": "application/json" },
    }));
    const model = createLanguageModel(
      "openai",
      { model: "gpt-x", api_key: "k", supports_streaming: false },
      { fetch },
    );
    expect(model.supportsStreaming).toBe(false);
    const events = await collect(model.stream(messages));
    expect(fetch.calls[0]?.body).not.toHaveProperty("stream");
    expect(events.map((event) => event.type)).toEqual(["response-start", "text-delta", "finish"]);
    expect(events[1]).toEqual({ type: "text-delta", text: "whole answer" });
    expect(events[2]).toMatchObject({ finishReason: "stop", usage: { inputTokens: 3, outputTokens: 2 } });
  });

  it("a server that ignores stream: true and answers JSON still streams as one delta", async () => {
    const fetch = createReplayFetch(() => ({
      body: openAiAnswer,
      headers: { "content-type": "application/json" },
    }));
    const model = createLanguageModel("openai-generic", { base_url: "http://127.0.0.1:1/v1" }, { fetch });
    const events = await collect(model.stream(messages));
    expect(fetch.calls[0]?.body).toHaveProperty("stream", true);
    expect(events.filter((event) => event.type === "text-delta")).toEqual([
      { type: "text-delta", text: "whole answer" },
    ]);
  });

  it("never puts the API key in an error, even when the provider echoes it", async () => {
    const key = "sk-live-VERYSECRET-123456";
    const fetch = createReplayFetch(() => ({
      status: 401,
      body: JSON.stringify({ error: { message: `Incorrect API key provided: ${key}.` } }),
    }));
    const error = (await failure(
      createLanguageModel("openai", { api_key: key }, { fetch }).generate(messages),
    )) as LlmHttpError;
    expect(error.status).toBe(401);
    expect(error.message).toContain("api_key");
    expect(`${error.message}\n${error.body}\n${JSON.stringify(error)}`).not.toContain(key);
    expect(error.body).toContain("[REDACTED]");
  });

  it("redacts the key from malformed bodies too", async () => {
    const key = "AIza-SECRET-abcdef";
    const fetch = createReplayFetch(() => ({ body: `<html>proxy error for key ${key}</html>` }));
    const error = await failure(
      createLanguageModel("google-ai", { api_key: key }, { fetch }).generate(messages),
    );
    expect(error.code).toBe("llm_malformed_response");
    expect(error.message).not.toContain(key);
  });

  it("an error event inside an Anthropic stream becomes an HTTP error with Anthropic's status", async () => {
    const transcript =
      'event: message_start\ndata: {"type":"message_start","message":{"model":"claude","usage":{"input_tokens":3}}}\n\n' +
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
    const fetch = createReplayFetch(() => ({
      body: transcript,
      headers: { "content-type": "text/event-stream" },
    }));
    const error = await failure(
      collect(createLanguageModel("anthropic", { model: "claude" }, { fetch }).stream(messages)),
    );
    expect(error).toMatchObject({ code: "llm_http_error", status: 529 });
  });

  it.each([
    [
      "openai",
      'data: {"choices":[{"delta":{"content":"a"}}]}\n\ndata: {"error":{"message":"overloaded","code":503}}\n\n',
      503,
    ],
    ["openai", 'data: {"error":{"message":"weird","code":"server_error"}}\n\n', 500],
    ["google-ai", 'data: {"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED"}}\n\n', 429],
  ])("an error event inside a %s stream becomes an HTTP error (%#)", async (provider, transcript, status) => {
    const fetch = createReplayFetch(() => ({
      body: transcript,
      headers: { "content-type": "text/event-stream" },
    }));
    const error = await failure(
      collect(createLanguageModel(provider, { model: "m", api_key: "k" }, { fetch }).stream(messages)),
    );
    expect(error).toMatchObject({ code: "llm_http_error", status });
  });

  it("an already-aborted signal fails with an abort error", async () => {
    const fetch = createReplayFetch(() => ({ body: openAiAnswer }));
    const controller = new AbortController();
    controller.abort();
    const model = createLanguageModel("openai", { api_key: "k" }, { fetch });
    expect((await failure(model.generate(messages, { signal: controller.signal }))).code).toBe("llm_aborted");
    expect((await failure(collect(model.stream(messages, { signal: controller.signal })))).code).toBe(
      "llm_aborted",
    );
  });

  it("total_timeout_ms bounds a stream whose chunks keep coming", async () => {
    const frames = Array.from(
      { length: 50 },
      (_, index) => `data: {"choices":[{"delta":{"content":"${index}"}}]}\n\n`,
    );
    const body = frames.join("");
    const fetch = createReplayFetch(() => ({
      body,
      headers: { "content-type": "text/event-stream" },
      splitAt: frames.map((_, index) => frames.slice(0, index + 1).join("").length),
      chunkDelayMs: 20,
    }));
    const model = createLanguageModel("openai", { api_key: "k", http: { total_timeout_ms: 150 } }, { fetch });
    expect(await failure(collect(model.stream(messages)))).toMatchObject({
      code: "llm_timeout",
      timeout: "total",
    });
  });

  it("a consumer that stops early aborts the fetch and cancels the response body", async () => {
    let cancelled = false;
    let signal: AbortSignal | undefined;
    const fakeFetch: typeof fetch = async (_url, init) => {
      signal = init?.signal ?? undefined;
      return new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            controller.enqueue(new TextEncoder().encode('data: {"choices":[{"delta":{"content":"x"}}]}\n\n'));
          },
          cancel() {
            cancelled = true;
          },
        }),
        { headers: { "content-type": "text/event-stream" } },
      );
    };
    const model = createLanguageModel("openai", { api_key: "k" }, { fetch: fakeFetch });
    for await (const event of model.stream(messages)) if (event.type === "text-delta") break;
    expect(signal?.aborted).toBe(true);
    await vi.waitFor(() => expect(cancelled).toBe(true));
  });

  it("a failed media download is a media error naming the host and status, never the host's body", async () => {
    const fetch = createReplayFetch((call) =>
      call.url.endsWith(".wav") ? { status: 404, body: "internal-page-text" } : { body: openAiAnswer },
    );
    const model = createLanguageModel("openai", { api_key: "k" }, { fetch });
    const error = await failure(
      model.generate([
        {
          role: "user",
          parts: [{ type: "media", media: { kind: "media", type: "audio", url: "https://x.test/a.wav" } }],
        },
      ]),
    );
    expect(error).toMatchObject({ code: "llm_media_error", reason: "http_status", host: "x.test" });
    expect(String(error)).toContain("HTTP 404");
    expect(String(error)).not.toContain("internal-page-text");
  });

  it("rejects media a provider cannot take, naming the option to change", async () => {
    const model = createLanguageModel(
      "openai",
      { api_key: "k", media_url_handler: { pdf: "send_url" } },
      {
        fetch: createReplayFetch(() => ({ body: "{}" })),
      },
    );
    const error = await failure(
      model.buildRequest(
        [
          {
            role: "user",
            parts: [{ type: "media", media: { kind: "media", type: "pdf", url: "https://x.test/a.pdf" } }],
          },
        ],
        { stream: false },
      ),
    );
    expect(error).toMatchObject({ code: "llm_invalid_options", option: "media_url_handler.pdf" });
  });
});
