/**
 * Planted secrets: credentials in headers with names no rule could guess (`Ocp-Apim-Subscription-Key`,
 * `Helicone-Auth`, `x-key`, …) and in a URL's user info, sent to an upstream that echoes every header it
 * got in its error body. Every surface a call prints to must show none of them: the error at every log
 * level, the Collector, `redactRequest`, the dev page's cURL, serve's 502 body, spans, batch files.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileCheckpoint, runBatch } from "../src/batch/index.js";
import { formatCurl } from "../src/dev/index.js";
import { compile } from "../src/language/index.js";
import { Collector, redactRequest, SaplingRuntime } from "../src/runtime/index.js";
import { createSaplingHandler } from "../src/server/index.js";
import { type MockLlmServer, serverError, startMockLlmServer } from "../src/testing/index.js";

const SECRETS = {
  APIM_KEY: "apim-planted-0f1e2d3c",
  HELICONE_AUTH: "helicone-planted-4b5a6978",
  X_KEY: "xkey-planted-8a9bacbd",
  LITELLM_KEY: "litellm-planted-cedf0011",
  FUNCTIONS_KEY: "azfn-planted-22334455",
  X_AUTH: "xauth-planted-66778899",
  USERINFO_PASSWORD: "userinfo-planted-aabbccdd",
};

const source = `
client<llm> Gateway {
  provider openai-generic
  options {
    base_url env.GATEWAY_URL
    model "gateway-model"
    headers {
      "Ocp-Apim-Subscription-Key" env.APIM_KEY
      "Helicone-Auth" env.HELICONE_AUTH
      "x-key" env.X_KEY
      "x-litellm-key" env.LITELLM_KEY
      "x-functions-key" env.FUNCTIONS_KEY
      "X-Auth" env.X_AUTH
    }
  }
}

client<llm> WithUserInfo {
  provider openai-generic
  options {
    base_url env.USERINFO_URL
    model "gateway-model"
  }
}

function Greet(name: string) -> string {
  client Gateway
  prompt #"Say hello to {{ name }}."#
}

function GreetUserInfo(name: string) -> string {
  client WithUserInfo
  prompt #"Say hello to {{ name }}."#
}
`;

let upstream: MockLlmServer;
let env: Record<string, string>;
const ir = (() => {
  const compiled = compile({ "main.baml": source });
  if (!compiled.ir) throw new Error(JSON.stringify(compiled.diagnostics));
  return compiled.ir;
})();

beforeAll(async () => {
  // A gateway that answers 401 and echoes every request header it received (some proxies do).
  upstream = await startMockLlmServer({
    respond: (request) => serverError(401, `unauthorized; you sent ${JSON.stringify(request.headers)}`),
  });
  const base = new URL(upstream.baseUrls.openai);
  env = {
    ...SECRETS,
    GATEWAY_URL: upstream.baseUrls.openai,
    USERINFO_URL: `${base.protocol}//gateway-user:${SECRETS.USERINFO_PASSWORD}@${base.host}${base.pathname}`,
  };
});
afterAll(() => upstream.close());

function expectNoSecret(surface: string, text: string): void {
  for (const [name, value] of Object.entries(SECRETS)) {
    expect(text, `${surface} shows ${name}`).not.toContain(value);
  }
}

/** A runtime that records everything it prints: log lines at every level, spans, log events. */
function recordingRuntime() {
  const lines: string[] = [];
  const runtime = SaplingRuntime.fromIr(ir, {
    env,
    logLevel: "debug",
    logger: (level, message, fields) => lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`),
  });
  const spans: unknown[] = [];
  runtime.tracing.addExporter({ onEnd: (span) => spans.push(span) });
  const events: unknown[] = [];
  runtime.tracing.onLogEvent((event) => events.push(event));
  return { runtime, lines, spans, events };
}

describe("planted secrets in custom-named headers", () => {
  it("the headers really carry them (so the checks below can fail)", async () => {
    const request = await recordingRuntime().runtime.buildRequest(
      "Greet",
      { name: "Ada" },
      { stream: false },
    );
    expect(request.headers["ocp-apim-subscription-key"]).toBe(SECRETS.APIM_KEY);
    expect(request.headers["x-key"]).toBe(SECRETS.X_KEY);
  });

  it("stay out of errors at every log level, the Collector, spans and log events", async () => {
    const { runtime, lines, spans, events } = recordingRuntime();
    const collector = new Collector("planted");
    const error = await runtime
      .call("Greet", { name: "Ada" }, { collector })
      .catch((caught: unknown) => caught);
    expect(String(error)).toContain("HTTP 401");
    await runtime.tracing.flush();
    expectNoSecret("the error", `${String(error)} ${JSON.stringify(error)} ${(error as Error).stack}`);
    expect(lines.some((line) => line.startsWith("warn "))).toBe(true);
    expect(lines.some((line) => line.startsWith("debug "))).toBe(true);
    expectNoSecret("log lines", lines.join("\n"));
    expect(collector.logs).toHaveLength(1);
    expectNoSecret("collector.logs", JSON.stringify(collector.logs));
    expect(spans.length).toBeGreaterThan(0);
    expectNoSecret("spans", JSON.stringify(spans));
    expectNoSecret("log events", JSON.stringify(events));
  });

  it("stay out of redactRequest and the dev page's cURL", async () => {
    const request = await recordingRuntime().runtime.buildRequest(
      "Greet",
      { name: "Ada" },
      { stream: false },
    );
    const shown = redactRequest(request);
    expect(shown.headers["helicone-auth"]).toBe("[REDACTED]");
    expectNoSecret("redactRequest", JSON.stringify(shown));
    expectNoSecret("the dev cURL", formatCurl(request));
  });

  it("stay out of serve's 502 body", async () => {
    const handler = createSaplingHandler({ runtime: recordingRuntime().runtime, ir });
    const response = await handler(
      new Request("http://127.0.0.1/call/Greet", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "Ada" }),
      }),
    );
    expect(response.status).toBe(502);
    expectNoSecret("the 502 body", await response.text());
  });

  it("stay out of batch files", async () => {
    const folder = mkdtempSync(join(tmpdir(), "sapling-planted-"));
    const path = join(folder, "checkpoint.jsonl");
    const checkpoint = fileCheckpoint(path, { function: "Greet", rows: "planted" });
    // A 401 stops the batch (no refused row is recorded, so a rerun with a fixed key asks it again); its
    // error is what a user reads, and the checkpoint holds what was written before it.
    const error = await runBatch(recordingRuntime().runtime, "Greet", [{ id: "1", args: { name: "Ada" } }], {
      checkpoint,
    }).catch((caught: unknown) => caught);
    checkpoint.close();
    expect(String(error)).toContain("401");
    expect(String(error)).toContain("ocp-apim-subscription-key");
    expectNoSecret("the batch error", `${String(error)} ${JSON.stringify(error)}`);
    expectNoSecret("the batch checkpoint", readFileSync(path, "utf8"));
  });
});

describe("credentials in a base_url's user info", () => {
  it("are refused with a message that says to use a header, and shown nowhere", async () => {
    const { runtime, lines, spans } = recordingRuntime();
    const collector = new Collector("userinfo");
    const error = await runtime
      .call("GreetUserInfo", { name: "Ada" }, { collector })
      .catch((caught: unknown) => caught);
    await runtime.tracing.flush();
    expect(String(error)).toContain("carries a user name or password");
    expect(String(error)).toContain("header");
    expect(String(error)).toContain("[REDACTED]@127.0.0.1");
    expect(upstream.requests.some((request) => request.headers.authorization?.startsWith("Basic"))).toBe(
      false,
    );
    expectNoSecret("the error", `${String(error)} ${JSON.stringify(error)}`);
    expectNoSecret("log lines", lines.join("\n"));
    expectNoSecret("collector.logs", JSON.stringify(collector.logs));
    expectNoSecret("spans", JSON.stringify(spans));
    const built = await runtime
      .buildRequest("GreetUserInfo", { name: "Ada" }, { stream: false })
      .catch((caught: unknown) => caught);
    expect(String(built)).toContain("carries a user name or password");
    expectNoSecret("b.request's error (the dev page's cURL error)", String(built));
  });

  it("stay out of serve's error body and batch files", async () => {
    const handler = createSaplingHandler({ runtime: recordingRuntime().runtime, ir });
    const response = await handler(
      new Request("http://127.0.0.1/call/GreetUserInfo", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "Ada" }),
      }),
    );
    const body = await response.text();
    expect(body).toContain("INVALID_CLIENT_OPTIONS");
    expectNoSecret("serve's error body", body);
    const path = join(mkdtempSync(join(tmpdir(), "sapling-planted-")), "checkpoint.jsonl");
    const checkpoint = fileCheckpoint(path, { function: "GreetUserInfo", rows: "planted" });
    await runBatch(recordingRuntime().runtime, "GreetUserInfo", [{ id: "1", args: { name: "Ada" } }], {
      checkpoint,
    });
    checkpoint.close();
    expect(readFileSync(path, "utf8")).toContain("user name or password");
    expectNoSecret("the batch checkpoint", readFileSync(path, "utf8"));
  });
});
