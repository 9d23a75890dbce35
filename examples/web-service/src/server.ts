/**
 * Runs the service on Node with `@hono/node-server`: `npx tsx src/server.ts` (from examples/web-service).
 * Configuration from the environment: PORT (default 3000; 0 picks a free port), HOST (default 127.0.0.1;
 * 0.0.0.0 in a container), and LLM_BASE_URL to send every call to one OpenAI-compatible server (vLLM,
 * Ollama, the mock LLM server) instead of the project's configured clients (LLM_MODEL names its model).
 */
import { serve } from "@hono/node-server";
import { b, ClientRegistry } from "../../resume/baml_client/index.js";
import { createApp } from "./app.js";
import { jsonLineLogger } from "./log.js";

const log = jsonLineLogger((line) => process.stdout.write(line));
const baseUrl = process.env.LLM_BASE_URL;
let client = b;
if (baseUrl) {
  const registry = new ClientRegistry();
  registry.addLlmClient("Configured", "openai-generic", {
    base_url: baseUrl,
    model: process.env.LLM_MODEL ?? "default",
  });
  registry.setPrimary("Configured");
  client = b.withOptions({ clientRegistry: registry });
}
const app = createApp({ client, log });

const server = serve(
  { fetch: app.fetch, port: Number(process.env.PORT ?? 3000), hostname: process.env.HOST ?? "127.0.0.1" },
  (info) =>
    log({
      event: "service.started",
      url: `http://${info.address}:${info.port}`,
      llm_base_url: baseUrl ?? null,
    }),
);

// On SIGINT/SIGTERM stop accepting connections; Node exits once the requests in flight are answered. The
// last line is logged on exit rather than in close's callback, which a connection whose body was refused
// unread (413) can keep from ever running.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => server.close());
process.once("exit", (code) => log({ event: "service.stopped", exit_code: code }));
