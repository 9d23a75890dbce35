/**
 * A bounded load test on loopback: 500 concurrent requests (call and stream) to `sapling serve`, backed by
 * the mock LLM server answering each with data derived from its own ticket id. Every request must come
 * back 200 with exactly its own data, the mock must have seen each ticket exactly once, and nothing may
 * stay in flight afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectedTicket, type LoadScenario, sendTicket, startLoadScenario } from "./server-load-scenario.js";

const REQUESTS = 500;

let scenario: LoadScenario;

beforeAll(async () => {
  // A small delay keeps all 500 requests in flight at the same time.
  scenario = await startLoadScenario({ answerDelayMs: 50 });
});
afterAll(async () => {
  await scenario.close();
});

describe("sapling serve under load", () => {
  it("answers 500 concurrent requests, none lost and none with another request's data", async () => {
    const ids = Array.from(
      { length: REQUESTS },
      (_, position) => `t${position}-${Math.random().toString(36).slice(2, 8)}`,
    );
    const results = await Promise.all(
      ids.map((id, position) => sendTicket(scenario.url, id, position % 5 === 0 ? "stream" : "call")),
    );
    expect(results).toHaveLength(REQUESTS);
    const wrong = results.filter(
      (result) =>
        result.status !== 200 || JSON.stringify(result.value) !== JSON.stringify(expectedTicket(result.id)),
    );
    expect(wrong.slice(0, 3)).toEqual([]);
    expect(results.filter((result) => result.route === "stream")).toHaveLength(REQUESTS / 5);
    // The mock saw each ticket exactly once: no request lost on the way, none sent twice.
    const seen = scenario.mock.requests.map(
      (request) => /ticket:(\S+?)\\n/.exec(JSON.stringify(request.body.messages))?.[1],
    );
    expect(new Set(seen).size).toBe(REQUESTS);
    expect([...seen].sort()).toEqual([...ids].sort());
    expect(scenario.mock.activeRequests()).toBe(0);
  }, 60_000);
});
