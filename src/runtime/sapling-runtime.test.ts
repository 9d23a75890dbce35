/**
 * Whole functions through the real rooms: a `.baml` project compiled to IR, prompts rendered by the prompt
 * room, answers from the mock LLM server over HTTP and SSE, parsed by the Schema-Aligned Parser.
 */
import { createServer } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Ir } from "../ir/index.js";
import { compile } from "../language/index.js";
import {
  answer,
  cutByLength,
  hang,
  type MockAnswer,
  type MockLlmServer,
  malformedStream,
  rateLimited,
  resetMidStream,
  serverError,
  slowFirstToken,
  startMockLlmServer,
} from "../testing/index.js";
import { ClientRegistry } from "./client-registry.js";
import { Collector } from "./collector.js";
import {
  BamlAbortError,
  BamlAllClientsFailedError,
  BamlClientFinishReasonError,
  BamlInvalidArgumentError,
  BamlMissingEnvVarError,
  BamlTimeoutError,
  BamlValidationError,
} from "./errors.js";
import { SaplingRuntime } from "./sapling-runtime.js";
import { TypeBuilder } from "./type-builder.js";

const KEY = "sk-mock-key-abcdef123456";
const PERSON = '{"name": "Ada Lovelace", "age": 36}';
/** A delay no test waits out: a call that must end sooner can only end through what the test checks. */
const AN_HOUR_MS = 60 * 60_000;

function project(deadPort: number): Ir {
  const source = `
class Person {
  name string
  age int
}

class Profile {
  name string
  @@dynamic
}

client<llm> Unreachable {
  provider openai-generic
  options {
    base_url "http://127.0.0.1:${deadPort}/v1"
    model "unreachable-model"
    api_key env.MOCK_KEY
  }
}

client<llm> Mock {
  provider openai-generic
  retry_policy TwoRetries
  options {
    base_url env.MOCK_URL
    model "mock-model"
    api_key env.MOCK_KEY
  }
}

client<llm> Other {
  provider openai-generic
  options {
    base_url env.MOCK_URL
    model "other-model"
    api_key env.MOCK_KEY
  }
}

client<llm> Chain {
  provider fallback
  options {
    strategy [Unreachable, Mock]
  }
}

client<llm> Pair {
  provider fallback
  options {
    strategy [Other, Mock]
  }
}

client<llm> Bounded {
  provider fallback
  options {
    strategy [Other, Mock]
    http {
      total_timeout_ms 300
    }
  }
}

client<llm> Strict {
  provider openai-generic
  options {
    base_url env.MOCK_URL
    model "strict-model"
    finish_reason_allow_list ["stop"]
  }
}

client<llm> StrictFirst {
  provider fallback
  options {
    strategy [Strict, Mock]
  }
}

client<llm> Guarded {
  provider openai-generic
  retry_policy TwoRetries
  options {
    base_url env.MOCK_URL
    model "guarded-model"
    http {
      time_to_first_token_timeout_ms 200
      request_timeout_ms 500
    }
  }
}

client<llm> Rotate {
  provider round-robin
  options {
    strategy [Other, Mock]
    start 1
  }
}

retry_policy TwoRetries {
  max_retries 2
  strategy {
    type exponential_backoff
    delay_ms 100
    multiplier 2
    max_delay_ms 1000
  }
}

function ExtractPerson(text: string) -> Person {
  client Chain
  prompt #"
    Extract the person from: {{ text }}

    {{ ctx.output_format }}
  "#
}

function DescribeProfile(text: string) -> Profile {
  client Mock
  prompt #"
    Describe: {{ text }}
    {{ ctx.output_format }}
  "#
}
`;
  const { ir, diagnostics } = compile({ "main.baml": source });
  if (!ir) throw new Error(`fixture does not compile: ${JSON.stringify(diagnostics, null, 2)}`);
  return ir;
}

let server: MockLlmServer;
let ir: Ir;
const waits: number[] = [];

beforeAll(async () => {
  server = await startMockLlmServer();
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  ir = project(typeof address === "object" && address ? address.port : 1);
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  waits.length = 0;
});

function runtime(env: Record<string, string> = { MOCK_KEY: KEY, MOCK_URL: server.baseUrls.openai }) {
  return SaplingRuntime.fromIr(JSON.parse(JSON.stringify(ir)), {
    env,
    sleep: async (ms) => {
      waits.push(ms);
    },
  });
}

describe("SaplingRuntime.call", () => {
  it("recovers from an unreachable client and two HTTP 500s under a two-retry policy; the Collector shows every attempt", async () => {
    server.script(serverError(), serverError(), answer(`Here you go:\n\`\`\`json\n${PERSON}\n\`\`\``));
    const collector = new Collector();
    const value = await runtime().call(
      "ExtractPerson",
      { text: "Ada, 36" },
      { collector, tags: { run: "1" } },
    );
    expect(value).toEqual({ name: "Ada Lovelace", age: 36 });
    expect(waits).toEqual([100, 200]);
    const log = collector.last;
    expect(log?.functionName).toBe("ExtractPerson");
    expect(log?.tags).toEqual({ run: "1" });
    expect(
      log?.calls.map((call) => [call.clientName, call.httpResponse?.status ?? "no response", call.selected]),
    ).toEqual([
      ["Unreachable", "no response", false],
      ["Mock", 500, false],
      ["Mock", 500, false],
      ["Mock", 200, true],
    ]);
    expect(log?.rawLlmResponse).toContain(PERSON);
    expect(log?.repairs.map((repair) => repair.kind)).toContain("FromFence");
    expect(log?.usage.inputTokens).toBeGreaterThan(0);
    const prompt = JSON.stringify(server.requests[0]?.body.messages);
    expect(prompt).toContain("Extract the person from: Ada, 36");
    expect(prompt).toContain("age: int");
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(JSON.stringify(collector.logs)).not.toContain(KEY);
  });

  it("lists every attempt when no client is healthy, without the API key (errors and logs)", async () => {
    server.script(serverError(), serverError(), serverError(401, `Invalid key ${KEY}`));
    const lines: string[] = [];
    const logged = SaplingRuntime.fromIr(ir, {
      env: { MOCK_KEY: KEY, MOCK_URL: server.baseUrls.openai },
      sleep: async () => {},
      logger: (level, message) => lines.push(`${level} ${message}`),
      logLevel: "debug",
    });
    const error = await logged.call("ExtractPerson", { text: "x" }).catch((caught: unknown) => caught);
    expect(lines.filter((line) => /^debug \w+: attempt/.test(line))).toEqual([
      "debug ExtractPerson: attempt 1 with client Unreachable",
      "debug ExtractPerson: attempt 2 with client Mock",
      "debug ExtractPerson: attempt 3 with client Mock",
      "debug ExtractPerson: attempt 4 with client Mock",
    ]);
    expect(lines.filter((line) => line.startsWith("warn"))).toHaveLength(4);
    expect(lines.at(-1)).toMatch(/^info ExtractPerson error client=Mock .*attempts=4 /);
    expect(lines.filter((line) => line.startsWith("warn")).at(-1)).toMatch(
      /^warn ExtractPerson: client Mock failed \(CLIENT_HTTP_ERROR\): .*HTTP 401/,
    );
    expect(lines.join("\n")).not.toContain(KEY);
    expect(BamlAllClientsFailedError.isInstance(error)).toBe(true);
    const failed = error as BamlAllClientsFailedError;
    expect(failed.attempts.map((attempt) => attempt.clientName)).toEqual([
      "Unreachable",
      "Mock",
      "Mock",
      "Mock",
    ]);
    expect(`${failed.message} ${failed.stack} ${JSON.stringify(failed.attempts)}`).not.toContain(KEY);
    expect(failed.message).toContain("HTTP 401");
  });

  it("throws a validation error carrying the prompt and the raw answer, without trying other clients", async () => {
    server.script(answer("I could not find anyone."));
    const error = await runtime()
      .call("ExtractPerson", { text: "nobody" }, { client: "Pair" })
      .catch((caught: unknown) => caught);
    expect(BamlValidationError.isInstance(error)).toBe(true);
    const invalid = error as BamlValidationError;
    expect(invalid.rawOutput).toBe("I could not find anyone.");
    expect(invalid.prompt).toContain("Extract the person from: nobody");
    expect(server.requests).toHaveLength(1);
  });

  it("opt-in: re-asks the same client with the parse error, or moves on to the next client", async () => {
    server.script(answer("no idea"), answer(PERSON));
    const reasked = await runtime().call(
      "ExtractPerson",
      { text: "Ada" },
      { client: "Other", parseRecovery: { reask: 1 } },
    );
    expect(reasked).toEqual({ name: "Ada Lovelace", age: 36 });
    const followUp = server.requests[1]?.body.messages as { role: string; content: unknown }[];
    expect(followUp.map((message) => message.role)).toEqual(["system", "assistant", "user"]);
    expect(JSON.stringify(followUp[2]?.content)).toContain("Your previous answer could not be read: at $");
    expect(JSON.stringify(followUp[2]?.content)).not.toContain("error.raw");

    server.requests.length = 0;
    server.script(answer("no idea"), answer(PERSON));
    const next = await runtime().call(
      "ExtractPerson",
      { text: "Ada" },
      { client: "Pair", parseRecovery: { nextClient: true } },
    );
    expect(next).toEqual({ name: "Ada Lovelace", age: 36 });
    expect(server.requests.map((request) => request.model)).toEqual(["other-model", "mock-model"]);
  });

  it("takes a runtime-wide parse recovery default that a call may switch off", async () => {
    const env = { MOCK_KEY: KEY, MOCK_URL: server.baseUrls.openai };
    const lenient = SaplingRuntime.fromIr(ir, { env, parseRecovery: { reask: 1 } });
    server.script(answer("no idea"), answer(PERSON));
    expect(await lenient.call("ExtractPerson", { text: "Ada" }, { client: "Other" })).toEqual({
      name: "Ada Lovelace",
      age: 36,
    });
    server.script(answer("no idea"));
    const strict = lenient.call(
      "ExtractPerson",
      { text: "Ada" },
      { client: "Other", parseRecovery: { reask: 0 } },
    );
    await expect(strict).rejects.toBeInstanceOf(BamlValidationError);
    expect(server.requests).toHaveLength(3);
  });

  it("rotates round-robin clients call by call, from `start`", async () => {
    server.script(answer(PERSON), answer(PERSON), answer(PERSON));
    const instance = runtime();
    for (let call = 0; call < 3; call++)
      await instance.call("ExtractPerson", { text: "Ada" }, { client: "Rotate" });
    expect(server.requests.map((request) => request.model)).toEqual([
      "mock-model",
      "other-model",
      "mock-model",
    ]);
  });

  it("names a missing env variable only when a client that reads it is used; call env fills it", async () => {
    const bare = runtime({ MOCK_URL: server.baseUrls.openai });
    const error = await bare
      .call("ExtractPerson", { text: "Ada" }, { client: "Other" })
      .catch((caught: unknown) => caught);
    expect(BamlMissingEnvVarError.isInstance(error)).toBe(true);
    expect((error as BamlMissingEnvVarError).variable).toBe("MOCK_KEY");
    server.script(answer(PERSON));
    const value = await bare.call(
      "ExtractPerson",
      { text: "Ada" },
      { client: "Other", env: { MOCK_KEY: KEY } },
    );
    expect(value).toEqual({ name: "Ada Lovelace", age: 36 });
  });

  it("uses a ClientRegistry's primary client", async () => {
    const registry = new ClientRegistry();
    registry.addLlmClient("Custom", "openai-generic", {
      base_url: server.baseUrls.openai,
      model: "custom-model",
    });
    registry.setPrimary("Custom");
    server.script(answer(PERSON));
    await runtime().call("ExtractPerson", { text: "Ada" }, { clientRegistry: registry });
    expect(server.requests.map((request) => request.model)).toEqual(["custom-model"]);
  });

  it("rejects arguments that do not fit the parameters before sending anything", async () => {
    const error = await runtime()
      .call("ExtractPerson", { text: 42 })
      .catch((caught: unknown) => caught);
    expect(BamlInvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(
      "Argument text of ExtractPerson: expected a string, got number 42",
    );
    expect(server.requests).toHaveLength(0);
  });

  it("ends promptly when aborted", async () => {
    // The first token would come after an hour: only the abort can end this call (no clock is read).
    server.script(slowFirstToken(PERSON, AN_HOUR_MS));
    const controller = new AbortController();
    // Abort once the request has reached the server, however long that takes on a loaded machine.
    const abortOnceSent = async (): Promise<void> => {
      while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      controller.abort();
    };
    void abortOnceSent();
    const error = await runtime()
      .call("ExtractPerson", { text: "Ada" }, { client: "Other", signal: controller.signal })
      .catch((caught: unknown) => caught);
    expect(BamlAbortError.isInstance(error)).toBe(true);
    // One attempt: an abort is not retried and does not fall back.
    expect(server.requests).toHaveLength(1);
  });

  it("waits for a 429's retry-after before retrying the same client", async () => {
    server.script(rateLimited(1), answer(PERSON));
    const value = await runtime().call("ExtractPerson", { text: "Ada" }, { client: "Mock" });
    expect(value).toEqual({ name: "Ada Lovelace", age: 36 });
    expect(waits).toEqual([1000]);
  });

  it("rejects a disallowed finish reason without falling back (BAML), or falls back when opted in", async () => {
    server.script(cutByLength('{"name": "Ada Lovelace", "ag'));
    const error = await runtime()
      .call("ExtractPerson", { text: "Ada" }, { client: "StrictFirst" })
      .catch((caught: unknown) => caught);
    expect(BamlClientFinishReasonError.isInstance(error)).toBe(true);
    const rejected = error as BamlClientFinishReasonError;
    expect([rejected.finishReason, rejected.rawOutput, rejected.clientName]).toEqual([
      "length",
      '{"name": "Ada Lovelace", "ag',
      "Strict",
    ]);
    expect(server.requests).toHaveLength(1);
    server.script(cutByLength('{"name": "Ada Lovelace", "ag'), answer(PERSON));
    const recovered = await runtime().call(
      "ExtractPerson",
      { text: "Ada" },
      { client: "StrictFirst", parseRecovery: { nextClient: true } },
    );
    expect(recovered).toEqual({ name: "Ada Lovelace", age: 36 });
  });

  it("bounds a strategy by its total_timeout_ms, retries and fallbacks included", async () => {
    // The server never answers: only the strategy's own deadline can end the call.
    server.script(hang());
    const error = await runtime()
      .call("ExtractPerson", { text: "Ada" }, { client: "Bounded" })
      .catch((caught: unknown) => caught);
    expect(BamlTimeoutError.isInstance(error)).toBe(true);
    expect((error as BamlTimeoutError).message).toContain("total_timeout_ms 300");
    expect(server.requests.map((request) => request.model)).toEqual(["other-model"]);
  });

  it("applies a TypeBuilder to the prompt and the parse of one call only", async () => {
    const tb = new TypeBuilder(ir);
    tb.classBuilder("Profile").addProperty("hobbies", tb.list(tb.string())).description("What they enjoy");
    server.script(
      answer('{"name": "Ada", "hobbies": ["math", "poetry"]}'),
      answer('{"name": "Ada", "hobbies": ["x"]}'),
    );
    const instance = runtime();
    expect(await instance.call("DescribeProfile", { text: "Ada" }, { tb })).toEqual({
      name: "Ada",
      hobbies: ["math", "poetry"],
    });
    expect(JSON.stringify(server.requests[0]?.body.messages)).toContain("What they enjoy");
    expect(await instance.call("DescribeProfile", { text: "Ada" })).toEqual({ name: "Ada" });
  });
});

describe("a retry recovers from every fault of the mock server", () => {
  const faults: [string, MockAnswer][] = [
    ["HTTP 429 with retry-after", rateLimited(0)],
    ["HTTP 503", serverError(503)],
    ["a connection reset", resetMidStream(PERSON, 1)],
    ["a malformed answer", malformedStream(PERSON, 1)],
    ["a slow first token (timeout)", slowFirstToken(PERSON, 5000)],
    ["a hung server (timeout)", hang()],
  ];
  for (const [name, fault] of faults) {
    for (const mode of ["call", "stream"] as const) {
      it(`${name}, ${mode}`, async () => {
        server.script(fault, answer(PERSON, { chunkSize: 8 }));
        const collector = new Collector();
        const instance = runtime();
        const options = { client: "Guarded", collector };
        const value =
          mode === "call"
            ? await instance.call("ExtractPerson", { text: "Ada" }, options)
            : await instance.stream("ExtractPerson", { text: "Ada" }, options).getFinalResponse();
        expect(value).toEqual({ name: "Ada Lovelace", age: 36 });
        expect(collector.last?.calls.map((call) => call.error === null)).toEqual([false, true]);
      });
    }
  }
});

describe("SaplingRuntime.stream", () => {
  it("yields growing, distinct partials and a final value parsed in final mode", async () => {
    server.script(answer(`Here it is: ${PERSON}`, { chunkSize: 4 }));
    const collector = new Collector();
    const stream = runtime().stream("ExtractPerson", { text: "Ada" }, { client: "Other", collector });
    const partials: unknown[] = [];
    for await (const partial of stream) partials.push(partial);
    expect(await stream.getFinalResponse()).toEqual({ name: "Ada Lovelace", age: 36 });
    expect(partials.length).toBeGreaterThan(2);
    expect(new Set(partials.map((partial) => JSON.stringify(partial))).size).toBe(partials.length);
    expect(partials.at(-1)).toEqual({ name: "Ada Lovelace", age: 36 });
    expect(partials).toContainEqual({ name: "Ada Lovelace", age: null });
    expect(partials).not.toContain(null);
    expect(collector.last?.logType).toBe("stream");
    expect(server.requests[0]?.stream).toBe(true);
  });

  it("hands a consumer that reads only at the end one partial, not one per chunk", async () => {
    const name = "Ada Lovelace ".repeat(100).trim();
    server.script(answer(JSON.stringify({ name, age: 36 }), { chunkSize: 4 }));
    const stream = runtime().stream("ExtractPerson", { text: "Ada" }, { client: "Other" });
    expect(await stream.getFinalResponse()).toEqual({ name, age: 36 });
    const partials: unknown[] = [];
    for await (const partial of stream) partials.push(partial);
    expect(partials).toEqual([{ name, age: 36 }]);
  });

  it("stops the model call when the consumer breaks out of the loop", async () => {
    server.script(answer(PERSON, { chunkSize: 2, chunkDelayMs: 20 }));
    const stream = runtime().stream("ExtractPerson", { text: "Ada" }, { client: "Other" });
    for await (const _ of stream) break;
    const error = await stream.getFinalResponse().catch((caught: unknown) => caught);
    expect(BamlAbortError.isInstance(error)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it("offers an NDJSON web stream ending with the final value", async () => {
    server.script(answer(PERSON, { chunkSize: 10 }));
    const body = await new Response(
      runtime().stream("ExtractPerson", { text: "Ada" }, { client: "Other" }).toStreamable(),
    ).text();
    const lines = body
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.at(-1)).toEqual({ final: { name: "Ada Lovelace", age: 36 } });
    expect(lines.slice(0, -1).every((line) => "partial" in line)).toBe(true);
  });
});

describe("SaplingRuntime modular API", () => {
  it("builds the request a call would send, key included, without sending it", async () => {
    const request = await runtime().buildRequest(
      "ExtractPerson",
      { text: "Ada" },
      { stream: true },
      { client: "Other" },
    );
    expect(request.url).toBe(`${server.baseUrls.openai}/chat/completions`);
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request.body).toMatchObject({ model: "other-model", stream: true });
    expect(request.body.json()).toMatchObject({ model: "other-model", stream: true });
    expect(JSON.parse(request.body.text())).toEqual(JSON.parse(JSON.stringify(request.body)));
    expect(Object.keys(request.body)).not.toContain("json");
    expect(server.requests).toHaveLength(0);
  });

  it("resetEnv replaces the environment later calls read (BAML's resetBamlEnvVars)", async () => {
    const instance = runtime({ OPENAI_API_KEY: "sk-first-key-0000" });
    const build = () =>
      instance.buildRequest(
        "ExtractPerson",
        { text: "Ada" },
        { stream: false },
        { client: "openai/gpt-4o-mini" },
      );
    expect((await build()).headers.authorization).toBe("Bearer sk-first-key-0000");
    instance.resetEnv({ OPENAI_API_KEY: "sk-second-key-000" });
    expect((await build()).headers.authorization).toBe("Bearer sk-second-key-000");
    instance.resetEnv({});
    expect((await build()).headers.authorization).toBeUndefined();
  });

  it("reads the provider/model shorthand with the provider's default key", async () => {
    const instance = runtime({ OPENAI_API_KEY: "sk-default-key-0000" });
    const request = await instance.buildRequest(
      "ExtractPerson",
      { text: "Ada" },
      { stream: false },
      { client: "openai/gpt-4o-mini" },
    );
    expect(request.url).toBe("https://api.openai.com/v1/chat/completions");
    expect(request.body).toMatchObject({ model: "gpt-4o-mini" });
    expect(request.headers.authorization).toBe("Bearer sk-default-key-0000");
  });

  it("parses complete and partial answers without a model", () => {
    const instance = runtime();
    expect(instance.parse("ExtractPerson", `Sure! ${PERSON}`)).toEqual({ name: "Ada Lovelace", age: 36 });
    expect(instance.parseStream("ExtractPerson", '{"name": "Ada Lo')).toEqual({ name: "Ada Lo", age: null });
    expect(() => instance.parse("ExtractPerson", "nothing here")).toThrow(BamlValidationError);
    expect(() => instance.parse("Nope", "{}")).toThrow(/Unknown function "Nope"/);
  });

  it("explains the repairs behind a parse, and reports none for exact JSON", () => {
    const instance = runtime();
    const messy = instance.explain("ExtractPerson", "{name: 'Ada Lovelace', age: \"36\",}");
    expect(messy.value).toEqual({ name: "Ada Lovelace", age: 36 });
    expect(messy.repairs.map((repair) => [repair.path, repair.kind])).toContainEqual([
      "$.age",
      "StringToInt",
    ]);
    expect(messy.explanation).toMatch(/StringToInt/);
    expect(instance.explain("ExtractPerson", PERSON).repairs).toEqual([]);
  });
});
