/**
 * "Is this partial new?" is decided once, by the stream parser: a streamed call through the real rooms
 * (mock LLM server, SSE, the Schema-Aligned Parser) compares partial values outside the parser only where
 * one parser's reads give way to another's (a retry). The comparisons are counted on the `samePartial`
 * that the rooms outside `sap` import (the parser's own comparisons import it from inside `sap`).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { compile } from "../language/index.js";
import { answer, type MockLlmServer, resetMidStream, startMockLlmServer } from "../testing/index.js";
import { SaplingRuntime } from "./sapling-runtime.js";

const comparisons = vi.hoisted(() => ({ count: 0 }));

vi.mock("../sap/index.js", async (importOriginal) => {
  const sap = await importOriginal<typeof import("../sap/index.js")>();
  return {
    ...sap,
    samePartial: (left: unknown, right: unknown) => {
      comparisons.count++;
      return sap.samePartial(left, right);
    },
  };
});

const SOURCE = `
class Person {
  name string
  age int
  skills string[]
  verified bool @check(is_set, {{ this or not this }})
}

retry_policy Once {
  max_retries 1
}

client<llm> Mock {
  provider openai-generic
  retry_policy Once
  options {
    base_url env.MOCK_URL
    model "mock-model"
    api_key "sk-test"
  }
}

function ExtractPerson(text: string) -> Person {
  client Mock
  prompt #"
    Extract the person from: {{ text }}
    {{ ctx.output_format }}
  "#
}
`;

const ANSWER = JSON.stringify({
  name: "Ada Lovelace",
  age: 36,
  skills: ["mathematics", "poetical science", "notes on the engine"],
  verified: true,
});

let server: MockLlmServer;

beforeAll(async () => {
  server = await startMockLlmServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  comparisons.count = 0;
  server.requests.length = 0;
});

function runtime(): SaplingRuntime {
  const { ir, diagnostics } = compile({ "main.baml": SOURCE });
  if (!ir) throw new Error(`fixture does not compile: ${JSON.stringify(diagnostics)}`);
  return SaplingRuntime.fromIr(ir, { env: { MOCK_URL: server.baseUrls.openai }, sleep: async () => {} });
}

async function streamAll(): Promise<{ partials: unknown[]; final: unknown }> {
  const stream = runtime().stream("ExtractPerson", { text: "Ada" }, { partialIntervalMs: 0 });
  const partials: unknown[] = [];
  for await (const partial of stream) partials.push(partial);
  return { partials, final: await stream.getFinalResponse() };
}

describe("a streamed call decides whether a partial is new once", () => {
  it("compares no partial outside the parser while one parser reads the answer", async () => {
    server.script(answer(ANSWER, { chunkSize: 3, chunkDelayMs: 1 }));
    const { partials, final } = await streamAll();
    expect(final).toMatchObject({ name: "Ada Lovelace", age: 36 });
    expect(partials.length).toBeGreaterThan(5);
    expect(new Set(partials.map((partial) => JSON.stringify(partial))).size).toBe(partials.length);
    expect(comparisons.count).toBe(0);
  });

  it("compares once where the tool calls take over from the text", async () => {
    server.script(
      answer(`Here: ${ANSWER}`, {
        chunkSize: 3,
        chunkDelayMs: 1,
        toolCalls: [{ name: "ExtractPerson", arguments: ANSWER.replace("Ada", "Augusta Ada") }],
      }),
    );
    const { partials, final } = await streamAll();
    expect(final).toMatchObject({ name: "Augusta Ada Lovelace", age: 36 });
    expect(partials.length).toBeGreaterThan(5);
    expect(partials).toContainEqual(expect.objectContaining({ name: "Ada Lovelace" }));
    expect(partials.at(-1)).toMatchObject({ name: "Augusta Ada Lovelace" });
    expect(comparisons.count).toBeLessThanOrEqual(1);
  });

  it("compares once where a retry's parser takes over", async () => {
    server.script(
      resetMidStream(ANSWER, 8, { chunkSize: 3, chunkDelayMs: 1 }),
      answer(ANSWER, { chunkSize: 3, chunkDelayMs: 1 }),
    );
    const { partials, final } = await streamAll();
    expect(server.requests).toHaveLength(2);
    expect(final).toMatchObject({ name: "Ada Lovelace", age: 36 });
    // The retry shows the answer again from its start, each partial different from the one before.
    const shown = partials.map((partial) => JSON.stringify(partial));
    expect(shown.filter((text, index) => index > 0 && text === shown[index - 1])).toEqual([]);
    expect(comparisons.count).toBeLessThanOrEqual(1);
  });
});
