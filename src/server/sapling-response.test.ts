/**
 * What the server says beyond BAML's body (x-sapling-* headers, the envelope on request), CORS and the
 * access log, through the web-standard handler, the runtime and the mock LLM server.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Ir } from "../ir/index.js";
import { compile } from "../language/index.js";
import { SaplingRuntime } from "../runtime/index.js";
import {
  answer,
  cutByLength,
  type MockLlmServer,
  serverError,
  startMockLlmServer,
} from "../testing/index.js";
import {
  type AccessEntry,
  createOpenApiDocument,
  createSaplingHandler,
  formatAccessEntry,
  SAPLING_MEDIA_TYPE,
} from "./index.js";

const source = `
class Item {
  id int
  name string
  tags string[]
}

client<llm> Mock {
  provider openai-generic
  options {
    base_url env.MOCK_URL
    model "mock-model"
  }
}

client<llm> Strict {
  provider openai-generic
  options {
    base_url env.MOCK_URL
    model "strict-model"
    finish_reason_deny_list ["length"]
  }
}

function MakeItem(text: string) -> Item {
  client Mock
  prompt #"{{ text }} {{ ctx.output_format }}"#
}

function MakeItemStrictly(text: string) -> Item {
  client Strict
  prompt #"{{ text }} {{ ctx.output_format }}"#
}
`;

const CUT = '{"id": 5, "name": "item-';
const WHOLE = '```json\n{"id": 5, "name": "item-five", "tags": ["a"]}\n```';

let server: MockLlmServer;
let ir: Ir;
let entries: AccessEntry[];

beforeAll(async () => {
  server = await startMockLlmServer();
  const compiled = compile({ "main.baml": source });
  if (!compiled.ir) throw new Error(JSON.stringify(compiled.diagnostics));
  ir = compiled.ir;
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  entries = [];
});

function handler(options: { apiKey?: string; corsOrigins?: string[] } = {}) {
  let clock = 0;
  return createSaplingHandler({
    runtime: SaplingRuntime.fromIr(ir, { env: { MOCK_URL: server.baseUrls.openai } }),
    onAccess: (entry) => entries.push(entry),
    // Each reading of the clock advances it 5 ms: durations are exact without measuring time.
    now: () => (clock += 5),
    ...options,
  });
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(`http://sapling.test${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("the response rule", () => {
  it("answers BAML's body with x-sapling-* headers saying the answer was cut, and where", async () => {
    server.script(cutByLength(CUT));
    const response = await handler()(post("/call/MakeItem", { text: "x" }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: 5, name: "item-", tags: [] });
    expect(response.headers.get("x-sapling-finish-reason")).toBe("length");
    expect(response.headers.get("x-sapling-truncated")).toBe("true");
    expect(response.headers.get("x-sapling-incomplete")).toBe("$.name, $.tags");
    // Incomplete ($.name), EmptyFromMissing ($.tags), FixedJson ($).
    expect(response.headers.get("x-sapling-repairs")).toBe("3");
    expect(entries).toEqual([
      {
        method: "POST",
        path: "/call/MakeItem",
        status: 200,
        durationMs: 5,
        outcome: "ok",
        truncated: true,
        incompleteFields: ["$.name", "$.tags"],
        call: expect.objectContaining({
          functionName: "MakeItem",
          client: "Mock",
          repairs: 3,
          costUsd: null,
        }),
      },
    ]);
    // The same per-call facts as `sapling call` and the runtime's info line (call-summary.ts).
    const latency = response.headers.get("x-sapling-latency-ms");
    const input = response.headers.get("x-sapling-input-tokens");
    const output = response.headers.get("x-sapling-output-tokens");
    expect(latency).toMatch(/^\d+$/);
    expect(response.headers.has("x-sapling-cost-usd")).toBe(false);
    expect(formatAccessEntry(entries[0] as AccessEntry)).toBe(
      `POST /call/MakeItem 200 5ms truncated (incomplete: $.name, $.tags) client=Mock model=mock-model latency=${latency}ms tokens=${input} in / ${output} out cost=unknown repairs=3`,
    );
  });

  it("sends the Sapling envelope only when Accept asks for it", async () => {
    server.script(answer(WHOLE, { usage: { inputTokens: 11, outputTokens: 7 } }));
    const response = await handler()(
      post("/call/MakeItem", { text: "x" }, { accept: `${SAPLING_MEDIA_TYPE}, application/json;q=0.5` }),
    );
    expect(await response.json()).toEqual({
      value: { id: 5, name: "item-five", tags: ["a"] },
      finish_reason: "stop",
      truncated: false,
      incomplete_fields: [],
      repairs: [{ kind: "FromFence", path: "$", detail: expect.any(String), span: { start: 8, end: 54 } }],
      latency_ms: expect.any(Number),
      input_tokens: 11,
      output_tokens: 7,
      cost_usd: null,
      usage: {
        input_tokens: 11,
        output_tokens: 7,
        cached_input_tokens: 0,
        cache_write_input_tokens: null,
        reasoning_tokens: 0,
      },
      client: "Mock",
    });
    expect(response.headers.get("x-sapling-truncated")).toBe("false");
    expect(response.headers.has("x-sapling-incomplete")).toBe(false);
    expect(response.headers.get("x-sapling-repairs")).toBe("1");
  });

  it("puts the envelope in a stream's final event when asked, and BAML's value otherwise", async () => {
    server.script(cutByLength(CUT, { chunkSize: 5 }), cutByLength(CUT, { chunkSize: 5 }));
    const plain = await (await handler()(post("/stream/MakeItem", { text: "x" }))).text();
    expect(plain.trimEnd().endsWith('\ndata: {"id":5,"name":"item-","tags":[]}')).toBe(true);
    const asked = await (
      await handler()(
        post("/stream/MakeItem", { text: "x" }, { accept: `text/event-stream, ${SAPLING_MEDIA_TYPE}` }),
      )
    ).text();
    const final = JSON.parse(/event: final\n(?:x-sapling-.*\n)*data: (.*)/.exec(asked)?.[1] ?? "null");
    expect(final).toMatchObject({
      value: { id: 5, name: "item-" },
      truncated: true,
      incomplete_fields: ["$.name", "$.tags"],
    });
    expect(entries.map((entry) => [entry.path, entry.outcome, entry.truncated])).toEqual([
      ["/stream/MakeItem", "ok", true],
      ["/stream/MakeItem", "ok", true],
    ]);
  });

  it("flags a cut answer in a stream's final event with the x-sapling-* fields /call sends as headers", async () => {
    server.script(cutByLength(CUT, { chunkSize: 5 }), cutByLength(CUT));
    const serve = handler();
    const events = (await (await serve(post("/stream/MakeItem", { text: "x" }))).text()).split("\n\n");
    const final = events.find((block) => block.startsWith("event: final\n")) ?? "";
    const fields = Object.fromEntries(
      final
        .split("\n")
        .filter((line) => line.startsWith("x-sapling-"))
        .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 2)]),
    );
    expect(fields).toMatchObject({
      "x-sapling-finish-reason": "length",
      "x-sapling-truncated": "true",
      "x-sapling-incomplete": "$.name, $.tags",
      "x-sapling-repairs": "3",
    });
    // The same names and values as the headers of the same answer from /call.
    const called = await serve(post("/call/MakeItem", { text: "x" }));
    for (const name of ["x-sapling-finish-reason", "x-sapling-truncated", "x-sapling-incomplete"])
      expect(fields[name]).toBe(called.headers.get(name));
    // The data line is BAML's value, and readStream (which skips unknown fields) reads it as before.
    expect(final.endsWith('data: {"id":5,"name":"item-","tags":[]}')).toBe(true);
  });

  it("answers a cut answer refused by finish_reason_deny_list with its partial value and paths", async () => {
    server.script(cutByLength(CUT));
    const response = await handler()(post("/call/MakeItemStrictly", { text: "x" }));
    expect(response.status).toBe(502);
    const { error } = (await response.json()) as { error: Record<string, unknown> };
    expect(error).toMatchObject({
      code: "FINISH_REASON",
      raw_output: CUT,
      partial_value: { id: 5, name: "item-", tags: [] },
      incomplete_fields: ["$.name", "$.tags"],
    });
    expect(entries[0]).toMatchObject({ status: 502, outcome: "error", code: "FINISH_REASON" });
    expect(formatAccessEntry(entries[0] as AccessEntry)).toMatch(
      /^POST \/call\/MakeItemStrictly 502 5ms FINISH_REASON: Client "Strict" .*incomplete: \$\.name, \$\.tags/,
    );
  });

  it("documents the headers and the envelope in the OpenAPI document", () => {
    const document = createOpenApiDocument(ir) as {
      paths: Record<string, { post: { responses: Record<string, { headers?: object; content: object }> } }>;
    };
    const ok = document.paths["/call/MakeItem"]?.post.responses["200"];
    expect(Object.keys(ok?.headers ?? {})).toEqual([
      "x-sapling-finish-reason",
      "x-sapling-truncated",
      "x-sapling-incomplete",
      "x-sapling-repairs",
      "x-sapling-latency-ms",
      "x-sapling-input-tokens",
      "x-sapling-output-tokens",
      "x-sapling-cost-usd",
    ]);
    expect(Object.keys(ok?.content ?? {})).toEqual(["application/json", SAPLING_MEDIA_TYPE]);
  });
});

describe("a provider's finish reason the headers cannot carry as is", () => {
  /** A fetch that answers every chat completion with `finishReason`, as a provider might. */
  const replying =
    (finishReason: string): typeof fetch =>
    async () =>
      Response.json({
        id: "x",
        object: "chat.completion",
        model: "mock-model",
        choices: [{ index: 0, message: { role: "assistant", content: WHOLE }, finish_reason: finishReason }],
      });
  const serveWith = (finishReason: string) =>
    createSaplingHandler({
      runtime: SaplingRuntime.fromIr(ir, {
        env: { MOCK_URL: "http://llm.test/v1" },
        fetch: replying(finishReason),
      }),
    });

  it.each([
    ["CR and LF", "stop\r\nx-injected: 1", "stop%0D%0Ax-injected: 1"],
    ["characters beyond Latin-1", "完了 ✓", "%E5%AE%8C%E4%BA%86 %E2%9C%93"],
    ["a percent sign", "stop 100%", "stop 100%25"],
  ])("answers 200 with the reason percent-encoded when it holds %s", async (_label, reason, sent) => {
    const response = await serveWith(reason)(post("/call/MakeItem", { text: "x" }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: 5, name: "item-five", tags: ["a"] });
    expect(response.headers.get("x-sapling-finish-reason")).toBe(sent);
    expect(decodeURIComponent(sent)).toBe(reason);
    expect(response.headers.has("x-injected")).toBe(false);
  });

  it("keeps a stream's final event whole when the reason holds CR and LF", async () => {
    const text = await (
      await serveWith("stop\r\n\r\ndata: 1")(post("/stream/MakeItem", { text: "x" }))
    ).text();
    expect(text).toContain("x-sapling-finish-reason: stop%0D%0A%0D%0Adata: 1\n");
    expect(text).not.toContain("\ndata: 1");
  });
});

describe("the access log", () => {
  it("gives the error code and the reason of a failed call", async () => {
    server.script(serverError(500, "the upstream is down"));
    const response = await handler()(post("/call/MakeItem", { text: "x" }));
    expect(response.status).toBe(502);
    expect(entries[0]).toMatchObject({ status: 502, outcome: "error", code: "CLIENT_HTTP_ERROR" });
    expect(entries[0]?.reason).toContain("500");
  });

  it("logs a stream that fails after its headers with the error event's code", async () => {
    server.script(serverError(500, "down"));
    const body = await (await handler()(post("/stream/MakeItem", { text: "x" }))).text();
    expect(body).toContain("event: error");
    expect(entries).toMatchObject([{ status: 200, outcome: "error", code: "CLIENT_HTTP_ERROR" }]);
  });

  it("logs a stream the caller abandoned", async () => {
    server.script(answer(WHOLE, { chunkSize: 2, chunkDelayMs: 50 }));
    const response = await handler()(post("/stream/MakeItem", { text: "x" }));
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    expect(entries).toEqual([]);
    await reader.cancel();
    expect(entries).toMatchObject([{ path: "/stream/MakeItem", status: 200, outcome: "aborted" }]);
    expect(formatAccessEntry(entries[0] as AccessEntry)).toMatch(
      /^POST \/stream\/MakeItem 200 \d+ms aborted by the client$/,
    );
  });
});

describe("CORS", () => {
  const preflight = (origin: string) =>
    new Request("http://sapling.test/call/MakeItem", {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });

  it("answers a preflight from an allowed origin before the API key is checked", async () => {
    const serve = handler({ apiKey: "k-1234", corsOrigins: ["http://localhost:5173"] });
    const response = await serve(preflight("http://localhost:5173"));
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(response.headers.get("access-control-allow-methods")).toContain("POST");
    expect(response.headers.get("access-control-allow-headers")).toContain("x-sapling-api-key");
  });

  it("refuses a preflight with 403 saying why: CORS off, or an origin not in the list", async () => {
    const off = await handler({ apiKey: "k-1234" })(preflight("http://localhost:5173"));
    expect(off.status).toBe(403);
    expect(((await off.json()) as { error: { message: string } }).error.message).toContain("--cors-origin");
    const other = await handler({ corsOrigins: ["https://app.example.com"] })(preflight("http://evil.test"));
    expect(other.status).toBe(403);
    expect(other.headers.has("access-control-allow-origin")).toBe(false);
  });

  it("lets an allowed origin read the answer and its x-sapling-* headers; others get no CORS headers", async () => {
    server.script(answer(WHOLE), answer(WHOLE));
    const serve = handler({ corsOrigins: ["http://localhost:5173"] });
    const allowed = await serve(post("/call/MakeItem", { text: "x" }, { origin: "http://localhost:5173" }));
    expect(allowed.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(allowed.headers.get("access-control-expose-headers")).toContain("x-sapling-incomplete");
    const other = await serve(post("/call/MakeItem", { text: "x" }, { origin: "http://evil.test" }));
    expect(other.status).toBe(200);
    expect(other.headers.has("access-control-allow-origin")).toBe(false);
    const errors = await handler({ apiKey: "k-1234", corsOrigins: ["*"] })(
      post("/call/MakeItem", { text: "x" }, { origin: "http://any.test" }),
    );
    expect(errors.status).toBe(401);
    expect(errors.headers.get("access-control-allow-origin")).toBe("*");
  });
});
