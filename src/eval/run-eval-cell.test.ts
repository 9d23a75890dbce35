import { describe, expect, it } from "vitest";
import { compile } from "../language/index.js";
import { ClientRegistry, SaplingRuntime } from "../runtime/index.js";
import { profileAnswerKey, respondWithProfiles, startMockLlmServer } from "../testing/index.js";
import type { EvalRecord } from "./eval-record.js";
import { recordCheckpoint } from "./record-checkpoint.js";
import { runEvalCell } from "./run-eval-cell.js";

const source = `
enum Tier {
  FREE
  PRO_PLAN
}
class Account {
  name string
  seats int
  tier Tier
}
function ReadAccount(text: string) -> Account {
  client "openai/gpt-4o-mini"
  prompt #"
    Read the account:
    {{ text }}
    {{ ctx.output_format }}
  "#
}
`;

const rows = Array.from({ length: 6 }, (_, index) => ({
  id: `a${index}`,
  args: { text: `Account ${index}: team of ${index + 2}` },
  expected: { name: `Account ${index}`, seats: index + 2, tier: index % 2 === 0 ? "FREE" : "PRO_PLAN" },
}));

describe("runEvalCell", () => {
  it("records each row once, stops on the signal, and a rerun calls the model only for the rest", async () => {
    const { ir } = compile({ "main.baml": source });
    if (!ir) throw new Error("the test schema does not compile");
    const mock = await startMockLlmServer({ respond: respondWithProfiles(profileAnswerKey(rows)) });
    try {
      const registry = new ClientRegistry();
      registry.addLlmClient("mock/loose-types", "openai-generic", {
        base_url: mock.baseUrls.openai,
        model: "loose-types",
        api_key: "none",
      });
      const runtime = SaplingRuntime.fromIr(ir);
      const cell = { client: "mock/loose-types", mode: "prompt" as const };
      const records: EvalRecord[] = [];
      const controller = new AbortController();
      const first = await runEvalCell(runtime, "ReadAccount", rows, cell, {
        checkpoint: recordCheckpoint(new Set()),
        schemaTokens: 12,
        concurrency: 1,
        clientRegistry: registry,
        signal: controller.signal,
        onRecord: (record) => {
          records.push(record);
          if (records.length === 3) controller.abort(new Error("interrupted"));
        },
      });
      expect(first.stoppedBy).toBe("aborted");
      expect(records.map((record) => record.id)).toEqual(["a0", "a1", "a2"]);
      expect(mock.requests).toHaveLength(3);
      // "2.5" for 3 seats and "Pro Plan" for PRO_PLAN: read with repairs, first call parsed.
      const second = records[1] as EvalRecord;
      expect(second.value).toEqual({ name: "Account 1", seats: 3, tier: "PRO_PLAN" });
      expect(second.repairs.map((repair) => repair.kind)).toEqual(
        expect.arrayContaining(["StringToInt", "FloatToInt"]),
      );
      expect(second.firstCallParsed).toBe(true);
      expect(second.calls).toBe(1);
      expect(second.schemaTokens).toBe(12);
      expect(second.text).toContain('"2.5"');

      const resumed = await runEvalCell(runtime, "ReadAccount", rows, cell, {
        checkpoint: recordCheckpoint(new Set(records.map((record) => record.id))),
        schemaTokens: 12,
        concurrency: 2,
        clientRegistry: registry,
        onRecord: (record) => {
          records.push(record);
        },
      });
      expect(resumed.stoppedBy).toBeNull();
      expect(resumed.progress.skipped).toBe(3);
      expect(mock.requests).toHaveLength(6);
      expect(records.map((record) => record.id).sort()).toEqual(["a0", "a1", "a2", "a3", "a4", "a5"]);
      // The engine keeps no answers: the records went to onRecord, the report holds ids and outcomes.
      expect(resumed.results.every((result) => result?.ok === true && result.value === undefined)).toBe(true);
    } finally {
      await mock.close();
    }
  });
});
