import { describe, expect, it } from "vitest";
import type { Client } from "../ir/index.js";
import {
  BamlAbortError,
  BamlAllClientsFailedError,
  BamlClientError,
  BamlClientHttpError,
  BamlMissingEnvVarError,
  BamlValidationError,
} from "./errors.js";
import { defaultSleep, executePlan, type Sleep } from "./execute-plan.js";
import type { PlannedAttempt } from "./plan-attempts.js";

const client = (name: string): Client => ({ name, provider: "openai", options: {} });
const plan = (...steps: [string, number][]): PlannedAttempt[] =>
  steps.map(([name, delayMs]) => ({ client: client(name), delayMs }));

function recorder() {
  const waits: number[] = [];
  const sleep: Sleep = async (ms) => {
    waits.push(ms);
  };
  return { waits, sleep };
}

const http500 = (name: string) => new BamlClientHttpError("HTTP 500", name, "openai", 500, "boom");

describe("executePlan", () => {
  it("returns the first success and sleeps only before the attempts that follow a failure", async () => {
    const { waits, sleep } = recorder();
    const tried: string[] = [];
    const result = await executePlan(
      plan(["A", 0], ["B", 0], ["B", 200], ["B", 400]),
      async (attempt, position) => {
        tried.push(attempt.client.name);
        if (position < 3) throw http500(attempt.client.name);
        return "answer";
      },
      { sleep },
    );
    expect(result).toBe("answer");
    expect(tried).toEqual(["A", "B", "B", "B"]);
    expect(waits).toEqual([200, 400]);
  });

  it("throws the attempt's own error when there was only one attempt", async () => {
    const { sleep } = recorder();
    const failing = executePlan(plan(["A", 0]), async () => Promise.reject(http500("A")), { sleep });
    await expect(failing).rejects.toBeInstanceOf(BamlClientHttpError);
  });

  it("lists every attempt when all fail", async () => {
    const { sleep } = recorder();
    const error = await executePlan(
      plan(["A", 0], ["B", 0], ["B", 10]),
      async (attempt) => {
        throw http500(attempt.client.name);
      },
      { sleep },
    ).catch((caught: unknown) => caught);
    expect(BamlAllClientsFailedError.isInstance(error)).toBe(true);
    const failed = error as BamlAllClientsFailedError;
    expect(failed.attempts.map((attempt) => attempt.clientName)).toEqual(["A", "B", "B"]);
    expect(failed.message).toMatch(/Every client failed \(3 attempts\)/);
    expect(BamlClientError.isInstance(failed)).toBe(true);
  });

  it("does not retry a client whose configuration is broken, but still falls back", async () => {
    const { sleep } = recorder();
    const tried: string[] = [];
    const result = await executePlan(
      plan(["A", 0], ["A", 100], ["B", 0]),
      async (attempt) => {
        tried.push(attempt.client.name);
        if (attempt.client.name === "A") throw new BamlMissingEnvVarError("KEY_A", "A", "openai", "api_key");
        return 7;
      },
      { sleep },
    );
    expect(result).toBe(7);
    expect(tried).toEqual(["A", "B"]);
  });

  it("does not retry a client whose key was refused (401, 403), but still falls back; 500s are retried", async () => {
    for (const status of [401, 403]) {
      const { sleep } = recorder();
      const tried: string[] = [];
      const result = await executePlan(
        plan(["A", 0], ["A", 100], ["A", 100], ["B", 0]),
        async (attempt) => {
          tried.push(attempt.client.name);
          if (attempt.client.name === "A") {
            throw new BamlClientHttpError(`HTTP ${status}`, "A", "openai", status, "invalid key");
          }
          return 7;
        },
        { sleep },
      );
      expect(result).toBe(7);
      expect(tried).toEqual(["A", "B"]);
    }
    const tried: string[] = [];
    await executePlan(
      plan(["A", 0], ["A", 100], ["B", 0]),
      async (attempt) => {
        tried.push(attempt.client.name);
        if (attempt.client.name === "A") throw http500("A");
        return 7;
      },
      recorder(),
    );
    expect(tried).toEqual(["A", "A", "B"]);
  });

  it("stops at a parse failure by default (BAML), and moves to the next client when opted in", async () => {
    const { sleep } = recorder();
    const invalid = () => new BamlValidationError("no int", "prompt", "hello", undefined);
    const tried: string[] = [];
    const run = async (attempt: PlannedAttempt) => {
      tried.push(attempt.client.name);
      if (attempt.client.name === "A") throw invalid();
      return "from B";
    };
    await expect(executePlan(plan(["A", 0], ["A", 5], ["B", 0]), run, { sleep })).rejects.toBeInstanceOf(
      BamlValidationError,
    );
    expect(tried).toEqual(["A"]);
    tried.length = 0;
    const recovered = await executePlan(plan(["A", 0], ["A", 5], ["B", 0]), run, {
      sleep,
      nextClientOnParseFailure: true,
    });
    expect(recovered).toBe("from B");
    expect(tried).toEqual(["A", "B"]);
  });

  it("waits for retry-after before retrying the same client, within the cap", async () => {
    const { waits, sleep } = recorder();
    let calls = 0;
    await executePlan(
      plan(["A", 0], ["A", 100], ["A", 100]),
      async () => {
        calls++;
        if (calls === 1) throw new BamlClientHttpError("429", "A", "openai", 429, "", 1500);
        if (calls === 2) throw new BamlClientHttpError("429", "A", "openai", 429, "", 999_999);
        return "ok";
      },
      { sleep, maxRetryAfterMs: 5000 },
    );
    expect(waits).toEqual([1500, 5000]);
  });

  it("ends at once when the signal aborts, during an attempt or a wait", async () => {
    const controller = new AbortController();
    let attempts = 0;
    // The retry waits an hour: only the abort can end this plan (no clock is read).
    const pending = executePlan(
      plan(["A", 0], ["A", 60 * 60_000]),
      async () => {
        attempts++;
        throw http500("A");
      },
      { sleep: defaultSleep, signal: controller.signal },
    );
    setTimeout(() => controller.abort(new Error("user left")), 20);
    await expect(pending).rejects.toBeInstanceOf(BamlAbortError);
    expect(attempts).toBe(1);

    const during = executePlan(
      plan(["A", 0], ["B", 0]),
      async () => {
        throw new BamlAbortError("aborted in flight");
      },
      { sleep: defaultSleep },
    );
    await expect(during).rejects.toThrow("aborted in flight");
  });
});

describe("executePlan with failures that are not client failures", () => {
  it("ends the call at once, unchanged", async () => {
    const tried: string[] = [];
    const bug = new TypeError("template exploded");
    const pending = executePlan(
      plan(["A", 0], ["B", 0]),
      async (attempt) => {
        tried.push(attempt.client.name);
        throw bug;
      },
      { sleep: async () => {} },
    );
    await expect(pending).rejects.toBe(bug);
    expect(tried).toEqual(["A"]);
  });
});
