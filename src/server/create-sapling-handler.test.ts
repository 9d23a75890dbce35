/**
 * The handler through the real rooms: a compiled project, the runtime, and the mock LLM server over HTTP;
 * requests are web-standard `Request`s handed straight to the handler (the node:http adapter has its own
 * tests in the CLI room).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { evaluateConstraint } from "../constraints/index.js";
import type { Ir } from "../ir/index.js";
import { compile } from "../language/index.js";
import { SaplingRuntime } from "../runtime/index.js";
import { readStream, StreamEventError } from "../stream-client/index.js";
import {
  answer,
  hang,
  type MockLlmServer,
  resetMidStream,
  serverError,
  startMockLlmServer,
} from "../testing/index.js";
import { createSaplingHandler, type SaplingHandler } from "./index.js";

const source = `
enum Level {
  LOW
  HIGH
}

class Person {
  name string @description("full name")
  age int @check(adult, {{ this >= 18 }})
  level Level
  nickname string?
}

client<llm> Mock {
  provider openai-generic
  options {
    base_url env.MOCK_URL
    model "mock-model"
  }
}

client<llm> Impatient {
  provider openai-generic
  options {
    base_url env.MOCK_URL
    model "impatient-model"
    http {
      request_timeout_ms 150
    }
  }
}

/// Pulls one person out of free text.
function ExtractPerson(text: string, hint: string?) -> Person {
  client Mock
  prompt #"
    Extract: {{ text }} {{ hint }}
    {{ ctx.output_format }}
  "#
}

function Describe(photo: image) -> string {
  client Mock
  prompt #"
    {{ _.role("user") }} Describe {{ photo }}
  "#
}

function Slow(text: string) -> string {
  client Impatient
  prompt #"{{ text }}"#
}
`;

const ADA = '{"name": "Ada Lovelace", "age": 36, "level": "high", "nickname": null}';
const ADA_VALUE = {
  name: "Ada Lovelace",
  age: { value: 36, checks: { adult: { name: "adult", expr: "this >= 18", status: "succeeded" } } },
  level: "HIGH",
  nickname: null,
};

let server: MockLlmServer;
let ir: Ir;
let handler: SaplingHandler;

beforeAll(async () => {
  server = await startMockLlmServer();
  const compiled = compile({ "main.baml": source });
  if (!compiled.ir) throw new Error(JSON.stringify(compiled.diagnostics));
  ir = compiled.ir;
  handler = createSaplingHandler({
    runtime: SaplingRuntime.fromIr(ir, {
      env: { MOCK_URL: server.baseUrls.openai },
      constraintEvaluator: evaluateConstraint,
    }),
    ir,
    maxBodyBytes: 2048,
  });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

function post(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Request {
  return new Request(`http://sapling.test${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

/** Resolves once `condition` holds, checking on each turn of the event loop (no wall-clock wait). */
async function waitFor(condition: () => boolean): Promise<void> {
  for (let turn = 0; !condition(); turn++) {
    if (turn > 10_000) throw new Error("waitFor: the condition never held");
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function errorOf(response: Response): Promise<Record<string, unknown>> {
  const body = (await response.json()) as { error: Record<string, unknown> };
  expect(body.error.status).toBe(response.status);
  return body.error;
}

/** Reads a server-sent-events body into `{ event, data }` records. */
async function readEvents(response: Response): Promise<{ event: string; data: unknown }[]> {
  const text = await response.text();
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? "";
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? "null";
      return { event, data: JSON.parse(data) as unknown };
    });
}

describe("POST /call/{Function}", () => {
  it("answers the parsed value, checks included, and renders the arguments into the prompt", async () => {
    server.script(answer(`Here you go:\n\`\`\`json\n${ADA}\n\`\`\``));
    const response = await handler(post("/call/ExtractPerson", { text: "Ada, 36", hint: "mathematician" }));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(await response.json()).toEqual(ADA_VALUE);
    expect(JSON.stringify(server.requests[0]?.body.messages)).toContain("Extract: Ada, 36 mathematician");
  });

  it("turns a JSON media argument into an image part of the request", async () => {
    server.script(answer("A cat on a mat."));
    const response = await handler(post("/call/Describe", { photo: { url: "https://img.test/cat.png" } }));
    expect(await response.json()).toBe("A cat on a mat.");
    expect(JSON.stringify(server.requests[0]?.body.messages)).toContain("https://img.test/cat.png");
  });

  it.each([
    ["not JSON", "{oops", "BAD_REQUEST", "not valid JSON"],
    ["an array", "[1, 2]", "BAD_REQUEST", "must be a JSON object"],
    ["a wrong argument type", { text: 42 }, "INVALID_ARGUMENT", "text"],
    ["an unknown parameter", { text: "x", colour: "red" }, "INVALID_ARGUMENT", "colour"],
    ["a missing argument", {}, "INVALID_ARGUMENT", "text"],
  ])("refuses %s with 400 before calling the model", async (_label, body, code, fragment) => {
    const response = await handler(post("/call/ExtractPerson", body));
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe(code);
    expect(error.message).toContain(fragment);
    expect(server.requests).toHaveLength(0);
  });

  it("refuses base64 media without its MIME type with 400", async () => {
    const response = await handler(post("/call/Describe", { photo: { base64: "aGVsbG8=" } }));
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toContain("media_type");
  });

  it("answers 422 with the raw output when the model's text holds no value of the type", async () => {
    server.script(answer("I cannot help with that."));
    const response = await handler(post("/call/ExtractPerson", { text: "?" }));
    expect(response.status).toBe(422);
    const error = await errorOf(response);
    expect(error.code).toBe("VALIDATION");
    expect(error.raw_output).toBe("I cannot help with that.");
  });

  it("answers 502 with the provider's status when the provider fails", async () => {
    server.script(serverError(503, "overloaded"));
    const response = await handler(post("/call/ExtractPerson", { text: "x" }));
    expect(response.status).toBe(502);
    const error = await errorOf(response);
    expect(error.upstream_status).toBe(503);
    expect(error.message).toContain("overloaded");
  });

  it("answers 504 when the client's http timeout passes", async () => {
    server.script(hang());
    const response = await handler(post("/call/Slow", { text: "x" }));
    expect(response.status).toBe(504);
    expect((await errorOf(response)).code).toBe("TIMEOUT");
  });

  it("answers 504 when the server's own deadline passes", async () => {
    const bounded = createSaplingHandler({
      runtime: SaplingRuntime.fromIr(ir, {
        env: { MOCK_URL: server.baseUrls.openai },
        constraintEvaluator: evaluateConstraint,
      }),
      requestTimeoutMs: 100,
    });
    // The answer would come after an hour: only the handler's deadline can end this request.
    server.script(answer(ADA, { headersDelayMs: 60 * 60_000 }));
    const response = await bounded(post("/call/ExtractPerson", { text: "x" }));
    expect(response.status).toBe(504);
    expect((await errorOf(response)).message).toContain("100 ms");
  });
});

describe("POST /stream/{Function}", () => {
  it("sends partial values as server-sent events, then the final value", async () => {
    server.script(answer(ADA, { chunkSize: 5 }));
    const response = await handler(post("/stream/ExtractPerson", { text: "Ada" }));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const events = await readEvents(response);
    const partials = events.filter((item) => item.event === "partial");
    expect(partials.length).toBeGreaterThan(2);
    // Strings show the text written so far: some partial holds a proper prefix of the name.
    const names = partials.map((item) => (item.data as { name: string | null }).name);
    expect(
      names.some((name) => name !== null && name !== "Ada Lovelace" && "Ada Lovelace".startsWith(name)),
    ).toBe(true);
    expect(events.at(-1)).toEqual({ event: "final", data: ADA_VALUE });
  });

  it("ends with an error event carrying the status /call would have answered", async () => {
    server.script(resetMidStream(ADA, 2, { chunkSize: 5 }));
    const response = await handler(post("/stream/ExtractPerson", { text: "Ada" }));
    expect(response.status).toBe(200);
    const events = await readEvents(response);
    const last = events.at(-1) as { event: string; data: { error: { status: number } } };
    expect(last.event).toBe("error");
    expect(last.data.error.status).toBe(502);
    expect(events.filter((item) => item.event === "final")).toHaveLength(0);
  });

  it("sends keep-alive comments while the model is silent, and loses no partial to them", async () => {
    const patient = createSaplingHandler({
      runtime: SaplingRuntime.fromIr(ir, {
        env: { MOCK_URL: server.baseUrls.openai },
        constraintEvaluator: evaluateConstraint,
      }),
      streamHeartbeatMs: 30,
    });
    server.script(answer(ADA, { firstTokenDelayMs: 200, chunkSize: 5, chunkDelayMs: 5 }));
    const text = await (await patient(post("/stream/ExtractPerson", { text: "Ada" }))).text();
    const beforeFirstPartial = text.slice(0, text.indexOf("event: partial"));
    expect(beforeFirstPartial.match(/^: keep-alive$/gm)?.length).toBeGreaterThanOrEqual(2);
    expect(text.trimEnd()).toMatch(/event: final\n(x-sapling-[a-z-]+: .*\n)+data: .*$/);
    expect(text.trimEnd().endsWith(`\ndata: ${JSON.stringify(ADA_VALUE)}`)).toBe(true);
  });

  it("reports the server's deadline as a 504 error event", async () => {
    const bounded = createSaplingHandler({
      runtime: SaplingRuntime.fromIr(ir, {
        env: { MOCK_URL: server.baseUrls.openai },
        constraintEvaluator: evaluateConstraint,
      }),
      requestTimeoutMs: 100,
    });
    server.script(answer(ADA, { firstTokenDelayMs: 2000 }));
    const events = await readEvents(await bounded(post("/stream/ExtractPerson", { text: "Ada" })));
    expect(events.at(-1)).toMatchObject({
      event: "error",
      data: { error: { status: 504, code: "TIMEOUT" } },
    });
  });

  it("sends only what changed in the delta format, which readStream rebuilds as the default one", async () => {
    const delta = { accept: "application/vnd.sapling-delta+json" };
    server.script(answer(ADA, { chunkSize: 3 }), answer(ADA, { chunkSize: 3 }));
    const events = await readEvents(await handler(post("/stream/ExtractPerson", { text: "Ada" }, delta)));
    const deltas = events.filter((item) => item.event === "");
    expect(deltas.length).toBeGreaterThan(2);
    expect(events.filter((item) => item.event === "partial")).toHaveLength(0);
    // The name grows by appends, each sending only the new text.
    // Text appended to the string written last travels bare; other appends name their path.
    const appended = deltas
      .flatMap((item) => item.data as unknown[])
      .map((operation) => (typeof operation === "string" ? ["+", null, operation] : (operation as unknown[])))
      .filter((operation) => operation[0] === "+");
    expect(appended.length).toBeGreaterThan(0);
    // Appends carry only new text: all of them together are at most the name once.
    const appendedText = appended.map((operation) => operation[2] as string).join("");
    expect(appendedText.length).toBeLessThanOrEqual("Ada Lovelace".length);
    expect(events.at(-1)?.event).toBe("final");
    const stream = readStream(await handler(post("/stream/ExtractPerson", { text: "Ada" }, delta)));
    const partials: unknown[] = [];
    for await (const partial of stream) partials.push(partial);
    expect(partials.length).toBeGreaterThan(0);
    expect(partials.at(-1)).toMatchObject({ name: "Ada Lovelace" });
    expect(await stream.getFinalResponse()).toEqual(ADA_VALUE);
  });

  it("rebuilds the default format too, with the envelope's facts on the final event in both", async () => {
    const both = { accept: "application/vnd.sapling+json, application/vnd.sapling-delta+json" };
    server.script(answer(ADA, { chunkSize: 7 }), answer(ADA, { chunkSize: 7 }));
    const whole = readStream(await handler(post("/stream/ExtractPerson", { text: "Ada" })));
    for await (const partial of whole) expect(partial).toHaveProperty("name");
    expect(await whole.getFinalResponse()).toEqual(ADA_VALUE);
    const enveloped = readStream<unknown, Record<string, unknown>>(
      await handler(post("/stream/ExtractPerson", { text: "Ada" }, both)),
    );
    const final = await enveloped.getFinalResponse();
    expect(final.value).toEqual(ADA_VALUE);
    expect(final).toMatchObject({ finish_reason: "stop", truncated: false, client: "Mock" });
  });

  it("throws the error event from readStream, with its code and status", async () => {
    server.script(resetMidStream(ADA, 2, { chunkSize: 5 }));
    const response = await handler(
      post("/stream/ExtractPerson", { text: "Ada" }, { accept: "application/vnd.sapling-delta+json" }),
    );
    const error = await (async () => {
      for await (const _ of readStream(response)) void _;
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StreamEventError);
    expect((error as StreamEventError).status).toBe(502);
    expect((error as StreamEventError).code).toBeTypeOf("string");
    const refused = readStream(await handler(post("/stream/ExtractPerson", { text: 1 })));
    await expect(refused.getFinalResponse()).rejects.toMatchObject({ status: 400 });
  });

  it("refuses bad arguments with a 400 status, not an event", async () => {
    const response = await handler(post("/stream/ExtractPerson", { text: 1 }));
    expect(response.status).toBe(400);
    expect(server.requests).toHaveLength(0);
  });
});

describe("POST /parse/{Function}", () => {
  it("parses raw text (text/plain or JSON) without calling a model", async () => {
    const plain = await handler(
      post("/parse/ExtractPerson", `noise ${ADA} noise`, { "content-type": "text/plain" }),
    );
    expect(await plain.json()).toEqual(ADA_VALUE);
    const json = await handler(post("/parse/ExtractPerson", { text: ADA }));
    expect(await json.json()).toEqual(ADA_VALUE);
    expect(server.requests).toHaveLength(0);
  });

  it("parses a partial answer into the partial type when asked", async () => {
    const response = await handler(
      post("/parse/ExtractPerson", { text: '{"name": "Ada Lov', partial: true }),
    );
    expect(await response.json()).toMatchObject({ name: "Ada Lov", age: null });
  });

  it("answers 422 with the raw output for text without a value, 400 without text", async () => {
    const failed = await handler(post("/parse/ExtractPerson", { text: "no person here" }));
    expect(failed.status).toBe(422);
    expect((await errorOf(failed)).raw_output).toBe("no person here");
    const missing = await handler(post("/parse/ExtractPerson", { raw: "x" }));
    expect(missing.status).toBe(400);
  });
});

describe("routing and limits", () => {
  it("answers 404 for an unknown function and an unknown route, 405 for a wrong method", async () => {
    const unknown = await handler(post("/call/Nope", {}));
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).message).toContain("ExtractPerson");
    expect((await handler(new Request("http://sapling.test/elsewhere"))).status).toBe(404);
    expect((await handler(post("/call/%E0%A4%A", {}))).status).toBe(404);
    const wrongMethod = await handler(new Request("http://sapling.test/call/ExtractPerson"));
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("POST");
  });

  it("answers 413 for a body over the limit, by content-length and while reading a chunked body", async () => {
    const declared = await handler(post("/call/ExtractPerson", { text: "x".repeat(5000) }));
    expect(declared.status).toBe(413);
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let count = 0; count < 10; count++)
          controller.enqueue(new TextEncoder().encode("x".repeat(400)));
        controller.close();
      },
    });
    const chunked = new Request("http://sapling.test/call/ExtractPerson", {
      method: "POST",
      body: chunks,
      duplex: "half",
    } as RequestInit);
    expect(chunked.headers.get("content-length")).toBeNull();
    const response = await handler(chunked);
    expect(response.status).toBe(413);
    expect((await errorOf(response)).code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("answers 503 with retry-after beyond maxConcurrentRequests, and admits again when a slot frees", async () => {
    const limited = createSaplingHandler({
      runtime: SaplingRuntime.fromIr(ir, {
        env: { MOCK_URL: server.baseUrls.openai },
        constraintEvaluator: evaluateConstraint,
      }),
      maxConcurrentRequests: 2,
    });
    // Two requests the model keeps waiting (an hour): a call, and a stream whose headers are out.
    server.script(answer(ADA, { headersDelayMs: 60 * 60_000 }), answer(ADA, { headersDelayMs: 60 * 60_000 }));
    const callGone = new AbortController();
    const pendingCall = limited(post("/call/ExtractPerson", { text: "a" }, {}, callGone.signal));
    const stream = await limited(post("/stream/ExtractPerson", { text: "b" }));
    await waitFor(() => server.requests.length === 2);

    const refused = await limited(post("/call/ExtractPerson", { text: "c" }));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    const error = await errorOf(refused);
    expect(error.code).toBe("OVERLOADED");
    expect(error.message).toContain("limit of 2 requests");
    expect((await limited(post("/parse/ExtractPerson", { text: ADA }))).status).toBe(503);
    // Not counted: the ping, and requests refused before a slot was taken.
    expect((await limited(new Request("http://sapling.test/_debug/ping"))).status).toBe(200);
    expect(server.requests).toHaveLength(2);

    // The stream's reader leaves: its slot is free again.
    await stream.body?.cancel();
    expect((await limited(post("/parse/ExtractPerson", { text: ADA }))).status).toBe(200);
    // The call's caller leaves: its slot too; with both free, two requests fit again.
    callGone.abort();
    expect((await pendingCall).status).not.toBe(200);
    expect((await limited(post("/call/ExtractPerson", "{oops"))).status).toBe(400);
    expect((await limited(post("/stream/ExtractPerson", { colour: "red" }))).status).toBe(400);
    server.script(answer(ADA), answer(ADA));
    const both = await Promise.all([
      limited(post("/call/ExtractPerson", { text: "d" })),
      limited(post("/call/ExtractPerson", { text: "e" })),
    ]);
    expect(both.map((response) => response.status)).toEqual([200, 200]);
  });

  it("answers /_debug/ping", async () => {
    const response = await handler(new Request("http://sapling.test/_debug/ping"));
    expect(await response.text()).toBe("pong");
  });
});

describe("API key", () => {
  const keyed = () =>
    createSaplingHandler({
      runtime: SaplingRuntime.fromIr(ir, {
        env: { MOCK_URL: server.baseUrls.openai },
        constraintEvaluator: evaluateConstraint,
      }),
      apiKey: "s3cret-key",
    });

  it.each([
    ["x-sapling-api-key", { "x-sapling-api-key": "s3cret-key" }],
    ["x-baml-api-key", { "x-baml-api-key": "s3cret-key" }],
    ["HTTP Basic password", { authorization: `Basic ${btoa("anyone:s3cret-key")}` }],
  ])("accepts the key in %s", async (_label, headers) => {
    const response = await keyed()(post("/parse/ExtractPerson", { text: ADA }, headers));
    expect(response.status).toBe(200);
  });

  it.each([
    ["no key", {}],
    ["a wrong key", { "x-sapling-api-key": "s3cret-kex" }],
    ["a longer key", { "x-baml-api-key": "s3cret-key-and-more" }],
    ["a Basic user name only", { authorization: `Basic ${btoa("s3cret-key")}` }],
  ])("refuses %s with 401 and a Basic challenge", async (_label, headers) => {
    const response = await keyed()(post("/call/ExtractPerson", { text: "x" }, headers));
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain("Basic");
    expect(server.requests).toHaveLength(0);
  });

  it("guards the docs and the schema, but not the ping", async () => {
    expect((await keyed()(new Request("http://sapling.test/docs"))).status).toBe(401);
    expect((await keyed()(new Request("http://sapling.test/openapi.json"))).status).toBe(401);
    expect((await keyed()(new Request("http://sapling.test/_debug/ping"))).status).toBe(200);
  });
});

describe("GET /openapi.json and /docs", () => {
  it("describes every function with typed request and response schemas", async () => {
    const document = (await (await handler(new Request("http://sapling.test/openapi.json"))).json()) as {
      openapi: string;
      paths: Record<string, { post: Record<string, unknown> }>;
      components: { schemas: Record<string, unknown> };
    };
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths).sort()).toEqual([
      "/call/Describe",
      "/call/ExtractPerson",
      "/call/Slow",
      "/parse/Describe",
      "/parse/ExtractPerson",
      "/parse/Slow",
      "/stream/Describe",
      "/stream/ExtractPerson",
      "/stream/Slow",
    ]);
    const call = document.paths["/call/ExtractPerson"]?.post as {
      summary: string;
      requestBody: { content: { "application/json": { schema: unknown } } };
      responses: Record<string, { content?: { "application/json": { schema: unknown } } }>;
    };
    expect(call.summary).toBe("Pulls one person out of free text.");
    expect(call.requestBody.content["application/json"].schema).toEqual({
      type: "object",
      properties: {
        text: { type: "string" },
        hint: { anyOf: [{ type: "string" }, { type: "null" }] },
        __baml_options__: { $ref: "#/components/schemas/BamlOptions" },
      },
      required: ["text"],
      additionalProperties: false,
    });
    expect(document.components.schemas.BamlOptions).toMatchObject({
      properties: { client_registry: { type: "object" }, env: { type: "object" } },
    });
    // Both stream formats are described, and the delta operations have a schema.
    const streamed = document.paths["/stream/ExtractPerson"]?.post as {
      responses: Record<string, { description: string }>;
    };
    expect(streamed.responses["200"]?.description).toContain("application/vnd.sapling-delta+json");
    expect(streamed.responses["200"]?.description).toContain("cannot be resumed");
    expect(document.components.schemas.DeltaOperations).toMatchObject({ type: "array" });
    expect(call.responses["200"]?.content?.["application/json"].schema).toEqual({
      $ref: "#/components/schemas/Person",
    });
    expect(Object.keys(call.responses).sort()).toEqual([
      "200",
      "400",
      "401",
      "403",
      "413",
      "422",
      "502",
      "504",
    ]);
    expect(document.components.schemas.Level).toEqual({ type: "string", enum: ["LOW", "HIGH"] });
    const person = document.components.schemas.Person as { properties: Record<string, unknown> };
    expect(person.properties.name).toEqual({ type: "string", description: "full name" });
    expect(person.properties.age).toMatchObject({
      properties: { value: { type: "integer" }, checks: { required: ["adult"] } },
    });
    expect(document.components.schemas.MediaInput).toBeDefined();
  });

  it("serves a self-contained HTML page with schemas and curl examples", async () => {
    const response = await handler(new Request("http://sapling.test/docs"));
    expect(response.headers.get("content-type")).toContain("text/html");
    const page = await response.text();
    expect(page).toContain("ExtractPerson(text: string, hint: string?) -&#62; Person");
    expect(page).toContain("curl -X POST http://sapling.test/call/ExtractPerson");
    expect(page).toContain("curl -X POST http://sapling.test/stream/ExtractPerson -N");
    expect(page).toContain("&#34;text&#34;:&#34;text&#34;");
    expect(page).not.toMatch(/<script|<link|https?:\/\/(?!sapling\.test|example\.com|img)/);
  });
});

describe("BAML's __baml_options__ and /_debug/status", () => {
  const registryOptions = {
    client_registry: {
      clients: [
        {
          name: "FromRequest",
          provider: "openai-generic",
          options: { base_url: "", model: "registry-model" },
        },
      ],
      primary: "FromRequest",
    },
  };
  const withRegistry = () => {
    const options = structuredClone(registryOptions);
    const client = options.client_registry.clients[0];
    if (client) client.options.base_url = server.baseUrls.openai;
    return options;
  };
  // The runtime's own MOCK_URL points nowhere: only a request's env can make the Mock client reachable.
  const create = (extra: { apiKey?: string; allowRequestClients?: boolean }) =>
    createSaplingHandler({
      runtime: SaplingRuntime.fromIr(ir, {
        env: { MOCK_URL: "http://127.0.0.1:9/v1" },
        constraintEvaluator: evaluateConstraint,
      }),
      ...extra,
    });
  const key = { "x-baml-api-key": "s3cret-key" };

  it("refuses __baml_options__ with 403 when the server requires no API key, and calls no model", async () => {
    const response = await create({})(
      post("/call/ExtractPerson", { text: "Ada", __baml_options__: withRegistry() }),
    );
    expect(response.status).toBe(403);
    const error = await errorOf(response);
    expect(error.code).toBe("REQUEST_OPTIONS_REFUSED");
    expect(error.message).toContain("--allow-request-clients");
    const streamed = await create({})(
      post("/stream/ExtractPerson", { text: "Ada", __baml_options__: { env: { MOCK_URL: "x" } } }),
    );
    expect(streamed.status).toBe(403);
    expect(server.requests).toHaveLength(0);
  });

  it("checks the API key before anything else: an unauthenticated request with options is a 401", async () => {
    const response = await create({ apiKey: "s3cret-key" })(
      post("/call/ExtractPerson", { text: "Ada", __baml_options__: withRegistry() }),
    );
    expect(response.status).toBe(401);
    expect(server.requests).toHaveLength(0);
  });

  it("uses an authenticated request's client registry (primary) for /call and /stream", async () => {
    const handler = create({ apiKey: "s3cret-key" });
    server.script(answer(ADA));
    const response = await handler(
      post("/call/ExtractPerson", { text: "Ada", __baml_options__: withRegistry() }, key),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(ADA_VALUE);
    expect(server.requests[0]?.model).toBe("registry-model");

    server.script(answer(ADA, { chunkSize: 8 }));
    const streamed = await handler(
      post("/stream/ExtractPerson", { text: "Ada", __baml_options__: withRegistry() }, key),
    );
    const events = await readEvents(streamed);
    expect(events.at(-1)).toEqual({ event: "final", data: ADA_VALUE });
    expect(server.requests[1]?.model).toBe("registry-model");
  });

  it("merges a request's env over the server's for that call; null unsets a variable", async () => {
    const handler = create({ allowRequestClients: true });
    server.script(answer(ADA));
    const reached = await handler(
      post("/call/ExtractPerson", {
        text: "Ada",
        __baml_options__: { env: { MOCK_URL: server.baseUrls.openai } },
      }),
    );
    expect(reached.status).toBe(200);
    expect(server.requests[0]?.model).toBe("mock-model");
    const unset = await handler(
      post("/call/ExtractPerson", { text: "Ada", __baml_options__: { env: { MOCK_URL: null } } }),
    );
    expect(unset.status).toBe(500);
    expect((await errorOf(unset)).code).toBe("ENV_VAR_MISSING");
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    [{ client_registry: { clients: {} } }, "client_registry.clients must be a list"],
    [{ client_registry: { clients: [{ name: "A" }] } }, "clients[0].provider"],
    [{ env: { A: 1 } }, "env.A must be a string"],
    [{ type_builder: {} }, '"type_builder"'],
    ["fast", "must be a JSON object"],
  ])("answers 400 naming what is wrong in %j", async (options, fragment) => {
    const response = await create({ allowRequestClients: true })(
      post("/call/ExtractPerson", { text: "Ada", __baml_options__: options }),
    );
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toContain(fragment);
    expect(server.requests).toHaveLength(0);
  });

  it("reports authentication at /_debug/status in BAML's shape, without requiring the key", async () => {
    const status = async (handler: SaplingHandler, headers: Record<string, string> = {}) => {
      const response = await handler(new Request("http://sapling.test/_debug/status", { headers }));
      return [response.status, await response.json()];
    };
    expect(await status(create({}))).toEqual([200, { authz: { enforcement: "none" } }]);
    const keyed = create({ apiKey: "s3cret-key" });
    expect(await status(keyed, key)).toEqual([200, { authz: { enforcement: "active", outcome: "pass" } }]);
    expect(await status(keyed)).toEqual([
      403,
      { authz: { enforcement: "active", outcome: "fail", reason: "No authorization metadata" } },
    ]);
    expect(await status(keyed, { "x-baml-api-key": "wrong" })).toEqual([
      403,
      { authz: { enforcement: "active", outcome: "fail", reason: "Incorrect API key" } },
    ]);
  });
});
