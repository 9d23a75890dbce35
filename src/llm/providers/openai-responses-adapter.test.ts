/**
 * The Responses API adapter on recorded-style answers and streams (shapes as OpenAI sends them), through the
 * real model (`createLanguageModel` over a replayed `fetch`) so error mapping and SSE decoding are included.
 */
import { describe, expect, it } from "vitest";
import { createReplayFetch, type ReplayResponse } from "../../testing/index.js";
import type { ChatMessage } from "../../util/index.js";
import { createLanguageModel } from "../create-language-model.js";
import type { LanguageModel, ModelStreamEvent } from "../language-model.js";
import { LlmError } from "../llm-error.js";
import { mapResponsesFinishReason } from "./openai-responses-adapter.js";

const messages: ChatMessage[] = [
  { role: "system", parts: [{ type: "text", text: "Extract the person." }] },
  { role: "user", parts: [{ type: "text", text: "Ada Lovelace, 36." }] },
  { role: "assistant", parts: [{ type: "text", text: "Which fields?" }] },
  { role: "user", parts: [{ type: "text", text: "Name and age." }] },
];

const usage = {
  input_tokens: 31,
  input_tokens_details: { cached_tokens: 8 },
  output_tokens: 12,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 43,
};

function response(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: "resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b",
    object: "response",
    created_at: 1741476542,
    status: "completed",
    error: null,
    incomplete_details: null,
    model: "gpt-4.1-2025-04-14",
    output: [
      {
        type: "reasoning",
        id: "rs_1",
        summary: [{ type: "summary_text", text: "Thinking about Ada." }],
      },
      {
        type: "message",
        id: "msg_1",
        status: "completed",
        role: "assistant",
        content: [
          { type: "output_text", text: '{"name": "Ada Lovelace", ', annotations: [] },
          { type: "output_text", text: '"age": 36}', annotations: [] },
        ],
      },
    ],
    usage,
    ...overrides,
  };
}

function event(type: string, fields: Record<string, unknown>, sequence: number): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence, ...fields })}\n\n`;
}

function transcript(terminal: string, terminalResponse: Record<string, unknown>, deltas: string[]): string {
  const frames = [
    event("response.created", { response: { ...terminalResponse, status: "in_progress", output: [] } }, 0),
    event(
      "response.in_progress",
      { response: { ...terminalResponse, status: "in_progress", output: [] } },
      1,
    ),
    event(
      "response.output_item.added",
      { output_index: 0, item: { type: "message", id: "msg_1", role: "assistant", content: [] } },
      2,
    ),
    ...deltas.map((delta, index) =>
      event(
        "response.output_text.delta",
        { item_id: "msg_1", output_index: 0, content_index: 0, delta },
        3 + index,
      ),
    ),
    event("response.output_text.done", { item_id: "msg_1", text: deltas.join("") }, 3 + deltas.length),
    event(terminal, { response: terminalResponse }, 4 + deltas.length),
  ];
  return frames.join("");
}

function model(answer: ReplayResponse | ((body: unknown) => ReplayResponse), options = {}) {
  const fetch = createReplayFetch((call) => (typeof answer === "function" ? answer(call.body) : answer));
  const created = createLanguageModel(
    "openai-responses",
    { model: "gpt-4.1", api_key: "sk-test-0123456789", ...options },
    { fetch },
  );
  return { model: created, fetch };
}

const json = (body: unknown): ReplayResponse => ({
  body: JSON.stringify(body),
  headers: { "content-type": "application/json" },
});
const sse = (body: string): ReplayResponse => ({ body, headers: { "content-type": "text/event-stream" } });

async function collect(languageModel: LanguageModel): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const streamed of languageModel.stream(messages)) events.push(streamed);
  return events;
}

async function failure(run: () => Promise<unknown>): Promise<LlmError> {
  try {
    await run();
  } catch (error) {
    if (LlmError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a failure");
}

const deltasOf = (events: ModelStreamEvent[]) =>
  events.flatMap((streamed) => (streamed.type === "text-delta" ? [streamed.text] : []));

describe("openai-responses requests", () => {
  it("posts input items to {base_url}/responses with bearer auth and the default key from env", async () => {
    const fetch = createReplayFetch(() => json(response()));
    const created = createLanguageModel(
      "openai-responses",
      { model: "gpt-4.1", temperature: 0 },
      { fetch, env: { OPENAI_API_KEY: "sk-env" } },
    );
    const request = await created.buildRequest(messages, { stream: false });
    expect(request.url).toBe("https://api.openai.com/v1/responses");
    expect(request.headers).toMatchObject({
      authorization: "Bearer sk-env",
      "content-type": "application/json",
    });
    expect(request.body).toEqual({
      model: "gpt-4.1",
      temperature: 0,
      input: [
        { role: "system", content: [{ type: "input_text", text: "Extract the person." }] },
        { role: "user", content: [{ type: "input_text", text: "Ada Lovelace, 36." }] },
        { role: "assistant", content: [{ type: "output_text", text: "Which fields?" }] },
        { role: "user", content: [{ type: "input_text", text: "Name and age." }] },
      ],
    });
  });

  it("lets the call decide streaming; stream_options only go with a stream", async () => {
    const { model: created } = model(json(response()), {
      stream: true,
      stream_options: { include_obfuscation: false },
    });
    const whole = await created.buildRequest(messages, { stream: false });
    // A written `stream` keeps its place in the body (as in BAML) with the call's value.
    expect(whole.body).toHaveProperty("stream", false);
    expect(whole.body).not.toHaveProperty("stream_options");
    const streamed = await created.buildRequest(messages, { stream: true });
    expect(streamed.body).toMatchObject({ stream: true, stream_options: { include_obfuscation: false } });
  });

  it.each([
    ["max_tokens", { max_tokens: 300 }],
    ["max_completion_tokens", { max_completion_tokens: 300 }],
    ["max_output_tokens", { max_output_tokens: 300 }],
  ])("sends %s as max_output_tokens", async (_name, limit) => {
    const request = await model(json(response()), limit).model.buildRequest(messages, { stream: false });
    expect(request.body).toMatchObject({ max_output_tokens: 300 });
    expect(request.body).not.toHaveProperty("max_tokens");
    expect(request.body).not.toHaveProperty("max_completion_tokens");
  });

  it("rejects two output limits, and a client_response_type it cannot read, naming the option", async () => {
    const twoLimits = await failure(async () => model(json({}), { max_tokens: 1, max_output_tokens: 2 }));
    expect(twoLimits).toMatchObject({ code: "llm_invalid_options", option: "max_tokens" });
    const responseType = await failure(async () => model(json({}), { client_response_type: "anthropic" }));
    expect(responseType).toMatchObject({ code: "llm_invalid_options", option: "client_response_type" });
    const request = await model(json({}), {
      client_response_type: "openai-responses",
      base_url: "http://gateway.test/v1/",
    }).model.buildRequest(messages, { stream: false });
    expect(request.url).toBe("http://gateway.test/v1/responses");
    expect(request.body).not.toHaveProperty("client_response_type");
  });

  it("sends images as input_image and PDFs as input_file; forwards allowed role metadata", async () => {
    const withMedia: ChatMessage[] = [
      {
        role: "user",
        parts: [
          { type: "text", text: "Describe:" },
          { type: "media", media: { kind: "media", type: "image", url: "https://example.test/cat.png" } },
          {
            type: "media",
            media: { kind: "media", type: "image", base64: "iVBORw0KGgo=", mediaType: "image/png" },
          },
          {
            type: "media",
            media: { kind: "media", type: "pdf", base64: "JVBERi0x", mediaType: "application/pdf" },
          },
        ],
        metadata: { cache_control: { type: "ephemeral" } },
      },
    ];
    const { model: created } = model(json(response()), { allowed_role_metadata: "all" });
    const request = await created.buildRequest(withMedia, { stream: false });
    expect(request.body.input).toEqual([
      {
        role: "user",
        // As BAML: the metadata goes on each part of the message it was given with.
        content: [
          { type: "input_text", text: "Describe:", cache_control: { type: "ephemeral" } },
          {
            type: "input_image",
            detail: "auto",
            image_url: "https://example.test/cat.png",
            cache_control: { type: "ephemeral" },
          },
          {
            type: "input_image",
            detail: "auto",
            image_url: "data:image/png;base64,iVBORw0KGgo=",
            cache_control: { type: "ephemeral" },
          },
          {
            type: "input_file",
            filename: "document.pdf",
            file_data: "data:application/pdf;base64,JVBERi0x",
            cache_control: { type: "ephemeral" },
          },
        ],
      },
    ]);
    const pdfByUrl = await model(json(response()), {
      media_url_handler: { pdf: "send_url" },
    }).model.buildRequest(
      [
        {
          role: "user",
          parts: [
            { type: "media", media: { kind: "media", type: "pdf", url: "https://example.test/a.pdf" } },
          ],
        },
      ],
      { stream: false },
    );
    expect(pdfByUrl.body.input).toEqual([
      { role: "user", content: [{ type: "input_file", file_url: "https://example.test/a.pdf" }] },
    ]);
  });

  it("refuses audio, video and media in assistant turns before sending anything", async () => {
    const { model: created, fetch } = model(json(response()));
    for (const [role, type] of [
      ["user", "audio"],
      ["user", "video"],
      ["assistant", "image"],
    ] as const) {
      const error = await failure(() =>
        created.generate([
          {
            role,
            parts: [{ type: "media", media: { kind: "media", type, base64: "AAAA", mediaType: "x/y" } }],
          },
        ]),
      );
      expect(error).toMatchObject({ code: "llm_invalid_options", option: "media" });
    }
    expect(fetch.calls).toHaveLength(0);
  });
});

describe("openai-responses whole answers", () => {
  it("reads the output_text parts of message items, skipping reasoning; status is the raw finish reason", async () => {
    const result = await model(json(response())).model.generate(messages);
    expect(result).toMatchObject({
      text: '{"name": "Ada Lovelace", "age": 36}',
      finishReason: "stop",
      rawFinishReason: "completed",
      usage: { inputTokens: 31, outputTokens: 12, cachedInputTokens: 8 },
      model: "gpt-4.1-2025-04-14",
    });
  });

  it.each([
    [{ status: "incomplete", incomplete_details: { reason: "max_output_tokens" } }, "length"],
    [{ status: "incomplete", incomplete_details: { reason: "content_filter" } }, "content-filter"],
    [{ status: "cancelled" }, "other"],
    [{ status: undefined }, "unknown"],
  ])("maps %j to %s", async (overrides, finishReason) => {
    const result = await model(json(response(overrides))).model.generate(messages);
    expect(result.finishReason).toBe(finishReason);
    expect(result.rawFinishReason).toBe(overrides.status);
  });

  it("reports a function call as tool-calls", () => {
    expect(mapResponsesFinishReason("completed", undefined, true)).toBe("tool-calls");
    expect(mapResponsesFinishReason("failed", undefined)).toBe("error");
  });

  it("reports a failed response as an HTTP error with the status of its error code", async () => {
    const failed = response({
      status: "failed",
      error: { code: "rate_limit_exceeded", message: "Slow down" },
      output: [],
    });
    const error = await failure(() => model(json(failed)).model.generate(messages));
    expect(error).toMatchObject({ code: "llm_http_error", status: 429 });
    expect(error.message).toContain("Slow down");
  });

  it.each([
    ["a chat completion", { choices: [{ message: { content: "hi" } }] }],
    ["an array", [1, 2]],
    ["output that is not a list", { object: "response", output: "hi" }],
  ])("rejects %s as malformed", async (_label, body) => {
    const error = await failure(() => model(json(body)).model.generate(messages));
    expect(error.code).toBe("llm_malformed_response");
    expect(error.message).toContain("output");
  });
});

describe("openai-responses streams", () => {
  it("yields output_text deltas, then usage, model and status from response.completed", async () => {
    const events = await collect(
      model(sse(transcript("response.completed", response(), ['{"name": ', '"Ada"', "}"]))).model,
    );
    expect(deltasOf(events)).toEqual(['{"name": ', '"Ada"', "}"]);
    expect(events.at(-1)).toEqual({
      type: "finish",
      finishReason: "stop",
      rawFinishReason: "completed",
      usage: { inputTokens: 31, outputTokens: 12, cachedInputTokens: 8, reasoningTokens: 0 },
      model: "gpt-4.1-2025-04-14",
    });
    expect(events.filter((streamed) => streamed.type === "raw")[0]).toMatchObject({
      event: "response.created",
    });
  });

  it("finishes with length on response.incomplete (max_output_tokens)", async () => {
    const cut = response({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" } });
    const events = await collect(model(sse(transcript("response.incomplete", cut, ['{"na']))).model);
    expect(deltasOf(events)).toEqual(['{"na']);
    expect(events.at(-1)).toMatchObject({ finishReason: "length", rawFinishReason: "incomplete" });
  });

  it("takes the text from the final response when the server sent no deltas", async () => {
    const events = await collect(model(sse(transcript("response.completed", response(), []))).model);
    expect(deltasOf(events)).toEqual(['{"name": "Ada Lovelace", "age": 36}']);
  });

  it("keeps the model from response.created when the stream ends without a terminal event", async () => {
    const partial = transcript("response.completed", response(), ["a", "b"]).split(
      "event: response.completed",
    )[0];
    const events = await collect(model(sse(partial ?? "")).model);
    expect(events.at(-1)).toMatchObject({
      finishReason: "unknown",
      rawFinishReason: undefined,
      model: "gpt-4.1-2025-04-14",
    });
  });

  it("turns an error event into an HTTP error with the code's status", async () => {
    const body =
      event("response.created", { response: response({ status: "in_progress", output: [] }) }, 0) +
      event("error", { code: "server_error", message: "The server had an error", param: null }, 1);
    const error = await failure(() => collect(model(sse(body)).model));
    expect(error).toMatchObject({ code: "llm_http_error", status: 500 });
    expect(error.message).toContain("The server had an error");
  });

  it("turns response.failed into an HTTP error after the text already delivered", async () => {
    const failed = response({ status: "failed", error: { code: "invalid_prompt", message: "Refused" } });
    const deltas: string[] = [];
    const error = await failure(async () => {
      for await (const streamed of model(sse(transcript("response.failed", failed, ["so far"]))).model.stream(
        messages,
      ))
        if (streamed.type === "text-delta") deltas.push(streamed.text);
    });
    expect(deltas).toEqual(["so far"]);
    expect(error).toMatchObject({ code: "llm_http_error", status: 400 });
  });

  it.each([
    ["data that is not JSON", "data: {oops\n\n"],
    ["an event without a type", 'data: {"delta": "x"}\n\n'],
    ["a delta that is not a string", 'data: {"type": "response.output_text.delta", "delta": 4}\n\n'],
    ["a terminal event without its response", 'data: {"type": "response.completed"}\n\n'],
  ])("rejects %s as malformed", async (_label, body) => {
    const error = await failure(() => collect(model(sse(body)).model));
    expect(error.code).toBe("llm_malformed_response");
  });
});
