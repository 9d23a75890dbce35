/**
 * Provider batch APIs end to end against the mock LLM server: OpenAI's (file upload, batch, output and
 * error files) and Anthropic's Message Batches, with partly failed and expired batches, and a restart that
 * resumes polling instead of submitting again.
 */
import { afterEach, describe, expect, it } from "vitest";
import { compile } from "../language/index.js";
import { BamlClientError, BamlClientHttpError, SaplingRuntime } from "../runtime/index.js";
import {
  answer,
  type MockLlmServer,
  type RecordedRequest,
  serverError,
  startMockLlmServer,
} from "../testing/index.js";
import { memoryCheckpoint } from "./batch-checkpoint.js";
import type { BatchClock } from "./batch-clock.js";
import type { BatchRow } from "./batch-result.js";
import { ProviderBatchError, runProviderBatch } from "./provider-batch.js";

const source = (provider: string, baseUrl: string) => `
class Item {
  n int
  name string
}

client<llm> Batchable {
  provider ${provider}
  options {
    base_url "${baseUrl}"
    model "mock-model"
    api_key "sk-batch-test-key"
    ${provider === "anthropic" ? "max_tokens 100" : ""}
  }
}

function Read(text: string) -> Item {
  client Batchable
  prompt #"Read {{ text }} {{ ctx.output_format }}"#
}
`;

/** Virtual time: a poll interval costs nothing, and the test counts polls. */
const clock: BatchClock = { now: () => 0, sleep: async () => {} };
let server: MockLlmServer | undefined;

function respond(request: RecordedRequest) {
  const n = /item-(\d+)/.exec(request.promptText)?.[1] ?? "?";
  if (request.promptText.includes("broken")) return serverError(400, "invalid request for item");
  if (request.promptText.includes("unreadable"))
    return answer("no idea", { usage: { inputTokens: 500_000, outputTokens: 125_000 } });
  // $1 at the list price `prices` gives (half a million input tokens at $1, an eighth of a million output at $4).
  return answer(`{"n": "${n}", "name": "item ${n}",}`, {
    usage: { inputTokens: 500_000, outputTokens: 125_000 },
  });
}

const prices = { "mock-model": { input: 1, output: 4 } };

async function setup(
  provider: "openai" | "anthropic",
  batches: { pollsUntilDone?: number; expireAfter?: number } = {},
) {
  server = await startMockLlmServer({ respond, batches });
  const compiled = compile({
    "main.baml": source(provider, provider === "openai" ? server.baseUrls.openai : server.baseUrls.anthropic),
  });
  if (!compiled.ir) throw new Error(JSON.stringify(compiled.diagnostics));
  return SaplingRuntime.fromIr(compiled.ir, { prices });
}

function rows(texts: string[]): BatchRow[] {
  return texts.map((text, index) => ({ id: `row-${index}`, args: { text } }));
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.each(["openai", "anthropic"] as const)("runProviderBatch on %s", (provider) => {
  it("submits one batch, polls it, and parses every answer with SAP", async () => {
    const runtime = await setup(provider, { pollsUntilDone: 3 });
    const statuses: string[] = [];
    const report = await runProviderBatch(
      runtime,
      "Read",
      rows(["item-1", "item-2", "item-3 unreadable", "item-4 broken"]),
      {
        clock,
        pollIntervalMs: 1000,
        onPoll: (batch) => statuses.push(batch.status),
      },
    );
    expect(server?.batches).toEqual([{ provider, id: expect.any(String), size: 4 }]);
    expect(statuses.at(-1)).toBe(provider === "openai" ? "completed" : "ended");
    expect(statuses).toHaveLength(4);
    expect(report.results.slice(0, 2)).toEqual([
      { id: "row-0", ok: true, value: { n: 1, name: "item 1" }, raw: '{"n": "1", "name": "item 1",}' },
      { id: "row-1", ok: true, value: { n: 2, name: "item 2" }, raw: '{"n": "2", "name": "item 2",}' },
    ]);
    expect(report.results[2]).toMatchObject({
      ok: false,
      error: { type: "BamlValidationError" },
      raw: "no idea",
    });
    expect(report.results[3]).toMatchObject({
      ok: false,
      error: { type: "BamlClientHttpError", status: 400 },
    });
    // Three answers (two read, one unreadable) at half the list price; the HTTP error cost nothing.
    expect(report.progress).toMatchObject({ succeeded: 2, failed: 2, costUsd: 1.5 });
    // The chat requests of the batch were never sent as calls of their own.
    expect(server?.requests).toEqual([]);
  });

  it("an expired batch leaves its unanswered rows failed as expired; retryFailed submits only them", async () => {
    const runtime = await setup(provider, { expireAfter: 2 });
    const checkpoint = memoryCheckpoint();
    const first = await runProviderBatch(runtime, "Read", rows(["item-1", "item-2", "item-3", "item-4"]), {
      clock,
      checkpoint,
    });
    expect(first.results.map((result) => result?.ok)).toEqual([true, true, false, false]);
    expect(first.results[3]).toMatchObject({ error: { type: "ProviderBatchExpired" } });
    await server?.close();
    server = await startMockLlmServer({ respond });
    const second = await runProviderBatch(
      await rebind(provider),
      "Read",
      rows(["item-1", "item-2", "item-3", "item-4"]),
      { clock, checkpoint, retryFailed: true },
    );
    expect(server.batches.map((batch) => batch.size)).toEqual([2]);
    expect(second.results.map((result) => result?.ok)).toEqual([true, true, true, true]);
  });

  it("a restart with a submitted batch in the checkpoint polls it instead of submitting again", async () => {
    const runtime = await setup(provider, { pollsUntilDone: 5 });
    const checkpoint = memoryCheckpoint();
    const controller = new AbortController();
    const stopping = runProviderBatch(runtime, "Read", rows(["item-1", "item-2"]), {
      clock,
      checkpoint,
      signal: controller.signal,
      onPoll: () => controller.abort(new Error("killed")),
    });
    await expect(stopping).rejects.toThrow("killed");
    expect(checkpoint.state.providerBatches).toHaveLength(1);
    expect(JSON.stringify(checkpoint.state.providerBatches)).not.toContain("sk-batch-test-key");
    const resumed = await runProviderBatch(runtime, "Read", rows(["item-1", "item-2"]), {
      clock,
      checkpoint,
    });
    expect(server?.batches).toHaveLength(1);
    expect(resumed.results.every((result) => result?.ok)).toBe(true);
  });

  it("splits rows above the batch limit into several batches, all recorded before the first poll", async () => {
    const runtime = await setup(provider, { pollsUntilDone: 2 });
    const checkpoint = memoryCheckpoint();
    const items = rows(Array.from({ length: 8 }, (_, index) => `item-${index}`));
    const recordedAtFirstPoll: number[] = [];
    const controller = new AbortController();
    const stopping = runProviderBatch(runtime, "Read", items, {
      clock,
      checkpoint,
      batchLimits: { requests: 3 },
      signal: controller.signal,
      onPoll: () => {
        recordedAtFirstPoll.push(checkpoint.state.providerBatches.length);
        controller.abort(new Error("killed"));
      },
    });
    await expect(stopping).rejects.toThrow("killed");
    expect(recordedAtFirstPoll).toEqual([3]);
    expect(server?.batches.map((batch) => batch.size)).toEqual([3, 3, 2]);
    expect(checkpoint.state.providerBatches.map((record) => record.rows)).toEqual([
      ["row-0", "row-1", "row-2"],
      ["row-3", "row-4", "row-5"],
      ["row-6", "row-7"],
    ]);

    // A rerun polls all three and submits nothing.
    const polled = new Set<string>();
    const resumed = await runProviderBatch(runtime, "Read", items, {
      clock,
      checkpoint,
      batchLimits: { requests: 3 },
      onPoll: (batch) => polled.add(batch.id),
    });
    expect(server?.batches).toHaveLength(3);
    expect([...polled].sort()).toEqual(checkpoint.state.providerBatches.map((record) => record.id).sort());
    expect(resumed.results.map((result) => result?.ok && result.value)).toEqual(
      Array.from({ length: 8 }, (_, n) => ({ n, name: `item ${n}` })),
    );
  });

  it("splits by bytes as well as by count", async () => {
    const runtime = await setup(provider);
    // Room for one request (its body and a few dozen bytes around it) but not two.
    const body = JSON.stringify(
      (await runtime.buildRequest("Read", { text: "item-1" }, { stream: false })).body,
    ).length;
    const report = await runProviderBatch(runtime, "Read", rows(["item-1", "item-2", "item-3"]), {
      clock,
      batchLimits: { bytes: 64 + 2 * body },
    });
    expect(server?.batches.map((batch) => batch.size)).toEqual([1, 1, 1]);
    expect(report.results.every((result) => result?.ok)).toBe(true);
    await expect(
      runProviderBatch(runtime, "Read", rows(["item-9"]), { clock, batchLimits: { bytes: 100 } }),
    ).rejects.toThrow(/row "row-0"'s request is \d+ bytes, more than a provider batch holds \(100 bytes\)/);
  });
});

async function rebind(provider: "openai" | "anthropic") {
  const compiled = compile({
    "main.baml": source(
      provider,
      provider === "openai"
        ? (server as MockLlmServer).baseUrls.openai
        : (server as MockLlmServer).baseUrls.anthropic,
    ),
  });
  if (!compiled.ir) throw new Error("no IR");
  return SaplingRuntime.fromIr(compiled.ir);
}

describe("runProviderBatch refuses", () => {
  it("a client whose provider has no batch API, saying which endpoint it sends to", async () => {
    server = await startMockLlmServer({ respond });
    const compiled = compile({
      "main.baml": source("google-ai", `${server.baseUrls.gemini}`).replace(
        'api_key "sk-batch-test-key"',
        'api_key "k"',
      ),
    });
    if (!compiled.ir) throw new Error(JSON.stringify(compiled.diagnostics));
    await expect(
      runProviderBatch(SaplingRuntime.fromIr(compiled.ir), "Read", rows(["item-1"]), { clock }),
    ).rejects.toThrow(ProviderBatchError);
  });
});

describe("runProviderBatch fails as a call fails", () => {
  /** A port on 127.0.0.1 that nothing listens on (bound, then closed). */
  async function closedPort(): Promise<number> {
    const probe = await startMockLlmServer({ respond });
    const port = Number(new URL(probe.url).port);
    await probe.close();
    return port;
  }

  it("an unreachable batch endpoint is a BamlClientError naming the client, the URL and what to check", async () => {
    const port = await closedPort();
    const compiled = compile({ "main.baml": source("openai", `http://127.0.0.1:${port}/v1`) });
    if (!compiled.ir) throw new Error(JSON.stringify(compiled.diagnostics));
    const failure = await runProviderBatch(SaplingRuntime.fromIr(compiled.ir), "Read", rows(["item-1"]), {
      clock,
    }).catch((error: unknown) => error);
    expect(BamlClientError.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toMatch(
      new RegExp(
        `^Client "Batchable" \\(openai\\): uploading the batch file failed: the connection to http://127\\.0\\.0\\.1:${port}/v1/files failed: fetch failed \\(ECONNREFUSED.*Check base_url`,
      ),
    );
  });

  it("a batch endpoint refusing the key (no OPENAI_API_KEY) is a BamlClientHttpError 401, the key redacted", async () => {
    server = await startMockLlmServer({ respond });
    const compiled = compile({ "main.baml": source("openai", server.baseUrls.openai) });
    if (!compiled.ir) throw new Error(JSON.stringify(compiled.diagnostics));
    // OpenAI's answer to a wrong or missing key, which echoes the key it was given.
    const refusing: typeof fetch = async (_input, init) => {
      const key = new Headers(init?.headers).get("authorization") ?? "";
      return new Response(
        JSON.stringify({ error: { message: `Incorrect API key provided: ${key}`, code: "invalid_api_key" } }),
        { status: 401, headers: { "content-type": "application/json" } },
      );
    };
    const failure = await runProviderBatch(SaplingRuntime.fromIr(compiled.ir), "Read", rows(["item-1"]), {
      clock,
      fetch: refusing,
    }).catch((error: unknown) => error);
    expect(BamlClientHttpError.isInstance(failure)).toBe(true);
    const error = failure as InstanceType<typeof BamlClientHttpError>;
    expect(error.statusCode).toBe(401);
    expect(error.message).toContain("uploading the batch file failed: HTTP 401");
    expect(error.message).toContain("Check the client's API key");
    expect(`${error.message} ${error.body}`).not.toContain("sk-batch-test-key");
  });
});
