/**
 * The aws-bedrock provider through `createLanguageModel` with a fake fetch: the Converse URL and body it
 * builds, the SigV4 signature (recomputed from what was sent), where credentials and region come from,
 * whole answers and event-stream answers, and its option errors. The mock-server round trip through the
 * runtime is in `src/runtime/aws-bedrock-provider.test.ts`.
 */
import { describe, expect, it } from "vitest";
import { createLanguageModel as createAnyLanguageModel } from "../llm/create-language-model.js";
import type { ModelStreamEvent } from "../llm/index.js";
import { LlmError } from "../llm/index.js";
import { LlmOptionsError } from "../provider-helpers/index.js";
import type { ChatMessage } from "../util/index.js";
import { encodeAwsEventStreamMessage } from "./aws-event-stream.js";
import { signAwsRequest } from "./aws-sigv4.js";
import { awsBedrock } from "./index.js";

/** `createLanguageModel` given this room's adapter, as the runtime gives it. */
const createLanguageModel: typeof createAnyLanguageModel = (provider, options, dependencies) =>
  createAnyLanguageModel(provider, options, { ...dependencies, providers: [awsBedrock] });

const accessKeyId = "AKIDEXAMPLE";
const secretAccessKey = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
const keys = { access_key_id: accessKeyId, secret_access_key: secretAccessKey };
const model = "anthropic.claude-3-5-haiku-20241022-v1:0";
const messages: ChatMessage[] = [
  { role: "system", parts: [{ type: "text", text: "Be brief." }] },
  { role: "user", parts: [{ type: "text", text: "hi" }] },
];

interface SentRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

const converseAnswer = {
  output: { message: { role: "assistant", content: [{ text: "Hello" }, { text: " there" }] } },
  stopReason: "end_turn",
  usage: { inputTokens: 12, outputTokens: 3, totalTokens: 15, cacheReadInputTokens: 4 },
  metrics: { latencyMs: 120 },
};

/** A fetch that records requests and answers with JSON, or with event-stream frames. */
function bedrockFetch(
  answer: { json?: unknown; frames?: Uint8Array[]; status?: number } = { json: converseAnswer },
) {
  const sent: SentRequest[] = [];
  const fetchFunction: typeof fetch = async (input, init) => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => {
      headers[name] = value;
    });
    sent.push({ url: String(input), headers, body: String(init?.body) });
    if (answer.frames === undefined) {
      return new Response(JSON.stringify(answer.json), {
        status: answer.status ?? 200,
        headers: { "content-type": "application/json" },
      });
    }
    const frames = answer.frames;
    return new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const frame of frames) controller.enqueue(frame);
          controller.close();
        },
      }),
      { headers: { "content-type": "application/vnd.amazon.eventstream" } },
    );
  };
  return { fetch: fetchFunction, sent };
}

function event(type: string, payload: unknown): Uint8Array {
  return encodeAwsEventStreamMessage(
    { ":event-type": type, ":content-type": "application/json", ":message-type": "event" },
    JSON.stringify(payload),
  );
}

function optionsError(run: () => unknown): LlmOptionsError {
  try {
    run();
  } catch (error) {
    if (LlmOptionsError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected an options error");
}

/** Recomputes the signature of a sent request from its own date and the known keys. */
async function expectValidSignature(request: SentRequest, region: string, sessionToken?: string) {
  const amzDate = request.headers["x-amz-date"] ?? "";
  const now = new Date(
    `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`,
  );
  const { authorization, host: _host, "content-length": _length, ...signedHeaders } = request.headers;
  const expected = await signAwsRequest(
    { method: "POST", url: request.url, headers: signedHeaders, body: request.body },
    {
      credentials: { accessKeyId, secretAccessKey, ...(sessionToken === undefined ? {} : { sessionToken }) },
      region,
      service: "bedrock",
      now,
    },
  );
  expect(authorization).toBe(expected.headers.authorization);
}

describe("aws-bedrock requests", () => {
  it("posts a signed Converse request to the regional endpoint, the model id encoded in the path", async () => {
    const { fetch, sent } = bedrockFetch();
    const result = await createLanguageModel(
      "aws-bedrock",
      {
        model,
        region: "eu-west-3",
        ...keys,
        inference_configuration: { max_tokens: 100, temperature: 0.2, top_p: 0.9, stop_sequences: ["END"] },
        additional_model_request_fields: { top_k: 40 },
        guardrailConfig: { guardrailIdentifier: "g1", guardrailVersion: "1" },
      },
      { fetch },
    ).generate(messages);
    expect(result).toMatchObject({
      text: "Hello there",
      rawFinishReason: "end_turn",
      finishReason: "stop",
      // Bedrock counts cache reads apart; Sapling's input total includes them (12 + 4).
      usage: { inputTokens: 16, outputTokens: 3, cachedInputTokens: 4 },
      model,
    });
    const request = sent[0] as SentRequest;
    expect(request.url).toBe(
      "https://bedrock-runtime.eu-west-3.amazonaws.com/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/converse",
    );
    expect(JSON.parse(request.body)).toEqual({
      guardrailConfig: { guardrailIdentifier: "g1", guardrailVersion: "1" },
      messages: [{ role: "user", content: [{ text: "hi" }] }],
      system: [{ text: "Be brief." }],
      inferenceConfig: { maxTokens: 100, temperature: 0.2, topP: 0.9, stopSequences: ["END"] },
      additionalModelRequestFields: { top_k: 40 },
    });
    expect(request.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-3\/bedrock\/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
    await expectValidSignature(request, "eu-west-3");
    expect(JSON.stringify(request)).not.toContain(secretAccessKey);
  });

  it("reads keys, session token and region from the environment, and honours endpoint_url", async () => {
    const { fetch, sent } = bedrockFetch();
    const env = {
      AWS_ACCESS_KEY_ID: accessKeyId,
      AWS_SECRET_ACCESS_KEY: secretAccessKey,
      AWS_SESSION_TOKEN: "IQoJb3JpZ2luX2VjEXAMPLE",
      AWS_DEFAULT_REGION: "ap-south-1",
    };
    await createLanguageModel(
      "aws-bedrock",
      { model_id: "amazon.nova-lite-v1:0", endpoint_url: "http://127.0.0.1:9/" },
      { fetch, env },
    ).generate(messages);
    const request = sent[0] as SentRequest;
    expect(request.url).toBe("http://127.0.0.1:9/model/amazon.nova-lite-v1%3A0/converse");
    expect(request.headers["x-amz-security-token"]).toBe("IQoJb3JpZ2luX2VjEXAMPLE");
    expect(request.headers.authorization).toContain("/ap-south-1/bedrock/aws4_request");
    expect(request.headers.authorization).toContain(
      "SignedHeaders=content-type;host;x-amz-date;x-amz-security-token,",
    );
    await expectValidSignature(request, "ap-south-1", "IQoJb3JpZ2luX2VjEXAMPLE");
    // AWS_REGION wins over AWS_DEFAULT_REGION, and the region option over both.
    const regions = { ...env, AWS_REGION: "us-west-2" };
    await createLanguageModel("aws-bedrock", { model }, { fetch, env: regions }).generate(messages);
    expect(sent[1]?.url).toContain("bedrock-runtime.us-west-2.amazonaws.com");
    await createLanguageModel(
      "aws-bedrock",
      { model, region: "ca-central-1" },
      { fetch, env: regions },
    ).generate(messages);
    expect(sent[2]?.url).toContain("bedrock-runtime.ca-central-1.amazonaws.com");
  });

  it("keys in the options win over the environment, and never borrow its session token", async () => {
    const { fetch, sent } = bedrockFetch();
    const env = {
      AWS_ACCESS_KEY_ID: "AKIAENVIRONMENT",
      AWS_SECRET_ACCESS_KEY: "x".repeat(40),
      AWS_SESSION_TOKEN: "tok-env",
    };
    await createLanguageModel(
      "aws-bedrock",
      { model, region: "us-east-1", ...keys },
      { fetch, env },
    ).generate(messages);
    expect(sent[0]?.headers.authorization).toContain("Credential=AKIDEXAMPLE/");
    expect(sent[0]?.headers).not.toHaveProperty("x-amz-security-token");
  });

  it("shows the signed request in buildRequest (b.request), streaming at /converse-stream", async () => {
    const { fetch } = bedrockFetch();
    const request = await createLanguageModel(
      "aws-bedrock",
      { model, region: "us-east-1", ...keys },
      { fetch },
    ).buildRequest(messages, { stream: true });
    expect(request.url).toMatch(/\/model\/anthropic\.claude-3-5-haiku-20241022-v1%3A0\/converse-stream$/);
    expect(request.headers).toMatchObject({
      "content-type": "application/json",
      "x-amz-date": expect.any(String),
    });
    expect(request.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\//);
    expect(request.body).not.toHaveProperty("stream");
  });

  it("sends an api_key (a Bedrock API key) as a bearer token, unsigned and needing no AWS keys", async () => {
    const { fetch, sent } = bedrockFetch();
    await createLanguageModel(
      "aws-bedrock",
      { model, region: "us-east-1", api_key: "ABSKexample" },
      { fetch },
    ).generate(messages);
    expect(sent[0]?.headers.authorization).toBe("Bearer ABSKexample");
    expect(sent[0]?.headers).not.toHaveProperty("x-amz-date");
  });

  it("sends a request with your own authorization header as it is, unsigned", async () => {
    const { fetch, sent } = bedrockFetch();
    await createLanguageModel(
      "aws-bedrock",
      { model, region: "us-east-1", headers: { Authorization: "Bearer from-a-proxy" } },
      { fetch },
    ).generate(messages);
    expect(sent[0]?.headers.authorization).toBe("Bearer from-a-proxy");
    expect(sent[0]?.headers).not.toHaveProperty("x-amz-date");
  });

  it("signs headers you add, so a proxy cannot change them unnoticed", async () => {
    const { fetch, sent } = bedrockFetch();
    await createLanguageModel(
      "aws-bedrock",
      { model, region: "us-east-1", ...keys, headers: { "X-Amzn-Bedrock-Trace": "ENABLED" } },
      { fetch },
    ).generate(messages);
    expect(sent[0]?.headers.authorization).toContain(
      "SignedHeaders=content-type;host;x-amz-date;x-amzn-bedrock-trace,",
    );
    await expectValidSignature(sent[0] as SentRequest, "us-east-1");
  });

  it("sends images as bytes with their format, PDFs as named documents; audio is refused", async () => {
    const { fetch, sent } = bedrockFetch();
    const withMedia: ChatMessage[] = [
      {
        role: "user",
        parts: [
          { type: "text", text: "Who is this?" },
          {
            type: "media",
            media: { kind: "media", type: "image", base64: "iVBORw0KGgo=", mediaType: "image/png" },
          },
          { type: "text", text: "\n  " },
          {
            type: "media",
            media: { kind: "media", type: "pdf", base64: "JVBERi0=", mediaType: "application/pdf" },
          },
        ],
      },
    ];
    const bedrock = createLanguageModel("aws-bedrock", { model, region: "us-east-1", ...keys }, { fetch });
    await bedrock.generate(withMedia);
    expect(JSON.parse(sent[0]?.body ?? "").messages).toEqual([
      {
        role: "user",
        content: [
          { text: "Who is this?" },
          { image: { format: "png", source: { bytes: "iVBORw0KGgo=" } } },
          { document: { format: "pdf", name: "document 1", source: { bytes: "JVBERi0=" } } },
        ],
      },
    ]);
    const audio: ChatMessage[] = [
      {
        role: "user",
        parts: [
          { type: "media", media: { kind: "media", type: "audio", base64: "AAAA", mediaType: "audio/mp3" } },
        ],
      },
    ];
    expect(await bedrock.generate(audio).catch((error: unknown) => error)).toMatchObject({
      code: "llm_invalid_options",
      message: "aws-bedrock client option `media`: Bedrock Converse does not accept audio input.",
    });
  });
});

describe("aws-bedrock conversation shape", () => {
  it("joins consecutive messages of one role, as Converse wants the roles to alternate", async () => {
    const { fetch, sent } = bedrockFetch();
    const bedrock = createLanguageModel("aws-bedrock", { model, region: "us-east-1", ...keys }, { fetch });
    const text = (role: ChatMessage["role"], value: string): ChatMessage => ({
      role,
      parts: [{ type: "text", text: value }],
    });
    await bedrock.generate([
      text("system", "Be brief."),
      text("user", "Context: a resume."),
      text("user", "Question: who is it?"),
      text("assistant", "Ada."),
      text("assistant", "Ada Lovelace."),
      text("user", "Thanks."),
    ]);
    const body = JSON.parse(sent[0]?.body ?? "");
    expect(body.system).toEqual([{ text: "Be brief." }]);
    expect(body.messages).toEqual([
      { role: "user", content: [{ text: "Context: a resume." }, { text: "Question: who is it?" }] },
      { role: "assistant", content: [{ text: "Ada." }, { text: "Ada Lovelace." }] },
      { role: "user", content: [{ text: "Thanks." }] },
    ]);
  });
});

describe("aws-bedrock answers", () => {
  it("maps stopReason to finish reasons (max_tokens → length)", async () => {
    for (const [raw, finishReason] of [
      ["max_tokens", "length"],
      ["stop_sequence", "stop"],
      ["guardrail_intervened", "content-filter"],
      ["content_filtered", "content-filter"],
      ["tool_use", "tool-calls"],
    ]) {
      const { fetch } = bedrockFetch({ json: { ...converseAnswer, stopReason: raw } });
      const result = await createLanguageModel(
        "aws-bedrock",
        { model, region: "us-east-1", ...keys },
        { fetch },
      ).generate(messages);
      expect(result, raw).toMatchObject({ rawFinishReason: raw, finishReason });
    }
  });

  it("streams ConverseStream events: text deltas, then stop reason and usage", async () => {
    const { fetch, sent } = bedrockFetch({
      frames: [
        event("messageStart", { role: "assistant", p: "abcd" }),
        event("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "Hel" }, p: "ab" }),
        event("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "lo" } }),
        event("contentBlockStop", { contentBlockIndex: 0 }),
        event("messageStop", { stopReason: "max_tokens" }),
        event("metadata", {
          usage: { inputTokens: 9, outputTokens: 2, totalTokens: 11 },
          metrics: { latencyMs: 80 },
        }),
      ],
    });
    const events: ModelStreamEvent[] = [];
    for await (const streamed of createLanguageModel(
      "aws-bedrock",
      { model, region: "us-east-1", ...keys },
      { fetch },
    ).stream(messages))
      events.push(streamed);
    expect(sent[0]?.url).toMatch(/\/converse-stream$/);
    expect(events.flatMap((streamed) => (streamed.type === "text-delta" ? [streamed.text] : []))).toEqual([
      "Hel",
      "lo",
    ]);
    expect(events.filter((streamed) => streamed.type === "raw").map((streamed) => streamed.event)).toEqual([
      "messageStart",
      "contentBlockDelta",
      "contentBlockDelta",
      "contentBlockStop",
      "messageStop",
      "metadata",
    ]);
    expect(events.at(-1)).toEqual({
      type: "finish",
      finishReason: "length",
      rawFinishReason: "max_tokens",
      usage: { inputTokens: 9, outputTokens: 2 },
      model,
    });
  });

  it("an exception in the stream is an HTTP error with Bedrock's status for it", async () => {
    const throttled = encodeAwsEventStreamMessage(
      {
        ":exception-type": "throttlingException",
        ":content-type": "application/json",
        ":message-type": "exception",
      },
      JSON.stringify({ message: "Too many tokens, please wait before trying again." }),
    );
    const { fetch } = bedrockFetch({
      frames: [event("contentBlockDelta", { delta: { text: "a" } }), throttled],
    });
    let failure: unknown;
    try {
      for await (const _ of createLanguageModel(
        "aws-bedrock",
        { model, region: "us-east-1", ...keys },
        { fetch },
      ).stream(messages)) {
        // drain
      }
    } catch (error) {
      failure = error;
    }
    expect(LlmError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ code: "llm_http_error", status: 429 });
    expect((failure as { body: string }).body).toBe(
      '{"type":"throttlingException","message":"Too many tokens, please wait before trying again."}',
    );
  });

  it("an answer without output.message is a malformed response", async () => {
    const { fetch } = bedrockFetch({ json: { stopReason: "end_turn" } });
    const error = await createLanguageModel("aws-bedrock", { model, region: "us-east-1", ...keys }, { fetch })
      .generate(messages)
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "llm_malformed_response" });
  });
});

describe("aws-bedrock option errors", () => {
  const { fetch } = bedrockFetch();
  const create =
    (options: Record<string, unknown>, env: Record<string, string> = {}) =>
    () =>
      createLanguageModel("aws-bedrock", options, { fetch, env });

  it.each([
    ["no model", { region: "us-east-1", ...keys }, {}, "model", "is required for aws-bedrock"],
    [
      "model and model_id differ",
      { model, model_id: "other", region: "us-east-1", ...keys },
      {},
      "model_id",
      "keep only one",
    ],
    [
      "no region",
      { model, ...keys },
      {},
      "region",
      "or the AWS_REGION (or AWS_DEFAULT_REGION) environment variable",
    ],
    [
      "no credentials",
      { model, region: "us-east-1" },
      {},
      "access_key_id",
      "set the AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY",
    ],
    [
      "half the environment's keys",
      { model, region: "us-east-1" },
      { AWS_ACCESS_KEY_ID: accessKeyId },
      "access_key_id",
      "AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not",
    ],
    [
      "a key id without its secret",
      { model, region: "us-east-1", access_key_id: accessKeyId },
      {},
      "secret_access_key",
      "is required with access_key_id",
    ],
    [
      "a profile",
      { model, region: "us-east-1", profile: "dev" },
      {},
      "profile",
      "this host cannot read files (AWS profiles in ~/.aws work on Node",
    ],
    [
      "an unknown inference key",
      { model, region: "us-east-1", ...keys, inference_configuration: { maxTokens: 5 } },
      {},
      "inference_configuration.maxTokens",
      "unknown key; use max_tokens, temperature, top_p, stop_sequences",
    ],
    [
      "a fractional max_tokens",
      { model, region: "us-east-1", ...keys, inference_configuration: { max_tokens: 10.5 } },
      {},
      "inference_configuration.max_tokens",
      "expected a positive whole number, got 10.5",
    ],
    [
      "a non-number temperature",
      { model, region: "us-east-1", ...keys, inference_configuration: { temperature: "hot" } },
      {},
      "inference_configuration.temperature",
      'expected a number, got "hot"',
    ],
  ])("%s", (_name, options, env, option, detail) => {
    const error = optionsError(create(options, env));
    expect(error.option).toBe(option);
    expect(error.message).toContain(detail);
    expect(error.message).not.toContain(secretAccessKey);
  });
});
