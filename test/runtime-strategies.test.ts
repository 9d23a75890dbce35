/**
 * Strategy conformance: every `.baml` case in test/fixtures/runtime/strategies (format in its README) runs
 * against the mock LLM server through the whole runtime, and the attempts, waits and results must match
 * the case's header exactly.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile } from "../src/language/index.js";
import { BamlError, Collector, type ParseRecovery, SaplingRuntime } from "../src/runtime/index.js";
import {
  answer,
  cutByLength,
  hang,
  type MockAnswer,
  type MockLlmServer,
  malformedStream,
  rateLimited,
  resetMidStream,
  serverError,
  startMockLlmServer,
} from "../src/testing/index.js";

const folder = join(import.meta.dirname, "fixtures", "runtime", "strategies");
const files = readdirSync(folder)
  .filter((name) => name.endsWith(".baml"))
  .sort();

interface Case {
  call: string;
  calls: number;
  script: MockAnswer[];
  recovery: ParseRecovery;
  attempts: string[];
  waits: string;
  results: string[];
}

function readCase(text: string, file: string): Case {
  const header = new Map<string, string[]>();
  for (const match of text.matchAll(/^\/\/ ([a-z]+):(.*)$/gm)) {
    const [, key = "", value = ""] = match;
    header.set(key, [...(header.get(key) ?? []), value.trim()]);
  }
  const one = (key: string): string => {
    const value = header.get(key)?.[0];
    if (value === undefined) throw new Error(`${file}: missing "// ${key}:" line`);
    return value;
  };
  const recoveryText = header.get("recovery")?.[0] ?? "";
  const reask = /reask (\d+)/.exec(recoveryText)?.[1];
  return {
    call: one("call"),
    calls: Number(header.get("calls")?.[0] ?? "1"),
    script: one("script")
      .split("|")
      .map((step) => scriptStep(step.trim(), file)),
    recovery: {
      ...(reask !== undefined ? { reask: Number(reask) } : {}),
      ...(recoveryText.includes("next-client") ? { nextClient: true } : {}),
    },
    attempts: header.get("attempts") ?? [],
    waits: header.get("waits")?.[0] ?? "",
    results: header.get("result") ?? [],
  };
}

function scriptStep(step: string, file: string): MockAnswer {
  const [word = "", ...rest] = step.split(" ");
  const text = rest.join(" ");
  if (word === "answer") return answer(text);
  if (word === "length") return cutByLength(text);
  if (word === "reset") return resetMidStream("1", 0);
  if (word === "malformed") return malformedStream("1", 0);
  if (word === "hang") return hang();
  if (word === "429") return rateLimited(Number(/retry-after (\d+)/.exec(text)?.[1] ?? "1"));
  if (/^\d{3}$/.test(word)) return serverError(Number(word));
  throw new Error(`${file}: unknown script step "${step}"`);
}

let server: MockLlmServer | undefined;
let deadUrl: string;

beforeAll(async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  deadUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 1}/v1`;
});
afterAll(async () => {
  await server?.close();
});

function clientsOnly(attempts: string): string {
  return attempts.replace(/:\w+/g, "");
}

async function runCase(
  file: string,
  testCase: Case,
  mode: "call" | "stream",
): Promise<{ attempts: string[]; waits: string; results: string[] }> {
  const text = readFileSync(join(folder, file), "utf8");
  const source = `${text}\nfunction Pick() -> int {\n  client ${testCase.call}\n  prompt #"\n    Pick a number.\n    {{ ctx.output_format }}\n  "#\n}\n`;
  const { ir, diagnostics } = compile({ [file]: source });
  if (!ir)
    throw new Error(`${file} does not compile:\n${diagnostics.map((item) => item.message).join("\n")}`);
  // A server per case: answers a failing case left unserved cannot leak into the next one.
  await server?.close();
  server = await startMockLlmServer();
  server.script(...testCase.script);
  const waits: number[] = [];
  const runtime = SaplingRuntime.fromIr(ir, {
    env: { MOCK_URL: server.baseUrls.openai, DEAD_URL: deadUrl },
    sleep: async (ms) => {
      waits.push(ms);
    },
  });
  const attempts: string[] = [];
  const results: string[] = [];
  for (let call = 0; call < testCase.calls; call++) {
    const collector = new Collector();
    const options = { collector, parseRecovery: testCase.recovery };
    const pending =
      mode === "call"
        ? runtime.call("Pick", {}, options)
        : runtime.stream("Pick", {}, options).getFinalResponse();
    results.push(
      await pending.then(
        (value) => JSON.stringify(value),
        (error: unknown) => (BamlError.isInstance(error) ? `error ${error.code}` : `thrown ${String(error)}`),
      ),
    );
    attempts.push(
      (collector.last?.calls ?? [])
        .map((attempt) => `${attempt.clientName}:${attempt.httpResponse?.status ?? "none"}`)
        .join(", "),
    );
  }
  return { attempts, waits: waits.join(", "), results };
}

describe("runtime strategies", () => {
  it("has cases", () => {
    expect(files.length).toBeGreaterThan(10);
  });

  for (const file of files) {
    for (const mode of ["call", "stream"] as const) {
      it(`${file.replace(/\.baml$/, "")} (${mode})`, async () => {
        const testCase = readCase(readFileSync(join(folder, file), "utf8"), file);
        const observed = await runCase(file, testCase, mode);
        // A stream records the status once headers arrive, so a fault after them shows 200 instead of
        // `none`; which clients were tried, the waits and the results must not differ.
        const shown = mode === "call" ? observed.attempts : observed.attempts.map(clientsOnly);
        const expected = mode === "call" ? testCase.attempts : testCase.attempts.map(clientsOnly);
        expect({ ...observed, attempts: shown }).toEqual({
          attempts: expected,
          waits: testCase.waits,
          results: testCase.results,
        });
        expect(server?.pendingAnswers()).toBe(0);
      });
    }
  }
});
