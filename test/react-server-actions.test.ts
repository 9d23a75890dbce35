/**
 * The Next.js path of the generated React hooks, at the Node level (a Next build is too heavy for CI:
 * docs/decisions/0027-react-hooks.md): the generated `react/server.ts` and `react/server_streaming.ts`
 * server actions run against the mock LLM, and their results go through what `hooks.tsx` does with them —
 * `serverActionSource`, `readStream` for the NDJSON lines of `toStreamable()`, `toHookError` for a failure.
 * The generated files import `sapling-llm/runtime` and `sapling-llm/react` from this repository's sources.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateClient } from "../src/codegen/index.js";
import { compile, renderDiagnostics } from "../src/language/index.js";
import { SaplingActionError, serverActionSource, toHookError } from "../src/react/index.js";
import { readStream } from "../src/stream-client/index.js";
import { type MockLlmServer, startMockLlmServer } from "../src/testing/index.js";

const root = resolve(import.meta.dirname, "..");

const CHATTY = `Sure! Here is the resume as JSON:

\`\`\`json
{"name": "Jane Doe", "skills": ["Rust", "Go"], "years": 8}
\`\`\`

Anything else?`;
const REFUSAL = "I'm sorry, but I can't help with that.";

interface ResumeValue {
  name: string;
  skills: string[];
  years: number;
}
type ServerAction = (text: string) => Promise<ResumeValue>;
type StreamingServerAction = (text: string) => Promise<ReadableStream<Uint8Array>>;

let scratch: string;
let mock: MockLlmServer;
let actions: { ExtractResume: ServerAction };
let streamingActions: { ExtractResume: StreamingServerAction };
const savedEnvironment = { ...process.env };

beforeAll(async () => {
  mock = await startMockLlmServer({
    respond: (request) =>
      request.promptText.includes("REFUSE") ? { text: REFUSAL } : { text: CHATTY, chunkSize: 6 },
  });
  process.env.MOCK_BASE_URL = `${mock.url}/v1`;
  process.env.BAML_LOG = "error";

  const sources = {
    "baml_src/main.baml": readFileSync(join(root, "test", "react-app", "baml_src", "main.baml"), "utf8"),
  };
  const { ir, diagnostics } = compile(sources);
  if (!ir) throw new Error(renderDiagnostics(diagnostics, sources));
  const [generator] = ir.generators;
  if (!generator) throw new Error("no generator");
  mkdirSync(join(root, ".tmp"), { recursive: true });
  scratch = mkdtempSync(join(root, ".tmp", "react-actions-"));
  for (const [file, text] of Object.entries(generateClient(ir, generator))) {
    mkdirSync(dirname(join(scratch, "baml_client", file)), { recursive: true });
    // The package's entry points, as this repository's sources (an installed package resolves them).
    const resolved = text
      .replaceAll('"sapling-llm/runtime"', JSON.stringify(join(root, "src", "runtime", "index.ts")))
      .replaceAll('"sapling-llm/react"', JSON.stringify(join(root, "src", "react", "index.ts")));
    writeFileSync(join(scratch, "baml_client", file), resolved);
  }
  actions = await import(join(scratch, "baml_client", "react", "server.ts"));
  streamingActions = await import(join(scratch, "baml_client", "react", "server_streaming.ts"));
});

afterAll(async () => {
  process.env = savedEnvironment;
  await mock?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("generated server actions", () => {
  it("react/server.ts resolves the final value (what stream: false shows)", async () => {
    const source = serverActionSource(actions.ExtractResume, streamingActions.ExtractResume);
    const value = await source.call(["Jane Doe, Rust and Go, 8 years"], new AbortController().signal);
    expect(value).toEqual({ name: "Jane Doe", skills: ["Rust", "Go"], years: 8 });
  });

  it("react/server_streaming.ts streams partials, then the final value, as the hook reads them", async () => {
    const source = serverActionSource(actions.ExtractResume, streamingActions.ExtractResume);
    const stream = await source.stream(["Jane Doe"], new AbortController().signal);
    expect(stream).toBeInstanceOf(ReadableStream);
    const reader = readStream<Partial<ResumeValue>, ResumeValue>(
      new Response(stream as ReadableStream<Uint8Array>),
    );
    const partials: Partial<ResumeValue>[] = [];
    for await (const partial of reader) partials.push(partial);
    expect(partials.length).toBeGreaterThan(1);
    // Names grow as their text arrives, and no partial shows a field the final value does not have.
    expect(partials.some((partial) => typeof partial.name === "string" && partial.name !== "Jane Doe")).toBe(
      true,
    );
    expect(await reader.getFinalResponse()).toEqual({ name: "Jane Doe", skills: ["Rust", "Go"], years: 8 });
  });

  it("a refusal reaches the hook as an error with the model's raw text", async () => {
    const stream = await streamingActions.ExtractResume("REFUSE");
    const reader = readStream(new Response(stream));
    const failure = await reader.getFinalResponse().then(
      () => undefined,
      (error: unknown) => error,
    );
    const error = toHookError(failure);
    expect(error).toBeInstanceOf(SaplingActionError);
    expect(error.name).toBe("BamlValidationError");
    expect((error as SaplingActionError).code).toBe("VALIDATION");
    expect((error as SaplingActionError).raw_output).toBe(REFUSAL);
  });
});
