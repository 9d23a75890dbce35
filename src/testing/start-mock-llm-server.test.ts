/**
 * Every fault of the mock server, observed through the real provider adapters over a real socket, for each
 * wire format the server speaks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { awsBedrock } from "../aws-bedrock/index.js";
import { createLanguageModel as createAnyLanguageModel } from "../llm/create-language-model.js";
import { type LanguageModel, LlmError, type ModelStreamEvent } from "../llm/index.js";
import {
  LlmAbortError,
  LlmConnectionError,
  LlmHttpError,
  LlmMalformedResponseError,
  LlmTimeoutError,
} from "../provider-helpers/index.js";
import type { ChatMessage } from "../util/index.js";
import {
  answer,
  cutByLength,
  hang,
  type MockRoute,
  malformedStream,
  rateLimited,
  resetMidStream,
  serverError,
  slowFirstToken,
} from "./mock-answer.js";
import { mockAwsCredentials } from "./mock-bedrock-auth.js";
import { type MockLlmServer, startMockLlmServer } from "./start-mock-llm-server.js";

/** `createLanguageModel` given the `aws-bedrock` adapter, as the runtime of a Bedrock project gets it. */
const createLanguageModel: typeof createAnyLanguageModel = (provider, options, dependencies) =>
  createAnyLanguageModel(provider, options, { ...dependencies, providers: [awsBedrock] });

const apiKey = "sk-test-SECRET-0123456789";
const messages: ChatMessage[] = [
  { role: "system", parts: [{ type: "text", text: "Answer briefly." }] },
  { role: "user", parts: [{ type: "text", text: "Say hello." }] },
];

/** How a client reaches the mock for one wire format, and the secret that must never show in errors. */
interface ProviderCase {
  route: MockRoute;
  provider: string;
  lengthReason: string;
  connection: (server: MockLlmServer) => Record<string, unknown>;
  secret: string;
}

const withApiKey = (route: MockRoute) => (server: MockLlmServer) => ({
  base_url: server.baseUrls[route],
  api_key: apiKey,
});

const providers: ProviderCase[] = [
  {
    route: "openai",
    provider: "openai",
    lengthReason: "length",
    connection: withApiKey("openai"),
    secret: apiKey,
  },
  // The Responses API reports a length cut as status `incomplete` (reason `max_output_tokens`).
  {
    route: "responses",
    provider: "openai-responses",
    lengthReason: "incomplete",
    connection: withApiKey("responses"),
    secret: apiKey,
  },
  {
    route: "anthropic",
    provider: "anthropic",
    lengthReason: "max_tokens",
    connection: withApiKey("anthropic"),
    secret: apiKey,
  },
  {
    route: "gemini",
    provider: "google-ai",
    lengthReason: "MAX_TOKENS",
    connection: withApiKey("gemini"),
    secret: apiKey,
  },
  // SigV4-signed with the key pair the mock knows; streams are binary event-stream frames.
  {
    route: "bedrock",
    provider: "aws-bedrock",
    lengthReason: "max_tokens",
    connection: (server) => ({
      endpoint_url: server.baseUrls.bedrock,
      region: "us-east-1",
      access_key_id: mockAwsCredentials.accessKeyId,
      secret_access_key: mockAwsCredentials.secretAccessKey,
    }),
    secret: mockAwsCredentials.secretAccessKey,
  },
];

let server: MockLlmServer;
beforeAll(async () => {
  server = await startMockLlmServer();
});
afterAll(async () => {
  await server.close();
});

async function collect(model: LanguageModel, signal?: AbortSignal): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of model.stream(messages, signal === undefined ? {} : { signal }))
    events.push(event);
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

/** Polls until `condition` holds; a condition never reached fails the test at Vitest's test timeout. */
async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

for (const { route, provider, lengthReason, connection, secret } of providers) {
  describe(`${provider} against the mock server`, () => {
    const model = (extra: Record<string, unknown> = {}) =>
      createLanguageModel(provider, { model: "test-model", ...connection(server), ...extra }, { fetch });

    it("answers a whole request and records it", async () => {
      server.scriptFor(route, answer("Hello, world!", { usage: { inputTokens: 11, outputTokens: 4 } }));
      const result = await model().generate(messages);
      expect(result).toMatchObject({
        text: "Hello, world!",
        finishReason: "stop",
        usage: { inputTokens: 11, outputTokens: 4 },
        model: "test-model",
      });
      const recorded = server.requests[server.requests.length - 1];
      expect(recorded).toMatchObject({ route, stream: false, model: "test-model" });
    });

    it("streams the scripted chunks as text deltas, then usage and finish", async () => {
      server.scriptFor(
        route,
        answer("", { chunks: ["Hel", "lo, ", "world", "!"], usage: { inputTokens: 9, outputTokens: 4 } }),
      );
      const events = await collect(model());
      expect(events.filter((event) => event.type === "text-delta").map((event) => event.text)).toEqual([
        "Hel",
        "lo, ",
        "world",
        "!",
      ]);
      expect(events[events.length - 1]).toMatchObject({
        type: "finish",
        finishReason: "stop",
        usage: { inputTokens: 9, outputTokens: 4 },
        model: "test-model",
      });
      expect(server.requests[server.requests.length - 1]?.stream).toBe(true);
    });

    it("429: an HTTP error with status and retry-after, without the API key", async () => {
      server.scriptFor(route, rateLimited(3));
      const error = await failure(collect(model()));
      expect(LlmHttpError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: "llm_http_error", status: 429, retryAfterMs: 3000 });
      expect(`${error.message} ${(error as LlmHttpError).body}`).not.toContain(secret);
    });

    it("500: an HTTP error with status and body", async () => {
      server.scriptFor(route, serverError(500, "boom"));
      const error = await failure(model().generate(messages));
      expect(error).toMatchObject({ code: "llm_http_error", status: 500, retryAfterMs: undefined });
      expect((error as LlmHttpError).body).toContain("boom");
    });

    it("a connection reset mid-stream is a typed connection error after the first delta", async () => {
      server.scriptFor(route, resetMidStream("abcdefghijklmnop", 1, { chunkSize: 4 }));
      const seen: string[] = [];
      const error = await failure(
        (async () => {
          for await (const event of model().stream(messages))
            if (event.type === "text-delta") seen.push(event.text);
        })(),
      );
      expect(LlmConnectionError.isInstance(error)).toBe(true);
      expect(seen).toEqual(["abcd"]);
    });

    it("a reset before a whole answer is a typed connection error", async () => {
      server.scriptFor(route, resetMidStream("never sent", 0));
      expect((await failure(model().generate(messages))).code).toBe("llm_connection_error");
    });

    it("a slow first token trips time_to_first_token_timeout_ms promptly", async () => {
      server.scriptFor(route, slowFirstToken("late", 5000));
      const error = await failure(collect(model({ http: { time_to_first_token_timeout_ms: 150 } })));
      expect(LlmTimeoutError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ timeout: "time_to_first_token", timeoutMs: 150 });
      // The client gave up before the first token was written, instead of waiting it out.
      expect(server.requests[server.requests.length - 1]?.chunksSent).toBe(0);
    });

    it("a malformed SSE event is a typed malformed-response error", async () => {
      server.scriptFor(route, malformedStream("good text before the break", 1));
      const error = await failure(collect(model()));
      expect(LlmMalformedResponseError.isInstance(error)).toBe(true);
      expect((error as LlmMalformedResponseError).raw).toContain("unterminated");
    });

    it("a malformed whole answer is a typed malformed-response error", async () => {
      server.scriptFor(route, { text: "x", fault: { type: "malformed", afterChunks: 0 } });
      expect((await failure(model().generate(messages))).code).toBe("llm_malformed_response");
    });

    it(`an answer cut by the token limit finishes with "length" (${lengthReason} on the wire)`, async () => {
      server.scriptFor(route, cutByLength('{"items": ["a", "b', { chunkSize: 5 }), cutByLength("partial"));
      const events = await collect(model({ finish_reason_deny_list: [lengthReason] }));
      const finish = events[events.length - 1];
      expect(finish).toMatchObject({ type: "finish", finishReason: "length", rawFinishReason: lengthReason });
      const whole = await model().generate(messages);
      expect(whole).toMatchObject({ finishReason: "length", rawFinishReason: lengthReason });
      expect(model({ finish_reason_deny_list: [lengthReason] }).isFinishReasonAllowed(lengthReason)).toBe(
        false,
      );
    });

    it("abort ends a stream promptly and the server sees the connection close", async () => {
      // 100 chunks 1 s apart: an abort honoured only at the next chunk would see a second one written.
      server.scriptFor(route, answer("x".repeat(400), { chunkSize: 4, chunkDelayMs: 1000 }));
      const controller = new AbortController();
      let deltas = 0;
      const error = await failure(
        (async () => {
          for await (const event of model().stream(messages, { signal: controller.signal })) {
            if (event.type === "text-delta" && deltas++ === 0) controller.abort();
          }
        })(),
      );
      expect(LlmAbortError.isInstance(error)).toBe(true);
      const recorded = server.requests[server.requests.length - 1];
      expect(deltas).toBe(1);
      expect(recorded?.chunksSent).toBe(1);
      // The answer would take 100 s; the server only stops early because the client closed the connection.
      await waitFor(() => server.activeRequests() === 0);
      expect(recorded?.chunksSent).toBeLessThan(100);
    });

    it("abort ends a call still waiting for headers promptly", async () => {
      // The mock never answers: the call ends only because the abort is honoured while it waits.
      server.scriptFor(route, hang());
      const controller = new AbortController();
      const call = failure(model().generate(messages, { signal: controller.signal }));
      await waitFor(() => server.activeRequests() === 1);
      controller.abort();
      const error = await call;
      expect(error.code).toBe("llm_aborted");
      expect(server.requests[server.requests.length - 1]?.chunksSent).toBe(0);
      await waitFor(() => server.activeRequests() === 0);
    });

    it("a stuck upstream trips connect_timeout_ms", async () => {
      server.scriptFor(route, hang());
      const error = await failure(model({ http: { connect_timeout_ms: 100 } }).generate(messages));
      expect(error).toMatchObject({ code: "llm_timeout", timeout: "connect" });
    });

    it("a long gap between chunks trips idle_timeout_ms", async () => {
      server.scriptFor(route, answer("abcdefgh", { chunkSize: 2, chunkDelayMs: 1000 }));
      const error = await failure(collect(model({ http: { idle_timeout_ms: 150 } })));
      expect(error).toMatchObject({ code: "llm_timeout", timeout: "idle" });
    });

    it("a slow whole answer trips request_timeout_ms", async () => {
      server.scriptFor(route, answer("late", { headersDelayMs: 2000 }));
      const error = await failure(model({ http: { request_timeout_ms: 100 } }).generate(messages));
      expect(error).toMatchObject({ code: "llm_timeout", timeout: "request" });
    });
  });
}

describe("mock LLM server", () => {
  it("answers 500 with an explanation when nothing was scripted", async () => {
    const local = await startMockLlmServer();
    try {
      const response = await fetch(`${local.baseUrls.openai}/chat/completions`, {
        method: "POST",
        body: JSON.stringify({ model: "m", messages: [] }),
      });
      expect(response.status).toBe(500);
      expect(await response.text()).toContain("no scripted answer");
    } finally {
      await local.close();
    }
  });

  it("keeps only the latest maxRecordedRequests requests, and counts them all", async () => {
    const local = await startMockLlmServer({ maxRecordedRequests: 3 });
    try {
      for (let index = 1; index <= 5; index++) {
        const response = await fetch(`${local.baseUrls.openai}/chat/completions`, {
          method: "POST",
          body: JSON.stringify({ model: `m${index}`, messages: [] }),
        });
        // Numbered by every request received, not by the ones still kept.
        expect(await response.text()).toContain(`request #${index}`);
      }
      expect(local.requests.map((request) => request.model)).toEqual(["m3", "m4", "m5"]);
      expect(local.requestCount()).toBe(5);
    } finally {
      await local.close();
    }
  });

  it("serves route queues before the shared queue, then the respond function", async () => {
    const local = await startMockLlmServer({ respond: (request) => answer(`echo ${request.model}`) });
    try {
      local.script(answer("shared"));
      local.scriptFor("openai", answer("routed"));
      const model = createLanguageModel(
        "openai",
        { model: "m1", base_url: local.baseUrls.openai },
        { fetch },
      );
      expect((await model.generate(messages)).text).toBe("routed");
      expect((await model.generate(messages)).text).toBe("shared");
      expect((await model.generate(messages)).text).toBe("echo m1");
      expect(local.pendingAnswers()).toBe(0);
    } finally {
      await local.close();
    }
  });

  it("records headers, query and body", async () => {
    const local = await startMockLlmServer({ defaultAnswer: answer("ok") });
    try {
      const model = createLanguageModel(
        "google-ai",
        {
          model: "gemini-x",
          base_url: local.baseUrls.gemini,
          api_key: "AIza-key",
          query_params: { trace: "1" },
        },
        { fetch },
      );
      await model.generate(messages);
      expect(local.requests[0]).toMatchObject({
        route: "gemini",
        path: "/v1beta/models/gemini-x:generateContent",
        query: { trace: "1" },
        model: "gemini-x",
        stream: false,
      });
      expect(local.requests[0]?.headers["x-goog-api-key"]).toBe("AIza-key");
      expect(local.requests[0]?.body).toHaveProperty("system_instruction");
    } finally {
      await local.close();
    }
  });

  it("reads the prompt text from string content and from typed parts alike", async () => {
    const local = await startMockLlmServer({
      respond: (request) => answer(request.promptText.includes("Say hello.") ? "hello" : "unseen"),
    });
    try {
      // openai-generic sends text-only turns as strings; openai and anthropic send typed parts.
      const clients: [string, Record<string, unknown>][] = [
        ["openai-generic", { model: "m", base_url: local.baseUrls.openai }],
        ["openai", { model: "m", base_url: local.baseUrls.openai, api_key: apiKey }],
        ["anthropic", { model: "m", base_url: local.baseUrls.anthropic, api_key: apiKey }],
      ];
      for (const [provider, options] of clients) {
        const result = await createLanguageModel(provider, options, { fetch }).generate(messages);
        expect(result.text).toBe("hello");
      }
      const contents = local.requests.map(
        (request) => (request.body.messages as { content: unknown }[])[0]?.content,
      );
      expect(contents[0]).toBe("Answer briefly.");
      expect(contents[1]).toEqual([{ type: "text", text: "Answer briefly." }]);
      expect(local.requests.map((request) => request.promptText)).toEqual([
        "Answer briefly.\nSay hello.",
        "Answer briefly.\nSay hello.",
        "Answer briefly.\nSay hello.",
      ]);
    } finally {
      await local.close();
    }
  });
  it("speaks the Responses API on /v1/responses: named events in sequence, ending with the whole response", async () => {
    const local = await startMockLlmServer();
    try {
      local.scriptFor("responses", answer("Hi there", { chunkSize: 3, usage: { cachedInputTokens: 2 } }));
      const model = createLanguageModel(
        "openai-responses",
        { model: "gpt-x", base_url: local.baseUrls.responses, max_tokens: 50 },
        { fetch },
      );
      const events = await collect(model);
      const raw = events.flatMap((event) => (event.type === "raw" ? [event] : []));
      expect(raw.map((event) => event.event)).toEqual([
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        "response.content_part.added",
        "response.output_text.delta",
        "response.output_text.delta",
        "response.output_text.delta",
        "response.output_text.done",
        "response.content_part.done",
        "response.output_item.done",
        "response.completed",
      ]);
      const sequence = raw.map(
        (event) => (JSON.parse(event.data) as { sequence_number: number }).sequence_number,
      );
      expect(sequence).toEqual(sequence.map((_, index) => index));
      expect(events.at(-1)).toMatchObject({ rawFinishReason: "completed", usage: { cachedInputTokens: 2 } });
      expect(local.requests[0]).toMatchObject({
        route: "responses",
        path: "/v1/responses",
        stream: true,
        body: { max_output_tokens: 50 },
      });
      expect(local.requests[0]?.body.input).toEqual(
        messages.map((message) => ({
          role: message.role,
          content: message.parts.map((part) => ({
            type: "input_text",
            text: (part as { text: string }).text,
          })),
        })),
      );
    } finally {
      await local.close();
    }
  });

  it("checks Bedrock SigV4 signatures as Bedrock does: unsigned, unknown key and wrong secret are 403", async () => {
    const local = await startMockLlmServer({ defaultAnswer: answer("signed") });
    try {
      const bedrock = (keys: Record<string, unknown>) =>
        createLanguageModel(
          "aws-bedrock",
          {
            model: "amazon.nova-lite-v1:0",
            region: "eu-central-1",
            endpoint_url: local.baseUrls.bedrock,
            ...keys,
          },
          { fetch },
        );
      const known = {
        access_key_id: mockAwsCredentials.accessKeyId,
        secret_access_key: mockAwsCredentials.secretAccessKey,
      };
      expect((await bedrock({ ...known, session_token: "session-1234" }).generate(messages)).text).toBe(
        "signed",
      );
      expect(local.requests[0]).toMatchObject({
        route: "bedrock",
        path: "/model/amazon.nova-lite-v1%3A0/converse",
        model: "amazon.nova-lite-v1:0",
        stream: false,
      });

      const refusal = async (keys: Record<string, unknown>) =>
        (await failure(bedrock(keys).generate(messages))) as LlmHttpError;
      const wrongSecret = await refusal({ ...known, secret_access_key: "not-the-secret-key" });
      expect(wrongSecret).toMatchObject({ status: 403 });
      expect(wrongSecret.body).toContain("The request signature we calculated does not match");
      const unknownKey = await refusal({ ...known, access_key_id: "AKIAUNKNOWN" });
      expect(unknownKey.body).toContain("The security token included in the request is invalid.");
      const unsigned = await fetch(`${local.url}/model/m/converse`, { method: "POST", body: "{}" });
      expect(unsigned.status).toBe(403);
      expect(await unsigned.json()).toEqual({ message: "Missing Authentication Token" });
      // A tampered body no longer matches its signature.
      const signed = await bedrock(known).buildRequest(messages, { stream: false });
      const tampered = await fetch(signed.url, {
        method: "POST",
        headers: signed.headers,
        body: JSON.stringify({ ...signed.body, messages: [] }),
      });
      expect(tampered.status).toBe(403);
      expect(local.requests).toHaveLength(5);
      expect(local.pendingAnswers()).toBe(0);
    } finally {
      await local.close();
    }
  });

  it("speaks Bedrock ConverseStream as binary event-stream frames", async () => {
    const local = await startMockLlmServer();
    try {
      local.scriptFor("bedrock", answer("Hi there", { chunkSize: 3, usage: { cachedInputTokens: 2 } }));
      const model = createLanguageModel(
        "aws-bedrock",
        {
          model: "m",
          region: "us-east-1",
          endpoint_url: local.baseUrls.bedrock,
          access_key_id: mockAwsCredentials.accessKeyId,
          secret_access_key: mockAwsCredentials.secretAccessKey,
        },
        { fetch },
      );
      const events = await collect(model);
      expect(events[0]).toMatchObject({
        type: "response-start",
        response: { headers: { "content-type": "application/vnd.amazon.eventstream" } },
      });
      const raw = events.flatMap((event) => (event.type === "raw" ? [event] : []));
      expect(raw.map((event) => event.event)).toEqual([
        "messageStart",
        "contentBlockDelta",
        "contentBlockDelta",
        "contentBlockDelta",
        "contentBlockStop",
        "messageStop",
        "metadata",
      ]);
      expect(events.at(-1)).toMatchObject({ rawFinishReason: "end_turn", usage: { cachedInputTokens: 2 } });
      expect(local.requests[0]).toMatchObject({ path: "/model/m/converse-stream", stream: true });
    } finally {
      await local.close();
    }
  });

  it("a closed server is a connection error (ECONNREFUSED), not a hang", async () => {
    const local = await startMockLlmServer();
    const baseUrl = local.baseUrls.anthropic;
    await local.close();
    const model = createLanguageModel("anthropic", { model: "m", base_url: baseUrl }, { fetch });
    const error = await failure(model.generate(messages));
    expect(error.code).toBe("llm_connection_error");
    expect(error.message).toContain("ECONNREFUSED");
  });

  it("close() destroys open sockets, including a hanging request's, and leaves none", async () => {
    const local = await startMockLlmServer({ defaultAnswer: answer("ok") });
    const model = createLanguageModel("openai", { model: "m", base_url: local.baseUrls.openai }, { fetch });
    await model.generate(messages);
    local.script(hang());
    const pending = failure(model.generate(messages));
    await waitFor(() => local.requests.length === 2);
    expect(local.connectionCount()).toBeGreaterThan(0);
    await local.close();
    expect(local.connectionCount()).toBe(0);
    expect((await pending).code).toBe("llm_connection_error");
  });
});
