/**
 * Runs the service on Node: `npx tsx src/server.ts` (from examples/web-service). Configuration from the
 * environment: PORT (default 3000; 0 picks a free port), and LLM_BASE_URL to send every call to one
 * OpenAI-compatible server (vLLM, Ollama, the mock LLM server) instead of the project's configured clients.
 */
import { createServer } from "node:http";
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

// The smallest bridge from node:http to the web-standard app: bodies here are small JSON documents.
const MAX_BODY_BYTES = 1024 * 1024;

const server = createServer(async (incoming, outgoing) => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of incoming) {
    size += (chunk as Buffer).byteLength;
    if (size > MAX_BODY_BYTES) {
      // Never buffer an unbounded body: answer and drop the connection.
      outgoing.writeHead(413, { "content-type": "application/json", connection: "close" });
      outgoing.end(
        JSON.stringify({ error: { code: "PAYLOAD_TOO_LARGE", reason: "The body is too large." } }),
      );
      incoming.destroy();
      return;
    }
    chunks.push(chunk as Buffer);
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers))
    if (typeof value === "string") headers.set(name, value);
  const method = incoming.method ?? "GET";
  const request = new Request(
    new URL(incoming.url ?? "/", `http://${incoming.headers.host ?? "localhost"}`),
    {
      method,
      headers,
      ...(method === "GET" || method === "HEAD" ? {} : { body: Buffer.concat(chunks) }),
    },
  );
  const response = await app(request);
  outgoing.writeHead(response.status, Object.fromEntries(response.headers));
  outgoing.end(Buffer.from(await response.arrayBuffer()));
});

server.listen(Number(process.env.PORT ?? 3000), "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : process.env.PORT;
  log({ event: "service.started", url: `http://127.0.0.1:${port}`, llm_base_url: baseUrl ?? null });
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    server.close(() => log({ event: "service.stopped" }));
    server.closeIdleConnections();
  });
}
