/**
 * Observability through the whole runtime against the mock LLM server: `onTick` with the reasoning text
 * so far for each provider that has reasoning, cost from the price table checked by hand, the info /
 * debug log lines (keys redacted), the call-option check, and spans nested traced function > LLM function
 * > attempts, with their log events.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { awsBedrock } from "../aws-bedrock/index.js";
import type { Ir } from "../ir/index.js";
import { compile } from "../language/index.js";
import {
  answer,
  type MockLlmServer,
  mockAwsCredentials,
  serverError,
  startMockLlmServer,
} from "../testing/index.js";
import { Collector, type FunctionLog, type LlmStreamCall } from "./collector.js";
import { BamlInvalidArgumentError } from "./errors.js";
import { getLogLevel, setLogLevel } from "./log.js";
import { SaplingRuntime } from "./sapling-runtime.js";
import type { BamlLogEvent, SpanRecord } from "./tracing.js";

const KEY = "sk-observe-0123456789abcdef";
const ANSWER = '{"name": "Ada Lovelace", "age": 36}';
const REASONING = "The text names Ada Lovelace; her age is given as 36.";

function project(): Ir {
  const leaf = (name: string, provider: string, model: string, options: string) => `
client<llm> ${name} {
  provider ${provider}
  options {
    model "${model}"
    ${options}
  }
}`;
  const source = `
class Person {
  name string
  age int
}
${leaf("DeepSeek", "openai-generic", "deepseek-reasoner", "base_url env.OPENAI_URL\n    api_key env.KEY")}
${leaf("Responses", "openai-responses", "o4-mini", "base_url env.RESPONSES_URL\n    api_key env.KEY")}
${leaf("Claude", "anthropic", "claude-sonnet-4-20250514", "base_url env.ANTHROPIC_URL\n    api_key env.KEY")}
${leaf("Gemini", "google-ai", "gemini-2.5-flash", "base_url env.GEMINI_URL\n    api_key env.KEY")}
${leaf("Bedrock", "aws-bedrock", "anthropic.claude-3-5-haiku", `endpoint_url env.BEDROCK_URL\n    region "us-east-1"\n    access_key_id "${mockAwsCredentials.accessKeyId}"\n    secret_access_key "${mockAwsCredentials.secretAccessKey}"`)}
${leaf("Unpriced", "openai-generic", "my-local-model", "base_url env.OPENAI_URL")}
client<llm> Chain {
  provider fallback
  options {
    strategy [DeepSeek, Claude, Responses]
  }
}

function ExtractPerson(text: string) -> Person {
  client DeepSeek
  prompt #"
    Extract the person from: {{ text }}
    {{ ctx.output_format }}
  "#
}
`;
  const { ir, diagnostics } = compile({ "main.baml": source });
  if (!ir) throw new Error(JSON.stringify(diagnostics));
  return ir;
}

let server: MockLlmServer;
let ir: Ir;
beforeAll(async () => {
  server = await startMockLlmServer();
  ir = project();
});
afterAll(async () => {
  await server.close();
});

function runtime(extra: Parameters<typeof SaplingRuntime.fromIr>[1] = {}): SaplingRuntime {
  return SaplingRuntime.fromIr(ir, {
    providers: [awsBedrock],
    env: {
      KEY,
      OPENAI_URL: server.baseUrls.openai,
      RESPONSES_URL: server.baseUrls.responses,
      ANTHROPIC_URL: server.baseUrls.anthropic,
      GEMINI_URL: server.baseUrls.gemini,
      BEDROCK_URL: server.baseUrls.bedrock,
    },
    sleep: async () => {},
    ...extra,
  });
}

const reasoningClients = [
  ["DeepSeek", "openai"],
  ["Responses", "responses"],
  ["Claude", "anthropic"],
  ["Gemini", "gemini"],
  ["Bedrock", "bedrock"],
] as const;

describe("onTick", () => {
  for (const [client, route] of reasoningClients) {
    for (const mode of ["call", "stream"] as const) {
      it(`fires during ${mode === "call" ? "b.Fn" : "b.stream.Fn"} on ${client}, with the reasoning so far`, async () => {
        server.scriptFor(route, answer(ANSWER, { reasoning: REASONING, chunkSize: 10 }));
        const seen: { reason: string; reasoning: string | null; text: string | null }[] = [];
        const onTick = (reason: string, log: FunctionLog | null) => {
          const last = log?.calls.at(-1);
          seen.push({ reason, reasoning: last?.reasoning ?? null, text: last?.rawText ?? null });
        };
        const value =
          mode === "call"
            ? await runtime().call("ExtractPerson", { text: "Ada, 36" }, { client, onTick })
            : await runtime()
                .stream("ExtractPerson", { text: "Ada, 36" }, { client, onTick })
                .getFinalResponse();
        expect(value).toEqual({ name: "Ada Lovelace", age: 36 });
        // One tick per reasoning chunk and per text chunk, and one as the attempt ends.
        expect(seen).toHaveLength(Math.ceil(REASONING.length / 10) + Math.ceil(ANSWER.length / 10) + 1);
        expect(seen.every((tick) => tick.reason === "Unknown")).toBe(true);
        expect(seen[0]).toEqual({ reason: "Unknown", reasoning: REASONING.slice(0, 10), text: null });
        const beforeText = seen.filter((tick) => tick.text === null);
        expect(beforeText.map((tick) => tick.reasoning)).toEqual(
          Array.from({ length: Math.ceil(REASONING.length / 10) }, (_, index) =>
            REASONING.slice(0, (index + 1) * 10),
          ),
        );
        expect(seen.at(-1)).toEqual({ reason: "Unknown", reasoning: REASONING, text: ANSWER });
      });
    }
  }

  it("keeps the call going when the callback throws, and says so", async () => {
    server.scriptFor("openai", answer(ANSWER, { chunkSize: 40 }));
    const lines: string[] = [];
    const value = await runtime({ logger: (level, message) => lines.push(`${level} ${message}`) }).call(
      "ExtractPerson",
      { text: "Ada" },
      {
        onTick: () => {
          throw new Error("tick broke");
        },
      },
    );
    expect(value).toEqual({ name: "Ada Lovelace", age: 36 });
    expect(
      lines.filter((line) => line.includes("onTick callback for ExtractPerson failed: tick broke")),
    ).toHaveLength(2);
  });
});

describe("call options", () => {
  it("refuses an option Sapling does not know, naming it", async () => {
    const before = server.requests.length;
    const error = await runtime()
      .call("ExtractPerson", { text: "Ada" }, { colector: new Collector() } as never)
      .catch((caught: unknown) => caught);
    expect(BamlInvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /^Unknown call option "colector"\. Sapling's call options are: client, /,
    );
    expect(server.requests.length).toBe(before);
  });

  it("warns once about BAML's watchers and goes on", async () => {
    server.scriptFor("openai", answer(ANSWER), answer(ANSWER));
    const lines: string[] = [];
    const observed = runtime({ logger: (level, message) => lines.push(`${level} ${message}`) });
    await observed.call("ExtractPerson", { text: "Ada" }, { watchers: {} } as never);
    await observed.call("ExtractPerson", { text: "Ada" }, { watchers: {} } as never);
    expect(lines.filter((line) => line.startsWith("warn"))).toEqual([
      `warn The call option "watchers" (BAML's expression-function watchers (Sapling skips expression functions)) is ignored by Sapling.`,
    ]);
  });
});

describe("cost", () => {
  it("prices a call with cached and reasoning tokens as the table says, by hand", async () => {
    const usage = {
      inputTokens: 12_000,
      cachedInputTokens: 8_000,
      outputTokens: 3_000,
      reasoningTokens: 2_000,
    };
    server.scriptFor("openai", answer(ANSWER, { reasoning: REASONING, usage }));
    const collector = new Collector();
    await runtime().call("ExtractPerson", { text: "Ada" }, { collector });
    // deepseek-reasoner: input 0.55, cached input 0.14, output 2.19 (reasoning billed as output) per 1M.
    const byHand = (4_000 * 0.55 + 8_000 * 0.14 + 1_000 * 2.19 + 2_000 * 2.19) / 1_000_000;
    expect(collector.last?.selectedCall?.costUsd).toBeCloseTo(byHand, 12);
    expect(collector.last?.costUsd).toBeCloseTo(byHand, 12);
    expect(collector.costUsd).toBeCloseTo(byHand, 12);
    expect(collector.last?.usage).toMatchObject({ ...usage, cacheWriteInputTokens: null });
  });

  it("prices Anthropic cache writes and lets users add or override prices", async () => {
    const usage = {
      inputTokens: 5_000,
      cachedInputTokens: 1_000,
      cacheWriteInputTokens: 3_000,
      outputTokens: 400,
    };
    server.scriptFor("anthropic", answer(ANSWER, { usage }));
    const collector = new Collector();
    await runtime({
      prices: { "claude-sonnet-4": { input: 1, output: 2, cachedInput: 0.5, cacheWrite: 4 } },
    }).call("ExtractPerson", { text: "Ada" }, { client: "Claude", collector });
    expect(collector.last?.costUsd).toBeCloseTo(
      (1_000 * 1 + 1_000 * 0.5 + 3_000 * 4 + 400 * 2) / 1_000_000,
      12,
    );
  });

  it("has no cost for a model the table does not name, never a guess", async () => {
    server.scriptFor("openai", answer(ANSWER));
    const collector = new Collector();
    await runtime().call("ExtractPerson", { text: "Ada" }, { client: "Unpriced", collector });
    expect(collector.last?.selectedCall?.costUsd).toBeNull();
    expect(collector.last?.costUsd).toBeNull();
    expect(collector.costUsd).toBeNull();
  });
});

describe("logging", () => {
  it("writes one info line per call, and the prompt and raw answer at debug, keys redacted", async () => {
    const echo = `{"name": "Ada Lovelace", "age": 36, "note": "${KEY}"}`;
    server.scriptFor(
      "openai",
      answer(echo, { usage: { inputTokens: 100, outputTokens: 20 } }),
      answer(ANSWER),
    );
    const lines: { level: string; message: string }[] = [];
    const logged = runtime({ logger: (level, message) => lines.push({ level, message }) });
    await logged.call("ExtractPerson", { text: `my key is ${KEY}` });
    expect(lines.map((line) => line.level)).toEqual(["info"]);
    expect(lines[0]?.message).toMatch(
      /^ExtractPerson ok client=DeepSeek model=deepseek-reasoner latency=\d+ms tokens=100 in \/ 20 out cost=\$[0-9.e-]+ repairs=\d+$/,
    );
    lines.length = 0;
    logged.setLogLevel("debug");
    expect(logged.getLogLevel()).toBe("debug");
    await logged.call("ExtractPerson", { text: `my key is ${KEY}` });
    const debug = lines.filter((line) => line.level === "debug").map((line) => line.message);
    expect(debug[1]).toMatch(
      /^ExtractPerson: prompt for client DeepSeek:\nsystem: Extract the person from: my key is \[REDACTED\]/,
    );
    expect(debug[2]).toBe(`ExtractPerson: raw answer from client DeepSeek:\n${ANSWER}`);
    expect(JSON.stringify(lines)).not.toContain(KEY);
    logged.setLogLevel("off");
    lines.length = 0;
    server.scriptFor("openai", answer(ANSWER));
    await logged.call("ExtractPerson", { text: "Ada" });
    expect(lines).toEqual([]);
  });
});

describe("the process's log level (BAML's package-level getLogLevel / setLogLevel)", () => {
  it("is followed by every runtime without a level of its own, and not by one with its own", async () => {
    const lines: string[] = [];
    const follows = runtime({ logger: (level) => lines.push(`follows ${level}`) });
    const pinned = runtime({ logger: (level) => lines.push(`pinned ${level}`), logLevel: "info" });
    expect(getLogLevel()).toBe("info");
    try {
      setLogLevel("off");
      expect(follows.getLogLevel()).toBe("off");
      expect(pinned.getLogLevel()).toBe("info");
      server.scriptFor("openai", answer(ANSWER), answer(ANSWER));
      await follows.call("ExtractPerson", { text: "Ada" });
      await pinned.call("ExtractPerson", { text: "Ada" });
      expect(lines).toEqual(["pinned info"]);
      setLogLevel("warn");
      expect(getLogLevel()).toBe("warn");
      expect(follows.getLogLevel()).toBe("warn");
    } finally {
      setLogLevel("info");
    }
  });
});

describe("LlmStreamCall.sseResponses()", () => {
  it("lists a streamed attempt's events in order; a whole answer's attempt has no such method", async () => {
    server.scriptFor("openai", answer(ANSWER, { chunkSize: 12 }), answer(ANSWER));
    const collector = new Collector();
    await runtime().stream("ExtractPerson", { text: "Ada" }, { collector }).getFinalResponse();
    await runtime().call("ExtractPerson", { text: "Ada" }, { collector });
    const [streamed, whole] = collector.logs.map((log) => log.calls.at(-1));
    if (!streamed || !("sseResponses" in streamed))
      throw new Error("the streamed attempt has no sseResponses");
    const events = (streamed as LlmStreamCall).sseResponses() ?? [];
    // The same events the response body logs, each readable as JSON (the last is OpenAI's `[DONE]`).
    expect(events.map((event) => event.text)).toEqual(streamed.httpResponse?.body);
    const deltas = events
      .filter((event) => event.text !== "[DONE]")
      .map((event) => event.json().choices?.[0]?.delta?.content ?? "")
      .join("");
    expect(deltas).toBe(ANSWER);
    expect(whole && "sseResponses" in whole).toBe(false);
    // Not enumerable: the log serializes as before.
    expect(Object.keys(streamed)).not.toContain("sseResponses");
  });
});

describe("tracing", () => {
  it("nests a traced function > LLM function > every attempt of a fallback chain, with log events", async () => {
    server.scriptFor("openai", serverError(500));
    server.scriptFor("anthropic", serverError(529, "Overloaded"));
    server.scriptFor("responses", answer(ANSWER, { reasoning: REASONING }));
    const traced = runtime();
    const ended: SpanRecord[] = [];
    const events: BamlLogEvent[] = [];
    traced.tracing.addExporter({ onEnd: (span) => ended.push({ ...span }) });
    traced.tracing.onLogEvent((event) => events.push(event));
    const handle = traced.tracing.traceAsync("HandleRequest", async (text: string) => {
      traced.tracing.setTags({ request: "r-1" });
      return traced.call("ExtractPerson", { text }, { client: "Chain" });
    });
    expect(await handle("Ada, 36")).toEqual({ name: "Ada Lovelace", age: 36 });
    await traced.tracing.flush();
    const [first, second, third, fn, root] = ended;
    expect(ended.map((span) => [span.kind, span.name])).toEqual([
      ["attempt", "DeepSeek"],
      ["attempt", "Claude"],
      ["attempt", "Responses"],
      ["function", "ExtractPerson"],
      ["trace", "HandleRequest"],
    ]);
    expect(root?.parentId).toBeNull();
    expect(fn?.parentId).toBe(root?.id);
    expect([first, second, third].map((span) => span?.parentId)).toEqual([fn?.id, fn?.id, fn?.id]);
    expect(new Set(ended.map((span) => span.rootId))).toEqual(new Set([root?.id]));
    expect(fn?.tags).toEqual({ request: "r-1" });
    expect(fn?.functionLog?.tags).toEqual({ request: "r-1" });
    expect([first, second, third].map((span) => span?.error === null)).toEqual([false, false, true]);
    expect(third?.call?.reasoning).toBe(REASONING);
    expect(events.map((event) => event.metadata)).toEqual([
      { eventId: fn?.id, parentId: root?.id, rootEventId: root?.id },
      { eventId: root?.id, rootEventId: root?.id },
    ]);
    expect(events[0]?.rawOutput).toBe(ANSWER);
    expect(events[0]?.prompt).toContain("Extract the person from: Ada, 36");
    expect(JSON.parse(events[0]?.parsedOutput ?? "null")).toEqual({ name: "Ada Lovelace", age: 36 });
    expect(events[1]?.parsedOutput).toBe(events[0]?.parsedOutput);
    expect(events[1]?.startTime).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("keeps concurrent traced functions apart, and traceSync spans synchronous work", async () => {
    server.scriptFor("openai", answer(ANSWER), answer(ANSWER));
    const traced = runtime();
    const ended: SpanRecord[] = [];
    traced.tracing.addExporter({ onEnd: (span) => ended.push(span) });
    const one = traced.tracing.traceAsync("One", () => traced.call("ExtractPerson", { text: "a" }));
    const two = traced.tracing.traceAsync("Two", () => traced.call("ExtractPerson", { text: "b" }));
    await Promise.all([one(), two()]);
    const byId = new Map(ended.map((span) => [span.id, span]));
    for (const fn of ended.filter((span) => span.kind === "function")) {
      const parent = byId.get(fn.parentId ?? "");
      expect(parent?.kind).toBe("trace");
      expect(fn.rootId).toBe(parent?.id);
    }
    expect(new Set(ended.filter((span) => span.kind === "function").map((span) => span.parentId)).size).toBe(
      2,
    );
    const sum = traced.tracing.traceSync("Sum", (left: number, right: number) => left + right);
    expect(sum(2, 3)).toBe(5);
    expect(ended.at(-1)).toMatchObject({ kind: "trace", name: "Sum", output: 5, parentId: null });
  });
});
