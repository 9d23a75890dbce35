/**
 * OpenTelemetry spans of a real call against the mock LLM server, exported with the SDK's in-memory
 * exporter: a traced function, its LLM function, and the three attempts of a fallback chain, with the
 * GenAI semantic-convention attributes and Sapling's repair, outcome and cost attributes. Content is
 * recorded only when asked for.
 */
import { type Context, type ContextManager, context, ROOT_CONTEXT, trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile } from "../language/index.js";
import { SaplingRuntime } from "../runtime/index.js";
import { answer, type MockLlmServer, serverError, startMockLlmServer } from "../testing/index.js";
import { openTelemetryExporter } from "./index.js";

const KEY = "sk-otel-0123456789abcdef";
const source = `
class Person {
  name string
  age int
}
client<llm> Local {
  provider openai-generic
  options {
    base_url env.OPENAI_URL
    model "deepseek-reasoner"
    api_key env.KEY
  }
}
client<llm> Claude {
  provider anthropic
  options {
    base_url env.ANTHROPIC_URL
    model "claude-sonnet-4-20250514"
    api_key env.KEY
  }
}
client<llm> Mini {
  provider openai
  options {
    base_url env.OPENAI_URL
    model "gpt-4o-mini"
    api_key env.KEY
  }
}
client<llm> Chain {
  provider fallback
  options {
    strategy [Local, Claude, Mini]
  }
}
function ExtractPerson(text: string) -> Person {
  client Chain
  prompt #"
    Extract the person from: {{ text }}
    {{ ctx.output_format }}
  "#
}
`;

let server: MockLlmServer;
beforeAll(async () => {
  server = await startMockLlmServer();
});
afterAll(async () => {
  await server.close();
});

function setup(recordContent: boolean) {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] });
  const { ir } = compile({ "main.baml": source });
  const runtime = SaplingRuntime.fromIr(ir, {
    env: { KEY, OPENAI_URL: server.baseUrls.openai, ANTHROPIC_URL: server.baseUrls.anthropic },
  });
  runtime.tracing.addExporter(openTelemetryExporter({ tracerProvider: provider, recordContent }));
  return { memory, runtime };
}

function byName(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const span = spans.find((candidate) => candidate.name === name);
  if (span === undefined) throw new Error(`no span ${name} in ${spans.map((each) => each.name).join(", ")}`);
  return span;
}

describe("OpenTelemetry export", () => {
  it("exports a traced function > LLM function > three fallback attempts, with GenAI attributes", async () => {
    server.scriptFor("openai", serverError(503, "busy"));
    server.scriptFor("anthropic", serverError(529, "Overloaded"));
    // Fenced and with a quoted number: two repairs.
    server.scriptFor(
      "openai",
      answer('```json\n{"name": "Ada Lovelace", "age": "36"}\n```', {
        usage: { inputTokens: 2_000, cachedInputTokens: 1_000, outputTokens: 100 },
      }),
    );
    const { memory, runtime } = setup(false);
    const handle = runtime.tracing.traceAsync("HandleRequest", (text: string) =>
      runtime.call("ExtractPerson", { text }),
    );
    expect(await handle("Ada, 36")).toEqual({ name: "Ada Lovelace", age: 36 });
    const spans = memory.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual([
      "chat deepseek-reasoner",
      "chat claude-sonnet-4-20250514",
      "chat gpt-4o-mini",
      "ExtractPerson",
      "HandleRequest",
    ]);
    const root = byName(spans, "HandleRequest");
    const fn = byName(spans, "ExtractPerson");
    const attempts = spans.slice(0, 3);
    const idOf = (span: ReadableSpan) => span.spanContext().spanId;
    expect(root.parentSpanContext).toBeUndefined();
    expect(fn.parentSpanContext?.spanId).toBe(idOf(root));
    expect(attempts.map((span) => span.parentSpanContext?.spanId)).toEqual([idOf(fn), idOf(fn), idOf(fn)]);
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);

    expect(attempts.map((span) => span.attributes["gen_ai.provider.name"])).toEqual([
      "openai-generic",
      "anthropic",
      "openai",
    ]);
    expect(attempts.map((span) => span.attributes["http.response.status_code"])).toEqual([503, 529, 200]);
    expect(attempts.map((span) => span.attributes["error.type"])).toEqual(["503", "529", undefined]);
    expect(attempts.map((span) => span.status.code)).toEqual([2, 2, 0]);
    const mini = attempts[2] as ReadableSpan;
    expect(mini.kind).toBe(2); // CLIENT
    expect(mini.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "gpt-4o-mini",
      "gen_ai.response.model": "gpt-4o-mini",
      "gen_ai.usage.input_tokens": 2_000,
      "gen_ai.usage.output_tokens": 100,
      "gen_ai.response.finish_reasons": ["stop"],
      "sapling.usage.cached_input_tokens": 1_000,
      "sapling.client.name": "Mini",
      "sapling.attempt.selected": true,
      "server.address": "127.0.0.1",
    });
    // gpt-4o-mini: 1,000 input at 0.15, 1,000 cached at 0.075, 100 output at 0.60 per million.
    const cost = (1_000 * 0.15 + 1_000 * 0.075 + 100 * 0.6) / 1_000_000;
    expect(mini.attributes["sapling.cost.usd"]).toBeCloseTo(cost, 12);
    expect(fn.attributes).toMatchObject({
      "sapling.function.name": "ExtractPerson",
      "sapling.attempts": 3,
      "sapling.client.name": "Mini",
      "sapling.parse.outcome": "repaired",
      "sapling.repairs.count": 2,
      "gen_ai.usage.input_tokens": 2_000,
    });
    expect(fn.attributes["sapling.repairs"]).toEqual(expect.arrayContaining(["FromFence", "StringToInt"]));
    expect(fn.attributes["sapling.cost.usd"]).toBeCloseTo(cost, 12);
    expect(root.attributes["sapling.span.kind"]).toBe("trace");
    // Content is off by default, and no span carries the key.
    for (const span of spans) {
      expect(span.attributes["gen_ai.input.messages"]).toBeUndefined();
      expect(span.attributes["gen_ai.output.messages"]).toBeUndefined();
      expect(JSON.stringify(span.attributes)).not.toContain(KEY);
    }
  });

  it("records prompts and answers when asked, and the failure of a call", async () => {
    server.scriptFor("openai", answer('{"name": "Ada", "age": 36}', { reasoning: "It says Ada." }));
    const { memory, runtime } = setup(true);
    await runtime.call("ExtractPerson", { text: "Ada, 36" }, { client: "Local" });
    const attempt = byName(memory.getFinishedSpans(), "chat deepseek-reasoner");
    expect(JSON.parse(String(attempt.attributes["gen_ai.input.messages"]))[0].parts[0].content).toContain(
      "Extract the person from: Ada, 36",
    );
    expect(JSON.parse(String(attempt.attributes["gen_ai.output.messages"]))).toEqual([
      {
        role: "assistant",
        parts: [
          { type: "reasoning", content: "It says Ada." },
          { type: "text", content: '{"name": "Ada", "age": 36}' },
        ],
        finish_reason: "stop",
      },
    ]);

    memory.reset();
    server.scriptFor("openai", answer("I cannot help with that."));
    await expect(runtime.call("ExtractPerson", { text: "x" }, { client: "Local" })).rejects.toThrow();
    const fn = byName(memory.getFinishedSpans(), "ExtractPerson");
    expect(fn.status.code).toBe(2);
    expect(fn.attributes["sapling.parse.outcome"]).toBe("unparsed");
  });

  it("starts root spans under the application's active span", async () => {
    server.scriptFor("openai", answer('{"name": "Ada", "age": 36}'));
    const { memory, runtime } = setup(false);
    // A minimal context manager (applications use @opentelemetry/context-async-hooks): the context active
    // when the call starts is the application's request span.
    const stack: Context[] = [];
    const manager: ContextManager = {
      active: () => stack.at(-1) ?? ROOT_CONTEXT,
      with: (active, fn, thisArg, ...args) => {
        stack.push(active);
        try {
          return fn.call(thisArg, ...args);
        } finally {
          stack.pop();
        }
      },
      bind: (_context, target) => target,
      enable: () => manager,
      disable: () => manager,
    };
    context.setGlobalContextManager(manager);
    try {
      const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] });
      const request = provider.getTracer("app").startSpan("GET /people");
      await context.with(trace.setSpan(context.active(), request), () =>
        runtime.call("ExtractPerson", { text: "Ada" }, { client: "Local" }),
      );
      request.end();
      const fn = byName(memory.getFinishedSpans(), "ExtractPerson");
      expect(fn.spanContext().traceId).toBe(request.spanContext().traceId);
      expect(fn.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    } finally {
      context.disable();
    }
  });
});
