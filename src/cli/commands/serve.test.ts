import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { answer, type MockLlmServer, serverError, startMockLlmServer } from "../../testing/index.js";
import { captureContext } from "../cli-context.js";
import { main } from "../main.js";

const source = `
class Person {
  name string
  age int
}

client<llm> Mock {
  provider openai-generic
  options {
    base_url env.MOCK_URL
    model "mock-model"
  }
}

function ExtractPerson(text: string) -> Person {
  client Mock
  prompt #"
    Extract: {{ text }}
    {{ ctx.output_format }}
  "#
}
`;

const ADA = '{"name": "Ada Lovelace", "age": 36}';

let server: MockLlmServer;
let root: string;

beforeAll(async () => {
  server = await startMockLlmServer();
  root = mkdtempSync(join(tmpdir(), "sapling-serve-"));
  mkdirSync(join(root, "baml_src"));
  writeFileSync(join(root, "baml_src", "main.baml"), source);
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

/** One turn of polling; a condition never reached fails the test at Vitest's test timeout, not at a clock. */
const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 10));

/** Starts `sapling serve` in-process; resolves once it prints its URL. */
async function startServe(extraArgs: string[] = [], env: Record<string, string> = {}) {
  let stop: () => void = () => {};
  const interrupted = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const context = captureContext({
    cwd: root,
    env: { MOCK_URL: server.baseUrls.openai, ...env },
    interrupted,
  });
  const exit = main(["serve", "--port", "0", ...extraArgs], context);
  let exited = false;
  void exit.finally(() => {
    exited = true;
  });
  while (!/http:\/\/\S+:\d+/.test(context.output().stdout)) {
    if (exited) throw new Error(`serve did not start: ${JSON.stringify(context.output())}`);
    await pause();
  }
  const url = /(http:\/\/[^\s]+:\d+)/.exec(context.output().stdout)?.[1] as string;
  return {
    url,
    context,
    stop: async () => {
      stop();
      return exit;
    },
  };
}

describe("sapling serve", () => {
  it("reads --port and the number flags with the CLI's shared flag rules", async () => {
    const port = captureContext({ cwd: root });
    expect(await main(["serve", "--port", "70000"], port)).toBe(2);
    // The words of `sapling mock --port`: one rule in parse-flags.ts.
    expect(port.output().stderr).toContain('--port must be a port number from 0 to 65535, got "70000"');
    const size = captureContext({ cwd: root });
    expect(await main(["serve", "--max-body-bytes", "1e6"], size)).toBe(2);
    expect(size.output().stderr).toContain('--max-body-bytes must be a whole number, got "1e6"');
  });

  it("serves calls and streams over loopback HTTP, logs each request, and stops on interrupt", async () => {
    const serve = await startServe();
    expect(serve.context.output().stdout).toContain("Serving 1 function at http://127.0.0.1:");
    server.script(answer(ADA), answer(ADA, { chunkSize: 4 }));
    const call = await fetch(`${serve.url}/call/ExtractPerson`, {
      method: "POST",
      body: JSON.stringify({ text: "Ada" }),
    });
    expect(call.status).toBe(200);
    expect(await call.json()).toEqual({ name: "Ada Lovelace", age: 36 });

    const stream = await fetch(`${serve.url}/stream/ExtractPerson`, {
      method: "POST",
      body: JSON.stringify({ text: "Ada" }),
    });
    expect(stream.headers.get("content-type")).toContain("text/event-stream");
    const events = await stream.text();
    expect(events.match(/^event: partial$/gm)?.length).toBeGreaterThan(2);
    expect(events.trimEnd()).toMatch(
      /event: final\n(x-sapling-.*\n)*data: \{"name":"Ada Lovelace","age":36\}$/,
    );

    expect(await serve.stop()).toBe(0);
    const output = serve.context.output().stdout;
    // Each line ends with the call's summary, as `sapling call` prints it.
    const summary =
      "client=Mock model=mock-model latency=\\d+ms tokens=\\d+ in / \\d+ out cost=unknown repairs=0";
    expect(output).toMatch(new RegExp(`^POST /call/ExtractPerson 200 \\d+ms ${summary}$`, "m"));
    expect(output).toMatch(new RegExp(`^POST /stream/ExtractPerson 200 \\d+ms ${summary}$`, "m"));
    expect(output).toContain("Stopped.");
    await expect(fetch(`${serve.url}/_debug/ping`)).rejects.toThrow();
  });

  it("requires BAML_PASSWORD as the API key when it is set", async () => {
    const serve = await startServe(["--quiet"], { BAML_PASSWORD: "pw-123" });
    expect(serve.context.output().stdout).toContain("API key required");
    const refused = await fetch(`${serve.url}/openapi.json`);
    expect(refused.status).toBe(401);
    const accepted = await fetch(`${serve.url}/openapi.json`, {
      headers: { authorization: `Basic ${btoa("user:pw-123")}` },
    });
    expect(accepted.status).toBe(200);
    expect(Object.keys(((await accepted.json()) as { paths: object }).paths)).toContain(
      "/call/ExtractPerson",
    );
    await serve.stop();
    expect(serve.context.output().stdout).not.toMatch(/^GET /m);
  });

  it("takes __baml_options__ from an authenticated caller, or with --allow-request-clients", async () => {
    // What a BAML REST client sends: the arguments plus a client registry whose primary replaces the client.
    const body = JSON.stringify({
      text: "Ada",
      __baml_options__: {
        client_registry: {
          clients: [
            {
              name: "Override",
              provider: "openai-generic",
              options: { base_url: server.baseUrls.openai, model: "override-model" },
            },
          ],
          primary: "Override",
        },
      },
    });
    const open = await startServe(["--quiet"]);
    const refused = await fetch(`${open.url}/call/ExtractPerson`, { method: "POST", body });
    expect(refused.status).toBe(403);
    expect(server.requests).toHaveLength(0);
    await open.stop();

    const keyed = await startServe(["--quiet"], { BAML_PASSWORD: "pw-123" });
    server.script(answer(ADA));
    const accepted = await fetch(`${keyed.url}/call/ExtractPerson`, {
      method: "POST",
      body,
      headers: { "x-baml-api-key": "pw-123" },
    });
    expect(accepted.status).toBe(200);
    expect(server.requests[0]?.model).toBe("override-model");
    await keyed.stop();

    const allowed = await startServe(["--quiet", "--allow-request-clients"]);
    server.script(answer(ADA));
    const trusted = await fetch(`${allowed.url}/call/ExtractPerson`, { method: "POST", body });
    expect(trusted.status).toBe(200);
    expect(server.requests[1]?.model).toBe("override-model");
    await allowed.stop();
  });

  it("stops the model call when the client disconnects mid-stream", async () => {
    const serve = await startServe(["--quiet"]);
    // 18 chunks, 100 ms apart.
    server.script(answer(ADA, { chunkSize: 2, chunkDelayMs: 100 }));
    const controller = new AbortController();
    const response = await fetch(`${serve.url}/stream/ExtractPerson`, {
      method: "POST",
      body: JSON.stringify({ text: "Ada" }),
      signal: controller.signal,
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    expect(server.activeRequests()).toBe(1);
    controller.abort();
    while (server.activeRequests() > 0) await pause();
    // The upstream request ended before the mock had written its whole answer.
    expect(server.requests[0]?.chunksSent).toBeLessThan(Math.ceil(ADA.length / 2));
    // Stopping does not wait out the grace period for connections that carry no request: with the clock
    // stopped, the grace timer never fires, and stopping still ends (a stop that needed it would hang).
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      await serve.stop();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("logs the error code and reason of a failure, and a stream the client abandoned", async () => {
    const serve = await startServe();
    server.script(serverError(500, "the upstream is down"), answer(ADA, { chunkSize: 2, chunkDelayMs: 100 }));
    const failed = await fetch(`${serve.url}/call/ExtractPerson`, {
      method: "POST",
      body: JSON.stringify({ text: "Ada" }),
    });
    expect(failed.status).toBe(502);
    const controller = new AbortController();
    const stream = await fetch(`${serve.url}/stream/ExtractPerson`, {
      method: "POST",
      body: JSON.stringify({ text: "Ada" }),
      signal: controller.signal,
    });
    await (stream.body as ReadableStream<Uint8Array>).getReader().read();
    controller.abort();
    while (!/aborted/.test(serve.context.output().stdout)) await pause();
    await serve.stop();
    const output = serve.context.output().stdout;
    expect(output).toMatch(/^POST \/call\/ExtractPerson 502 \d+ms CLIENT_HTTP_ERROR: .*500/m);
    expect(output).toMatch(/^POST \/stream\/ExtractPerson 200 \d+ms aborted by the client$/m);
  });

  it("answers browser preflights for --cors-origin before the API key, and refuses bad origins", async () => {
    const serve = await startServe(["--quiet", "--cors-origin", "http://localhost:5173"], {
      SAPLING_API_KEY: "key-1234",
    });
    expect(serve.context.output().stdout).toContain("CORS for http://localhost:5173");
    const preflight = await fetch(`${serve.url}/call/ExtractPerson`, {
      method: "OPTIONS",
      headers: { origin: "http://localhost:5173", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    server.script(answer(ADA));
    const call = await fetch(`${serve.url}/call/ExtractPerson`, {
      method: "POST",
      headers: { origin: "http://localhost:5173", "x-sapling-api-key": "key-1234" },
      body: JSON.stringify({ text: "Ada" }),
    });
    expect(call.status).toBe(200);
    expect(call.headers.get("access-control-expose-headers")).toContain("x-sapling-truncated");
    expect(call.headers.get("x-sapling-truncated")).toBe("false");
    await serve.stop();
    const usage = captureContext({ cwd: root });
    expect(await main(["serve", "--cors-origin", "http://localhost:5173/app"], usage)).toBe(2);
    expect(usage.output().stderr).toContain("did you mean http://localhost:5173?");
  });

  it("enforces --max-body-bytes over HTTP", async () => {
    const serve = await startServe(["--quiet", "--max-body-bytes", "100"]);
    const response = await fetch(`${serve.url}/call/ExtractPerson`, {
      method: "POST",
      body: JSON.stringify({ text: "x".repeat(200) }),
    });
    expect(response.status).toBe(413);
    await serve.stop();
  });

  it("answers 503 with retry-after beyond --max-concurrent-requests over HTTP", async () => {
    const serve = await startServe(["--quiet", "--max-concurrent-requests", "1"]);
    server.script(answer('{"name": "Ada", "age": 36}', { headersDelayMs: 60 * 60_000 }));
    const gone = new AbortController();
    const first = fetch(`${serve.url}/call/ExtractPerson`, {
      method: "POST",
      body: JSON.stringify({ text: "a" }),
      signal: gone.signal,
    }).catch(() => undefined);
    while (server.requests.length === 0) await pause();
    const second = await fetch(`${serve.url}/parse/ExtractPerson`, {
      method: "POST",
      body: '{"text": "{}"}',
    });
    expect(second.status).toBe(503);
    expect(second.headers.get("retry-after")).toBe("1");
    gone.abort();
    await first;
    await serve.stop();
    const zero = captureContext({ cwd: root });
    expect(await main(["serve", "--max-concurrent-requests", "0"], zero)).toBe(2);
    expect(zero.output().stderr).toContain("--max-concurrent-requests must be a whole number of at least 1");
  });

  it("reports a port in use and a malformed port", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", () => resolve()));
    const port = (blocker.address() as { port: number }).port;
    const context = captureContext({ cwd: root });
    expect(await main(["serve", "--port", String(port)], context)).toBe(1);
    expect(context.output().stderr).toContain(`port ${port} on 127.0.0.1 is in use`);
    blocker.close();
    const usage = captureContext({ cwd: root });
    expect(await main(["serve", "--port", "http"], usage)).toBe(2);
    expect(usage.output().stderr).toContain('--port must be a port number from 0 to 65535, got "http"');
  });
});
