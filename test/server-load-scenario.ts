/**
 * The loopback scenario shared by the load test (test/server-load.test.ts) and the benchmark
 * (bench/server.ts): `sapling serve` started in-process on a free port, backed by the mock LLM server,
 * which answers every request with data derived from the ticket id in its prompt — so a response carrying
 * another request's data is detectable.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { captureContext, main } from "../src/cli/index.js";
import { answer, type MockLlmServer, startMockLlmServer } from "../src/testing/index.js";

const project = `
class Ticket {
  id string
  summary string
  priority int
}

client<llm> Mock {
  provider openai-generic
  options {
    base_url env.MOCK_URL
    model "mock-model"
  }
}

function TriageTicket(id: string, text: string) -> Ticket {
  client Mock
  prompt #"
    Triage ticket:{{ id }}
    {{ text }}
    {{ ctx.output_format }}
  "#
}
`;

/** What the mock answers for `id`: every field depends on it. */
export function expectedTicket(id: string): { id: string; summary: string; priority: number } {
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return { id, summary: `Summary of ${id}`, priority: hash % 5 };
}

export interface LoadScenario {
  /** `http://127.0.0.1:<port>` of `sapling serve`. */
  url: string;
  mock: MockLlmServer;
  /** Stops serve (checking it exits 0) and the mock server, and removes the project folder. */
  close(): Promise<void>;
}

/** Starts the mock server and `sapling serve` on loopback. `answerDelayMs` delays each mock answer. */
export async function startLoadScenario(options: { answerDelayMs?: number } = {}): Promise<LoadScenario> {
  const mock = await startMockLlmServer({
    respond: (request) => {
      const id = /ticket:(\S+?)\\n/.exec(JSON.stringify(request.body.messages))?.[1];
      if (id === undefined) return undefined;
      const text = `Here it is:\n\`\`\`json\n${JSON.stringify(expectedTicket(id))}\n\`\`\``;
      return answer(text, { chunkSize: 12, headersDelayMs: options.answerDelayMs ?? 0 });
    },
  });
  const root = mkdtempSync(join(tmpdir(), "sapling-load-"));
  mkdirSync(join(root, "baml_src"));
  writeFileSync(join(root, "baml_src", "main.baml"), project);
  let stop: () => void = () => {};
  const interrupted = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const context = captureContext({ cwd: root, env: { MOCK_URL: mock.baseUrls.openai }, interrupted });
  const exit = main(["serve", "--port", "0", "--quiet"], context);
  const started = Date.now();
  let url: string | undefined;
  while (url === undefined) {
    url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(context.output().stdout)?.[1];
    if (url !== undefined) break;
    if (Date.now() - started > 10_000) throw new Error(`serve did not start: ${context.output().stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return {
    url,
    mock,
    close: async () => {
      stop();
      const code = await exit;
      await mock.close();
      rmSync(root, { recursive: true, force: true });
      if (code !== 0) throw new Error(`serve exited ${code}: ${context.output().stderr}`);
    },
  };
}

/** One request's outcome, as seen by the client. */
export interface LoadResult {
  id: string;
  route: "call" | "stream";
  status: number;
  /** The parsed value (`/call`) or the final event's value (`/stream`). */
  value: unknown;
  latencyMs: number;
}

/** Sends one request for ticket `id` and reads its whole answer. */
export async function sendTicket(url: string, id: string, route: "call" | "stream"): Promise<LoadResult> {
  const started = performance.now();
  const response = await fetch(`${url}/${route}/TriageTicket`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id, text: `Customer ${id} cannot log in.` }),
    // Bounded: a request that never completes fails the run instead of hanging it.
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let value: unknown;
  if (route === "call") value = response.ok ? JSON.parse(text) : text;
  else {
    const final = /event: final\n(?:x-sapling-.*\n)*data: (.*)\n/.exec(text)?.[1];
    value = final === undefined ? text : JSON.parse(final);
  }
  return { id, route, status: response.status, value, latencyMs: performance.now() - started };
}
