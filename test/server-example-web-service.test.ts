/**
 * examples/web-service end to end: the demo script as a user runs it, then the service in its own process
 * (tsx, as deployed) against this test's mock LLM server — a good answer, an unparseable answer, a failing
 * provider and a bad body, each with its status and its structured log line.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureContext, main } from "../src/cli/index.js";
import { answer, type MockLlmServer, serverError, startMockLlmServer } from "../src/testing/index.js";

const repository = resolve(import.meta.dirname, "..");
const exampleDir = join(repository, "examples", "web-service");
const tsx = join(repository, "node_modules", ".bin", "tsx");

const EVALUATION = {
  candidate_name: "Ann Lee",
  years_of_experience: 12,
  skills: ["Go", "Postgres"],
  work_history: [{ company: "Acme", role: "Lead", duration_months: 48, achievements: ["Cut costs 30%"] }],
  decision: "HIRE",
  reasoning: "Solid track record.",
};

let mock: MockLlmServer;
let service: ChildProcess;
let url: string;
const logs: Record<string, unknown>[] = [];

beforeAll(async () => {
  const generation = captureContext({ cwd: repository });
  expect(await main(["generate", "--from", "examples/resume/baml_src"], generation)).toBe(0);
  mock = await startMockLlmServer();
  service = spawn(tsx, ["src/server.ts"], {
    cwd: exampleDir,
    env: { ...process.env, PORT: "0", LLM_BASE_URL: mock.baseUrls.openai },
    stdio: ["ignore", "pipe", "inherit"],
  });
  url = await new Promise<string>((resolveUrl, reject) => {
    let buffered = "";
    const timer = setTimeout(() => reject(new Error("the service did not start")), 30_000);
    service.stdout?.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        const entry = JSON.parse(line) as Record<string, unknown>;
        logs.push(entry);
        if (entry.event === "service.started") {
          clearTimeout(timer);
          resolveUrl(entry.url as string);
        }
      }
    });
  });
}, 60_000);

afterAll(async () => {
  // Guarded: a failed setup leaves either of them unstarted.
  if (service && service.exitCode === null) {
    service.kill("SIGTERM");
    await new Promise((done) => service.once("exit", done));
  }
  await mock?.close();
});

async function evaluate(body: unknown, requestId: string) {
  const response = await fetch(`${url}/v1/candidates/evaluate`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-request-id": requestId },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  // The log line is written before the response; give the pipe a moment to deliver it.
  await new Promise((done) => setTimeout(done, 50));
  return {
    status: response.status,
    requestId: response.headers.get("x-request-id"),
    body: (await response.json()) as Record<string, unknown>,
    log: logs.find((entry) => entry.request_id === requestId),
  };
}

describe("examples/web-service", () => {
  it("the demo script starts the mock, the service, sends a request and prints the evaluation", async () => {
    const { stdout } = await promisify(execFile)(tsx, ["demo.ts"], { cwd: exampleDir, timeout: 60_000 });
    expect(stdout).toContain("HTTP 200 (x-request-id: demo-1)");
    expect(stdout).toContain('"candidate_name": "Jane Doe"');
    expect(stdout).toMatch(
      /"event":"candidate\.evaluated","request_id":"demo-1","status":200,"latency_ms":[\d.]+/,
    );
  }, 90_000);

  it("answers the typed evaluation and logs latency, client and token usage", async () => {
    mock.script(answer(`Sure!\n\`\`\`json\n${JSON.stringify(EVALUATION)}\n\`\`\``));
    const result = await evaluate({ resume_text: "Ann Lee, 12 years of Go." }, "ok-1");
    expect(result.status).toBe(200);
    expect(result.requestId).toBe("ok-1");
    expect(result.body).toEqual(EVALUATION);
    expect(result.log).toMatchObject({
      event: "candidate.evaluated",
      level: "info",
      status: 200,
      llm_client: "Configured",
      decision: "HIRE",
    });
    expect(result.log?.latency_ms).toEqual(expect.any(Number));
    expect(result.log?.input_tokens).toBeGreaterThan(0);
    expect(JSON.stringify(mock.requests.at(-1)?.body.messages)).toContain("Ann Lee, 12 years of Go.");
  });

  it("maps an unparseable answer to 422 and logs the raw answer", async () => {
    mock.script(answer("I'd rather not evaluate people."));
    const result = await evaluate({ resume_text: "Someone" }, "parse-1");
    expect(result.status).toBe(422);
    expect(result.body.error).toMatchObject({ code: "VALIDATION", request_id: "parse-1" });
    expect(JSON.stringify(result.body)).not.toContain("rather not");
    expect(result.log).toMatchObject({
      level: "warn",
      status: 422,
      raw_output: "I'd rather not evaluate people.",
    });
  });

  it("maps a provider failure to 502 with the reason", async () => {
    mock.script(serverError(503, "model overloaded"));
    const result = await evaluate({ resume_text: "Someone" }, "upstream-1");
    expect(result.status).toBe(502);
    expect((result.body.error as { reason: string }).reason).toContain("model overloaded");
    expect(result.log).toMatchObject({ level: "error", status: 502, error_code: "CLIENT_HTTP_ERROR" });
  });

  it("refuses a bad body with 400 without calling the model", async () => {
    const before = mock.requests.length;
    const result = await evaluate({ resume: "wrong key" }, "bad-1");
    expect(result.status).toBe(400);
    expect((result.body.error as { reason: string }).reason).toContain("resume_text");
    expect(mock.requests.length).toBe(before);
  });
});
