/**
 * A BAML project whose client is `provider openai-responses`, end to end: compiled to IR, prompts rendered,
 * sent to the mock server's `/v1/responses` over HTTP and SSE, parsed by the Schema-Aligned Parser, with
 * usage, finish reasons, retries, media and `b.request` as the runtime reports them.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Ir } from "../ir/index.js";
import { compile } from "../language/index.js";
import {
  answer,
  cutByLength,
  type MockLlmServer,
  serverError,
  startMockLlmServer,
} from "../testing/index.js";
import { Collector } from "./collector.js";
import { BamlClientFinishReasonError } from "./errors.js";
import { Image, Pdf } from "./media.js";
import { SaplingRuntime } from "./sapling-runtime.js";

const KEY = "sk-responses-key-0123456789";
const PERSON = '{"name": "Ada Lovelace", "age": 36}';

const source = `
class Person {
  name string
  age int
}

client<llm> Responses {
  provider openai-responses
  retry_policy OneRetry
  options {
    base_url env.MOCK_URL
    api_key env.MOCK_KEY
    model "gpt-4.1-mini"
    max_tokens 200
    reasoning {
      effort "low"
    }
  }
}

client<llm> StrictResponses {
  provider openai-responses
  options {
    base_url env.MOCK_URL
    api_key env.MOCK_KEY
    model "gpt-4.1-mini"
    finish_reason_deny_list ["incomplete"]
  }
}

retry_policy OneRetry {
  max_retries 1
}

function ExtractPerson(text: string) -> Person {
  client Responses
  prompt #"
    {{ _.role("system") }}
    Extract the person.
    {{ ctx.output_format }}
    {{ _.role("user") }}
    {{ text }}
  "#
}

function DescribePicture(photo: image, scan: pdf) -> Person {
  client Responses
  prompt #"
    {{ _.role("user") }}
    Who is this? {{ photo }} {{ scan }}
    {{ ctx.output_format }}
  "#
}
`;

let server: MockLlmServer;
let ir: Ir;

beforeAll(async () => {
  server = await startMockLlmServer();
  const compiled = compile({ "main.baml": source });
  if (!compiled.ir) throw new Error(`fixture does not compile: ${JSON.stringify(compiled.diagnostics)}`);
  ir = compiled.ir;
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

function runtime() {
  return SaplingRuntime.fromIr(ir, {
    env: { MOCK_KEY: KEY, MOCK_URL: server.baseUrls.responses },
    sleep: async () => {},
  });
}

describe("provider openai-responses through the runtime", () => {
  it("calls a function: Responses request, parsed value, usage and status in the Collector", async () => {
    server.scriptFor(
      "responses",
      answer(`Sure:\n\`\`\`json\n${PERSON}\n\`\`\``, {
        usage: { inputTokens: 40, outputTokens: 15, cachedInputTokens: 16 },
      }),
    );
    const collector = new Collector();
    const value = await runtime().call("ExtractPerson", { text: "Ada Lovelace, 36" }, { collector });
    expect(value).toEqual({ name: "Ada Lovelace", age: 36 });
    const sent = server.requests[0];
    expect(sent).toMatchObject({ route: "responses", path: "/v1/responses", stream: false });
    expect(sent?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent?.body).toMatchObject({
      model: "gpt-4.1-mini",
      max_output_tokens: 200,
      reasoning: { effort: "low" },
    });
    expect(sent?.body).not.toHaveProperty("max_tokens");
    const input = sent?.body.input as { role: string; content: { type: string; text: string }[] }[];
    expect(input.map((item) => [item.role, item.content.map((part) => part.type)])).toEqual([
      ["system", ["input_text"]],
      ["user", ["input_text"]],
    ]);
    expect(input[0]?.content[0]?.text).toContain("age: int");
    expect(input[1]?.content[0]?.text).toContain("Ada Lovelace, 36");
    expect(collector.usage).toMatchObject({ inputTokens: 40, outputTokens: 15, cachedInputTokens: 16 });
    expect(collector.last?.selectedCall).toMatchObject({
      provider: "openai-responses",
      finishReason: "completed",
    });
    expect(JSON.stringify(collector.logs)).not.toContain(KEY);
  });

  it("streams a function: growing partials from output_text deltas, final value, usage from response.completed", async () => {
    server.scriptFor(
      "responses",
      answer(PERSON, { chunkSize: 5, usage: { inputTokens: 30, outputTokens: 11 } }),
    );
    const collector = new Collector();
    const stream = runtime().stream("ExtractPerson", { text: "Ada" }, { collector });
    const partials: unknown[] = [];
    for await (const partial of stream) partials.push(partial);
    expect(await stream.getFinalResponse()).toEqual({ name: "Ada Lovelace", age: 36 });
    expect(partials.length).toBeGreaterThan(2);
    expect(partials).toContainEqual({ name: "Ada Lovelace", age: null });
    expect(server.requests[0]).toMatchObject({ route: "responses", stream: true, body: { stream: true } });
    expect(collector.last?.logType).toBe("stream");
    expect(collector.last?.usage).toMatchObject({ inputTokens: 30, outputTokens: 11 });
    expect(collector.last?.selectedCall?.finishReason).toBe("completed");
  });

  it("retries a 500 from /v1/responses under the client's retry policy", async () => {
    server.scriptFor("responses", serverError(500, "upstream hiccup"), answer(PERSON));
    const collector = new Collector();
    expect(await runtime().call("ExtractPerson", { text: "Ada" }, { collector })).toEqual({
      name: "Ada Lovelace",
      age: 36,
    });
    expect(collector.last?.calls.map((call) => call.httpResponse?.status)).toEqual([500, 200]);
  });

  it("rejects a length cut (status incomplete) listed in finish_reason_deny_list", async () => {
    server.scriptFor("responses", cutByLength('{"name": "Ada Lo'));
    const error = await runtime()
      .call("ExtractPerson", { text: "Ada" }, { client: "StrictResponses" })
      .catch((caught: unknown) => caught);
    expect(BamlClientFinishReasonError.isInstance(error)).toBe(true);
    // The raw finish reason, as BAML reports it for this provider: the response status.
    const rejected = error as BamlClientFinishReasonError;
    expect([rejected.finishReason, rejected.rawOutput]).toEqual(["incomplete", '{"name": "Ada Lo']);
    expect(server.requests).toHaveLength(1);
  });

  it("sends image and PDF arguments as input_image and input_file", async () => {
    server.scriptFor("responses", answer(PERSON));
    await runtime().call("DescribePicture", {
      photo: Image.fromUrl("https://example.test/ada.png"),
      scan: Pdf.fromBase64("application/pdf", "JVBERi0xLjQ="),
    });
    const input = server.requests[0]?.body.input as { content: Record<string, unknown>[] }[];
    const media = input.flatMap((item) => item.content).filter((part) => part.type !== "input_text");
    expect(media).toEqual([
      { type: "input_image", image_url: "https://example.test/ada.png", detail: "auto" },
      {
        type: "input_file",
        filename: "document.pdf",
        file_data: "data:application/pdf;base64,JVBERi0xLjQ=",
      },
    ]);
  });

  it("builds the request b.request would send, without sending it", async () => {
    const request = await runtime().buildRequest("ExtractPerson", { text: "Ada" }, { stream: true });
    expect(request.url).toBe(`${server.baseUrls.responses}/responses`);
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request.body).toMatchObject({ model: "gpt-4.1-mini", stream: true, max_output_tokens: 200 });
    expect(request.body).toHaveProperty("input");
    expect(request.body).not.toHaveProperty("messages");
    expect(server.requests).toHaveLength(0);
  });
});
