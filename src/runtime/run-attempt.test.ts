/**
 * The attempt loop against real provider adapters and the mock LLM server: retries, fallback, faults,
 * streaming, abort, re-ask and redaction. The prompt and parser are a minimal stand-in for one function
 * (answers are numbers), so these tests isolate orchestration; `sapling-runtime.test.ts` runs whole
 * functions through the real prompt renderer and parser.
 */
import { createServer } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Client, emptyIr, type Ir, IrIndex, t } from "../ir/index.js";
import {
  answer,
  type MockLlmServer,
  resetMidStream,
  serverError,
  slowFirstToken,
  startMockLlmServer,
} from "../testing/index.js";
import { startCallRecord } from "./call-record.js";
import { CallRecorder } from "./call-recorder.js";
import { resolveClientTree } from "./client-tree.js";
import { Collector } from "./collector.js";
import {
  BamlAbortError,
  BamlAllClientsFailedError,
  BamlClientHttpError,
  BamlMissingEnvVarError,
  BamlValidationError,
} from "./errors.js";
import { executePlan } from "./execute-plan.js";
import { type FunctionPipeline, promptToText } from "./function-pipeline.js";
import { createOutputPlan } from "./output-plan.js";
import { planAttempts } from "./plan-attempts.js";
import { createRoundRobinPicker } from "./round-robin-picker.js";
import { runAttempt } from "./run-attempt.js";

const SECRET = "sk-test-secret-0123456789";

const intPlan = createOutputPlan(emptyIr(), new IrIndex(emptyIr()), "Pick", t.int(), "prompt");

const numberPipeline: FunctionPipeline = {
  render: async (client) => [
    { role: "user", parts: [{ type: "text", text: `Pick a number (${client.name}).` }] },
  ],
  outputPlan: () => intPlan,
  parseFinal: (answer, messages) => {
    const text = typeof answer === "string" ? answer : answer.text;
    const value = Number(text.trim());
    if (text.trim() === "" || Number.isNaN(value)) {
      throw new BamlValidationError(
        `expected a number, found ${JSON.stringify(text)}`,
        promptToText(messages),
        text,
        undefined,
      );
    }
    return { value, repairs: [], toolCalls: [] };
  },
  createPartialParser: () => {
    let buffer = "";
    let shown = "";
    return {
      append: (chunk) => {
        buffer += chunk;
      },
      pushToolCall: () => undefined,
      read: () => {
        const changed = buffer !== shown;
        shown = buffer;
        return { changed, value: buffer };
      },
    };
  },
  parsePartial: (text) => text,
};

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let server: MockLlmServer;
let deadPort: number;

beforeAll(async () => {
  server = await startMockLlmServer();
  deadPort = await closedPort();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

function openai(name: string, baseUrl: string, extra: Client["options"] = {}, retryPolicy?: string): Client {
  return {
    name,
    provider: "openai-generic",
    options: {
      base_url: { kind: "string", value: baseUrl },
      api_key: { kind: "env", name: "TEST_KEY" },
      model: { kind: "string", value: "mock-model" },
      ...extra,
    },
    ...(retryPolicy ? { retryPolicy } : {}),
  };
}

function project(): IrIndex {
  const ir: Ir = {
    ...emptyIr(),
    clients: [
      openai("Unreachable", `http://127.0.0.1:${deadPort}/v1`),
      openai("Flaky", server.baseUrls.openai, {}, "TwoRetries"),
      openai("Healthy", server.baseUrls.openai),
      {
        name: "Chain",
        provider: "fallback",
        options: {
          strategy: {
            kind: "array",
            items: ["Unreachable", "Flaky"].map((value) => ({ kind: "string" as const, value })),
          },
        },
      },
    ],
    retryPolicies: [{ name: "TwoRetries", maxRetries: 2, strategy: { type: "constant_delay", delayMs: 10 } }],
  };
  return new IrIndex(ir);
}

async function run(
  clientName: string,
  options: {
    streaming?: boolean;
    reask?: number;
    signal?: AbortSignal;
    collector?: Collector;
    env?: Record<string, string>;
    pipeline?: FunctionPipeline;
  } = {},
) {
  const collector = options.collector ?? new Collector();
  const recorder = new CallRecorder(
    startCallRecord(
      { functionName: "PickNumber", logType: options.streaming ? "stream" : "call", tags: {} },
      [collector],
      Date.now,
    ),
  );
  const partials: unknown[] = [];
  const plan = planAttempts(
    resolveClientTree(clientName, project()),
    createRoundRobinPicker(() => 0),
  );
  const outcome = await executePlan(
    plan,
    (attempt) =>
      runAttempt(
        attempt.client,
        {
          pipeline: options.pipeline ?? numberPipeline,
          env: options.env ?? { TEST_KEY: SECRET },
          fetch: globalThis.fetch,
          recorder,
          reaskOnParseFailure: options.reask ?? 0,
          onText: (read) => {
            const push = read();
            if (push.changed) partials.push(push.value);
          },
          ...(options.signal ? { signal: options.signal } : {}),
        },
        options.streaming === true,
      ),
    { sleep: async () => {}, ...(options.signal ? { signal: options.signal } : {}) },
  ).then(
    (value) => ({ value, error: undefined }),
    (error: unknown) => ({ value: undefined, error }),
  );
  return { ...outcome, log: recorder.log, partials, collector };
}

describe("runAttempt over the mock LLM server", () => {
  it("recovers through an unreachable client and two HTTP 500s, recording every attempt", async () => {
    server.script(serverError(), serverError(), answer("42"));
    const { value, error, log } = await run("Chain");
    expect(error).toBeUndefined();
    expect(value).toBe(42);
    expect(
      log.calls.map((call) => [call.clientName, call.httpResponse?.status ?? null, call.selected]),
    ).toEqual([
      ["Unreachable", null, false],
      ["Flaky", 500, false],
      ["Flaky", 500, false],
      ["Flaky", 200, true],
    ]);
    expect(log.calls[0]?.error).toMatch(/connection/i);
    expect(log.selectedCall?.rawText).toBe("42");
    expect(log.rawLlmResponse).toBe("42");
    expect(log.usage.outputTokens).toBe(1);
    expect(log.calls[3]?.httpRequest?.url).toBe(`${server.baseUrls.openai}/chat/completions`);
    expect(log.calls[3]?.httpRequest?.body).toMatchObject({ model: "mock-model" });
    // BAML's readers: json() and text() on the logged bodies, never serialized with them.
    const request = log.calls[3]?.httpRequest;
    expect(request?.body.json().model).toBe("mock-model");
    expect(JSON.parse(request?.body.text() ?? "")).toEqual(JSON.parse(JSON.stringify(request?.body)));
    expect(Object.keys(request?.body ?? {})).not.toContain("json");
    expect(log.calls[3]?.httpResponse?.body.json().choices).toBeDefined();
    expect(log.calls[1]?.httpResponse?.status).toBe(500);
    expect(typeof log.calls[1]?.httpResponse?.body.text()).toBe("string");
  });

  it("never shows the API key in collector logs or errors, though it was sent", async () => {
    server.script(
      serverError(401, `Incorrect API key provided: ${SECRET}.`),
      serverError(401, `bad key ${SECRET}`),
    );
    const { error, log } = await run("Healthy");
    await run("Chain");
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(BamlClientHttpError.isInstance(error)).toBe(true);
    const http = error as BamlClientHttpError;
    expect(http.statusCode).toBe(401);
    expect(http.body).toContain("Incorrect API key provided");
    const everything = JSON.stringify({ log, message: http.message, body: http.body, stack: http.stack });
    expect(everything).not.toContain(SECRET);
    expect(log.calls[0]?.httpRequest?.headers.authorization).toBe("[REDACTED]");
  });

  it("names a missing env variable, and falls back past the client that needs it", async () => {
    const missing = await run("Healthy", { env: {} });
    expect(BamlMissingEnvVarError.isInstance(missing.error)).toBe(true);
    expect((missing.error as Error).message).toContain("env.TEST_KEY");
    expect(server.requests).toHaveLength(0);
  });

  it("lists every attempt when no client recovers", async () => {
    server.script(serverError(), serverError(503), serverError());
    const { error } = await run("Chain");
    expect(BamlAllClientsFailedError.isInstance(error)).toBe(true);
    expect((error as BamlAllClientsFailedError).attempts.map((attempt) => attempt.clientName)).toEqual([
      "Unreachable",
      "Flaky",
      "Flaky",
      "Flaky",
    ]);
  });

  it("streams text to the partial parser and the final value to the parser, with time to first token", async () => {
    server.script(answer("12345", { chunkSize: 2 }));
    const { value, partials, log } = await run("Healthy", { streaming: true });
    expect(value).toBe(12345);
    expect(partials).toEqual(["12", "1234", "12345"]);
    expect(log.logType).toBe("stream");
    expect(log.calls[0]?.timing.timeToFirstTokenMs).toBeGreaterThanOrEqual(0);
    expect(server.requests[0]?.stream).toBe(true);
  });

  it("retries a stream reset mid-way", async () => {
    server.script(resetMidStream("99999", 1, { chunkSize: 1 }), answer("7"));
    const { value, log } = await run("Flaky", { streaming: true });
    expect(value).toBe(7);
    expect(log.calls.map((call) => call.error === null)).toEqual([false, true]);
  });

  it("ends promptly on abort and leaves no connection open", async () => {
    // The first token would come after an hour: only the abort can end this call (no clock is read).
    server.script(slowFirstToken("1", 60 * 60_000));
    const controller = new AbortController();
    let openDuring = 0;
    const watcher = setInterval(() => {
      if (server.requests.length === 1 && openDuring === 0) {
        openDuring = server.connectionCount();
        controller.abort();
      }
    }, 5);
    const { error } = await run("Flaky", { streaming: true, signal: controller.signal });
    clearInterval(watcher);
    expect(BamlAbortError.isInstance(error)).toBe(true);
    expect(server.requests).toHaveLength(1);
    // Idle keep-alive sockets of earlier tests may remain; the aborted request's own socket must close
    // (undici releases it a few seconds after the body is cancelled, not at once).
    expect(openDuring).toBeGreaterThan(0);
    await expect
      .poll(() => server.connectionCount(), { timeout: 8000, interval: 100 })
      .toBeLessThan(openDuring);
    expect(server.requests).toHaveLength(1);
  });

  it("stops at an unparseable answer by default, and re-asks with the error when opted in", async () => {
    server.script(answer("many"), answer("many"), answer("3"));
    const strict = await run("Flaky");
    expect(BamlValidationError.isInstance(strict.error)).toBe(true);
    expect((strict.error as BamlValidationError).rawOutput).toBe("many");
    expect(server.requests).toHaveLength(1);

    const lenient = await run("Flaky", { reask: 2 });
    expect(lenient.value).toBe(3);
    const reasked = server.requests[2]?.body.messages as { role: string; content: unknown }[];
    expect(reasked.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(reasked[2]?.content)).toContain("expected a number");
    expect(lenient.log.calls.map((call) => call.selected)).toEqual([false, true]);
  });

  it("does not retry a failure of the partial parser as if the client had failed", async () => {
    server.script(answer("123", { chunkSize: 1 }));
    const bug = new TypeError("partial parser exploded");
    const broken: FunctionPipeline = {
      ...numberPipeline,
      createPartialParser: () => ({
        append: () => {
          throw bug;
        },
        pushToolCall: () => undefined,
        read: () => ({ changed: false, value: null }),
      }),
    };
    const { error, log } = await run("Flaky", { streaming: true, pipeline: broken });
    expect(error).toBe(bug);
    expect(server.requests).toHaveLength(1);
    expect(log.calls.map((call) => call.error)).toEqual(["partial parser exploded"]);
  });
});
