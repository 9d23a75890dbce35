/**
 * Batches through the real rooms: a compiled project, the runtime, the mock LLM server over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ir } from "../ir/index.js";
import { compile } from "../language/index.js";
import { SaplingRuntime } from "../runtime/index.js";
import {
  answer,
  hang,
  type MockLlmServer,
  type RecordedRequest,
  rateLimited,
  serverError,
  startMockLlmServer,
} from "../testing/index.js";
import { memoryCheckpoint } from "./batch-checkpoint.js";
import { BatchCredentialsError } from "./batch-credentials-error.js";
import type { BatchResult, BatchRow } from "./batch-result.js";
import { runBatch } from "./run-batch.js";

const SOURCE = `
class Row {
  n int
  label string
}

client<llm> Mock {
  provider openai-generic
  options {
    base_url env.MOCK_BASE_URL
    model "mock"
  }
}

function Extract(text: string) -> Row {
  client Mock
  prompt #"Read {{ text }} {{ ctx.output_format }}"#
}
`;

let server: MockLlmServer;
let ir: Ir;
/** Rows whose first request gets a 429 (the second gets the answer). */
const limitedOnce = new Set<string>();
const requested: string[] = [];

/** Answers from the prompt, so that concurrency cannot change which row gets which answer. */
function respond(request: RecordedRequest) {
  const id = /row-(\d+)/.exec(request.promptText)?.[1] ?? "?";
  requested.push(id);
  if (request.promptText.includes("limited") && !limitedOnce.has(id)) {
    limitedOnce.add(id);
    return rateLimited(0);
  }
  if (request.promptText.includes("silent")) return hang();
  if (request.promptText.includes("unauthorized")) return serverError(401, "Incorrect API key provided");
  if (request.promptText.includes("forbidden")) return serverError(403, "not allowed to use this model");
  if (request.promptText.includes("garbage")) return answer("I cannot help with that.");
  // $1 a row at the test price (half a million input tokens at $1, an eighth of a million output at $4).
  return answer(`Sure! \`\`\`json\n{"n": "${id}", "label": "row ${id}",}\n\`\`\``, {
    usage: { inputTokens: 500_000, outputTokens: 125_000 },
  });
}

beforeAll(async () => {
  server = await startMockLlmServer({ respond });
  const compiled = compile({ "main.baml": SOURCE });
  if (!compiled.ir) throw new Error(JSON.stringify(compiled.diagnostics));
  ir = compiled.ir;
});
afterAll(async () => {
  await server.close();
});

function runtime(prices?: Record<string, { input: number; output: number }>): SaplingRuntime {
  return SaplingRuntime.fromIr(ir, {
    env: { MOCK_BASE_URL: `${server.url}/v1` },
    ...(prices ? { prices } : {}),
  });
}

/** The mock model's price: each answer above costs exactly $1. */
const priced = { mock: { input: 1, output: 4 } };

function rows(count: number, text = (index: number) => `row-${index}`): BatchRow[] {
  return Array.from({ length: count }, (_, index) => ({ id: `r${index}`, args: { text: text(index) } }));
}

describe("runBatch", () => {
  it("gives every row a typed value, in input order, with the raw answer kept", async () => {
    const report = await runBatch(runtime(), "Extract", rows(40), { concurrency: 6 });
    expect(report.stoppedBy).toBeNull();
    expect(report.results.map((result) => result?.id)).toEqual(rows(40).map((row) => row.id));
    expect(report.results[7]).toEqual({
      id: "r7",
      ok: true,
      value: { n: 7, label: "row 7" },
      raw: 'Sure! ```json\n{"n": "7", "label": "row 7",}\n```',
    });
    expect(report.progress).toMatchObject({ total: 40, succeeded: 40, failed: 0, skipped: 0 });
    expect(report.progress.repairs).toBeGreaterThanOrEqual(40); // each answer needed its fence and "7" → 7
  });

  it("keeps going past a bad row, which ends as a typed error with its raw answer", async () => {
    const report = await runBatch(
      runtime(),
      "Extract",
      rows(5, (index) => (index === 2 ? "row-2 garbage" : `row-${index}`)),
    );
    const bad = report.results[2] as BatchResult;
    expect(bad.ok).toBe(false);
    expect(bad).toMatchObject({
      id: "r2",
      raw: "I cannot help with that.",
      error: { type: "BamlValidationError" },
    });
    expect(report.results.filter((result) => result?.ok)).toHaveLength(4);
  });

  it("puts a rate-limited row back in the queue instead of failing it", async () => {
    const report = await runBatch(
      runtime(),
      "Extract",
      rows(6, (index) => `row-${index}${index % 2 ? " limited" : ""}`),
      {
        concurrency: 2,
      },
    );
    expect(report.results.every((result) => result?.ok)).toBe(true);
    expect(report.progress.rateLimited).toBe(3);
  });

  it("fails a row that outlives timeoutMs and finishes the rest", async () => {
    const report = await runBatch(
      runtime(),
      "Extract",
      rows(3, (index) => `row-${index}${index === 1 ? " silent" : ""}`),
      {
        timeoutMs: 200,
      },
    );
    expect(report.results[1]).toMatchObject({ ok: false, error: { type: "BatchRowTimeoutError" } });
    expect(report.results[0]?.ok && report.results[2]?.ok).toBe(true);
  });

  it("stops at maxRows, then resumes from the checkpoint without asking for a finished row again", async () => {
    const checkpoint = memoryCheckpoint();
    requested.length = 0;
    const first = await runBatch(runtime(), "Extract", rows(10), { maxRows: 4, concurrency: 2, checkpoint });
    expect(first.stoppedBy).toBe("max-rows");
    expect(first.results.filter((result) => result !== null)).toHaveLength(4);
    const askedFirst = requested.length;
    const second = await runBatch(runtime(), "Extract", rows(10), { checkpoint });
    expect(second.stoppedBy).toBeNull();
    expect(second.progress).toMatchObject({ skipped: 4, succeeded: 6, resent: 0 });
    expect(requested.length - askedFirst).toBe(6);
  });

  it("retryFailed runs only the rows that failed", async () => {
    const checkpoint = memoryCheckpoint();
    await runBatch(
      runtime(),
      "Extract",
      rows(4, (index) => `row-${index}${index === 3 ? " garbage" : ""}`),
      { checkpoint },
    );
    requested.length = 0;
    const again = await runBatch(
      runtime(),
      "Extract",
      rows(4, (index) => `row-${index}${index === 3 ? " garbage" : ""}`),
      {
        checkpoint,
        retryFailed: true,
      },
    );
    expect(requested).toEqual(["3"]);
    expect(again.progress).toMatchObject({ skipped: 3, failed: 1 });
  });

  it("an abort stops the batch; rows in flight stay pending and count as re-sent next time", async () => {
    const checkpoint = memoryCheckpoint();
    const controller = new AbortController();
    const slowRows = rows(6, (index) => `row-${index}${index >= 2 ? " silent" : ""}`);
    const stopped = runBatch(runtime(), "Extract", slowRows, {
      concurrency: 2,
      checkpoint,
      signal: controller.signal,
      onResult: () => {
        if (checkpoint.state.results.size === 2)
          setTimeout(() => controller.abort(new Error("interrupted")), 50);
      },
    });
    const report = await stopped;
    expect(report.stoppedBy).toBe("aborted");
    expect(report.results.filter((result) => result !== null)).toHaveLength(2);
    expect(checkpoint.state.inFlight.size).toBe(2);
    const resumed = await runBatch(runtime(), "Extract", rows(6), { checkpoint });
    expect(resumed.progress).toMatchObject({ skipped: 2, succeeded: 4, resent: 2 });
  });

  it("maxCostUsd stops starting rows once the spend reaches it; a rerun counts the earlier spend", async () => {
    const checkpoint = memoryCheckpoint();
    requested.length = 0;
    const first = await runBatch(runtime(priced), "Extract", rows(12), {
      concurrency: 1,
      maxCostUsd: 5,
      checkpoint,
    });
    expect(first.stoppedBy).toBe("max-cost");
    expect(requested).toHaveLength(5);
    expect(first.results.filter((result) => result !== null)).toHaveLength(5);
    expect(first.progress).toMatchObject({ costUsd: 5, earlierCostUsd: 0, pending: 12 });

    // The same budget again: the checkpoint's $5 already reach it, so nothing starts.
    const same = await runBatch(runtime(priced), "Extract", rows(12), { maxCostUsd: 5, checkpoint });
    expect([same.stoppedBy, requested.length]).toEqual(["max-cost", 5]);
    expect(same.progress).toMatchObject({ earlierCostUsd: 5, costUsd: 0 });

    // A higher budget goes on from there: $3 more, with rows in flight finishing past it (at most 3).
    const more = await runBatch(runtime(priced), "Extract", rows(12), {
      concurrency: 3,
      maxCostUsd: 8,
      checkpoint,
    });
    expect(more.stoppedBy).toBe("max-cost");
    const spent = more.progress.costUsd as number;
    expect(spent).toBeGreaterThanOrEqual(3);
    expect(spent).toBeLessThanOrEqual(5);
    expect(requested).toHaveLength(5 + spent);
    const rest = await runBatch(runtime(priced), "Extract", rows(12), { maxCostUsd: 100, checkpoint });
    expect(rest.stoppedBy).toBeNull();
    expect(requested).toHaveLength(12);
    expect(checkpoint.state.spentUsd).toBe(12);
  });

  it("maxCostUsd with a model that has no price is an error at the first row, naming the fix", async () => {
    const checkpoint = memoryCheckpoint();
    requested.length = 0;
    await expect(
      runBatch(runtime(), "Extract", rows(10), { concurrency: 2, maxCostUsd: 5, checkpoint }),
    ).rejects.toThrow(
      /cost of row "r\d" is unknown: the model "mock" has no price.*Add its price \(RuntimeOptions\.prices/,
    );
    // The rows in flight when the first cost came back finished; no other row started.
    expect(requested.length).toBeLessThanOrEqual(2);
    expect(checkpoint.state.results.size).toBe(requested.length);
    // Without a budget the run goes on, and says the cost is unknown.
    const report = await runBatch(runtime(), "Extract", rows(3));
    expect(report.progress.costUsd).toBeNull();
    await expect(runBatch(runtime(priced), "Extract", rows(1), { maxCostUsd: 0 })).rejects.toThrow(
      "maxCostUsd must be a positive number",
    );
  });

  it("refuses duplicate ids and an unknown function, saying which", async () => {
    await expect(
      runBatch(runtime(), "Extract", [...rows(2), { id: "r0", args: { text: "x" } }]),
    ).rejects.toThrow('rows 1 and 3 have the same id "r0"');
    await expect(runBatch(runtime(), "Nope", rows(1))).rejects.toThrow("no function named Nope");
  });
});

describe("runBatch with a key the provider refuses", () => {
  it.each([
    ["unauthorized", 401],
    ["forbidden", 403],
  ])(
    "a %s row stops the batch: no retry, no new row, nothing recorded as its result",
    async (word, status) => {
      const runtime = SaplingRuntime.fromIr(ir, { env: { MOCK_BASE_URL: `${server.url}/v1` } });
      const checkpoint = memoryCheckpoint();
      const before = requested.length;
      const rows = Array.from({ length: 20 }, (_, n) => ({
        id: `k${n}`,
        args: { text: `row-${n} ${word}` },
      }));
      const failure = await runBatch(runtime, "Extract", rows, { concurrency: 2, checkpoint }).catch(
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(BatchCredentialsError);
      expect(failure).toMatchObject({ rowId: expect.stringMatching(/^k[01]$/), status });
      expect((failure as Error).message).toContain(`was refused with HTTP ${status}`);
      // At most the rows already in flight were sent, each once.
      expect(requested.length - before).toBeLessThanOrEqual(2);
      expect(checkpoint.state.results.size).toBe(0);
    },
  );
});
