/**
 * The example end to end, on one machine and without a real model: `npx tsx demo.ts` (from
 * examples/web-service) generates the resume client, starts the mock LLM server with a recorded answer,
 * starts the service pointed at it, sends one evaluation request, and prints the response and the
 * service's structured log lines. Nothing leaves 127.0.0.1.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { captureContext, main } from "../../src/cli/index.js";
import { answer, startMockLlmServer } from "../../src/testing/index.js";

const here = import.meta.dirname;
const repository = join(here, "..", "..");

// 1. The generated client (examples/resume/baml_client is generated, not committed).
const generation = captureContext({ cwd: repository });
if ((await main(["generate", "--from", "examples/resume/baml_src"], generation)) !== 0) {
  throw new Error(`sapling generate failed:\n${generation.output().stderr}`);
}

// 2. A mock model that answers the way chat models do: chatty, fenced, slightly off-schema.
const recorded = readFileSync(join(repository, "examples", "resume", "outputs", "fenced-chatty.txt"), "utf8");
const mock = await startMockLlmServer({ defaultAnswer: answer(recorded, { headersDelayMs: 30 }) });

// 3. The service, in its own process, as it would be deployed.
const service = spawn(join(repository, "node_modules", ".bin", "tsx"), ["src/server.ts"], {
  cwd: here,
  env: { ...process.env, PORT: "0", LLM_BASE_URL: mock.baseUrls.openai },
  stdio: ["ignore", "pipe", "inherit"],
});
const logLines: string[] = [];
const url = await serviceUrl(service, logLines);

// 4. One request.
const response = await fetch(`${url}/v1/candidates/evaluate`, {
  method: "POST",
  headers: { "content-type": "application/json", "x-request-id": "demo-1" },
  body: JSON.stringify({
    resume_text:
      "Jane Doe — 8 years building distributed systems in Rust and Go. Staff engineer at Streamline " +
      "(2019–2024): led the Kubernetes migration.",
  }),
});
console.log(`HTTP ${response.status} (x-request-id: ${response.headers.get("x-request-id")})`);
console.log(JSON.stringify(await response.json(), null, 2));

// 5. Stop, then show what the service logged.
service.kill("SIGTERM");
await new Promise((resolve) => service.once("exit", resolve));
await mock.close();
console.log("\nService log:");
for (const line of logLines) console.log(line);

/** Resolves with the URL from the service's `service.started` line, collecting every log line. */
function serviceUrl(child: ChildProcess, lines: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = "";
    const timer = setTimeout(() => reject(new Error("the service did not start within 20 s")), 20_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      const complete = buffered.split("\n");
      buffered = complete.pop() ?? "";
      for (const line of complete) {
        lines.push(line);
        const event = JSON.parse(line) as { event?: string; url?: string };
        if (event.event === "service.started" && event.url) {
          clearTimeout(timer);
          resolve(event.url);
        }
      }
    });
    child.once("exit", (code) => reject(new Error(`the service exited with code ${code}`)));
  });
}
