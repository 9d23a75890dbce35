/**
 * A cut answer (finish reason `length`) through the real rooms and the mock LLM server: accepted by default
 * but visible in the Collector, made to fail by `finish_reason_deny_list`, or handed to the next client by
 * `parseRecovery.nextClient`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ir } from "../ir/index.js";
import { compile } from "../language/index.js";
import type { Flag } from "../sap/index.js";
import { answer, cutByLength, type MockLlmServer, startMockLlmServer } from "../testing/index.js";
import { answerCompleteness } from "./answer-completeness.js";
import { Collector } from "./collector.js";
import { BamlClientFinishReasonError } from "./errors.js";
import { SaplingRuntime } from "./sapling-runtime.js";

const SOURCE = `
class Item {
  id int
  name string
  tags string[]
}

client<llm> Lenient {
  provider openai-generic
  options {
    base_url env.MOCK_URL
    model "lenient-model"
  }
}

client<llm> Strict {
  provider openai-generic
  options {
    base_url env.MOCK_URL
    model "strict-model"
    finish_reason_deny_list ["length"]
  }
}

client<llm> Backup {
  provider openai-generic
  options {
    base_url env.MOCK_URL
    model "backup-model"
  }
}

client<llm> Chain {
  provider fallback
  options {
    strategy [Strict, Backup]
  }
}

function MakeItem(text: string) -> Item {
  client Lenient
  prompt #"
    {{ text }}
    {{ ctx.output_format }}
  "#
}
`;

const CUT = '{"id": 5, "name": "item-';
const WHOLE = '{"id": 5, "name": "item-five", "tags": ["a"]}';

let server: MockLlmServer;
let ir: Ir;

beforeAll(async () => {
  server = await startMockLlmServer();
  const compiled = compile({ "main.baml": SOURCE });
  if (!compiled.ir) throw new Error(JSON.stringify(compiled.diagnostics));
  ir = compiled.ir;
});
afterAll(async () => {
  await server.close();
});

const runtime = () => SaplingRuntime.fromIr(ir, { env: { MOCK_URL: server.baseUrls.openai } });

describe("a cut answer", () => {
  it("is accepted by default, as in BAML, and the Collector says it was cut and where", async () => {
    for (const streaming of [false, true]) {
      server.script(cutByLength(CUT));
      const collector = new Collector();
      const value = streaming
        ? await runtime().stream("MakeItem", { text: "x" }, { collector }).getFinalResponse()
        : await runtime().call("MakeItem", { text: "x" }, { collector });
      expect(value).toEqual({ id: 5, name: "item-", tags: [] });
      expect(collector.last?.truncated).toBe(true);
      expect(collector.last?.incompleteFields).toEqual(["$.name", "$.tags"]);
      expect(collector.last?.selectedCall?.finishReason).toBe("length");
    }
  });

  it("is not reported for a whole answer", async () => {
    server.script(answer(WHOLE));
    const collector = new Collector();
    await runtime().call("MakeItem", { text: "x" }, { collector });
    expect([collector.last?.truncated, collector.last?.incompleteFields]).toEqual([false, []]);
  });

  it("fails under finish_reason_deny_list, with the partial value and the incomplete paths", async () => {
    server.script(cutByLength(CUT));
    const collector = new Collector();
    const error = await runtime()
      .call("MakeItem", { text: "x" }, { client: "Strict", collector })
      .catch((caught: unknown) => caught);
    expect(BamlClientFinishReasonError.isInstance(error)).toBe(true);
    const rejected = error as BamlClientFinishReasonError;
    expect(rejected.partialValue).toEqual({ id: 5, name: "item-", tags: [] });
    expect(rejected.incompleteFields).toEqual(["$.name", "$.tags"]);
    expect(rejected.truncated).toBe(true);
    expect(rejected.message).toContain("incomplete: $.name, $.tags");
    expect(collector.last?.incompleteFields).toEqual(["$.name", "$.tags"]);
  });

  it("has no partial value when the text held nothing of the type", async () => {
    server.script(cutByLength('{"id": '));
    const error = (await runtime()
      .call("MakeItem", { text: "x" }, { client: "Strict" })
      .catch((caught: unknown) => caught)) as BamlClientFinishReasonError;
    expect(BamlClientFinishReasonError.isInstance(error)).toBe(true);
    expect(error.partialValue).toBeUndefined();
    expect(error.rawOutput).toBe('{"id": ');
  });

  it("moves on to the next client with parseRecovery.nextClient", async () => {
    server.requests.length = 0;
    server.script(cutByLength(CUT), answer(WHOLE));
    const value = await runtime().call(
      "MakeItem",
      { text: "x" },
      { client: "Chain", parseRecovery: { nextClient: true } },
    );
    expect(value).toEqual({ id: 5, name: "item-five", tags: ["a"] });
    expect(server.requests.map((request) => request.model)).toEqual(["strict-model", "backup-model"]);
  });
});

describe("answerCompleteness", () => {
  const flag = (kind: Flag["kind"], path: string): Flag => ({ kind, path, detail: "" });

  it("lists never-written fields only when the answer was cut", () => {
    const missing = [flag("DefaultFromMissing", "$.note")];
    expect(answerCompleteness("stop", missing)).toEqual({ truncated: false, incompleteFields: [] });
    expect(answerCompleteness("length", missing)).toEqual({ truncated: true, incompleteFields: ["$.note"] });
  });

  it("counts a value cut mid-way as cut even when the provider said stop", () => {
    expect(
      answerCompleteness("stop", [flag("Incomplete", "$.tags[1]"), flag("Incomplete", "$.tags[1]")]),
    ).toEqual({ truncated: true, incompleteFields: ["$.tags[1]"] });
  });
});
