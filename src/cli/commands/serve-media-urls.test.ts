/**
 * Media URLs through `sapling serve` and `sapling dev`, tried as an attacker would: a stand-in internal
 * service on 127.0.0.1 holds a marker, and no byte of it may reach the caller or the model — asked for
 * directly, through DNS (`localhost`), through a redirect, or as an error page. Downloads stop at the cap.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { answer, type MockLlmServer, startMockLlmServer } from "../../testing/index.js";
import { captureContext } from "../cli-context.js";
import { main } from "../main.js";

const source = `
client<llm> Mock {
  provider openai-generic
  options {
    base_url env.MOCK_URL
    model "mock-model"
    media_url_handler { image "send_base64" }
  }
}

function Describe(img: image) -> string {
  client Mock
  prompt #"
    {{ _.role("user") }}
    Describe {{ img }}
  "#
}
`;

/** What the internal service holds; neither it nor its base64 may appear anywhere outside. */
const MARKER = "INTERNAL-ADMIN-PAGE-7c1f9e";
const MARKER_BASE64 = Buffer.from(MARKER).toString("base64");

interface Served {
  server: Server;
  port: number;
  hits: string[];
}

async function listen(handle: (request: IncomingMessage, response: ServerResponse) => void): Promise<Served> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(request.url ?? "");
    handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port, hits };
}

let llm: MockLlmServer;
let internal: Served;
let redirector: Served;
let media: Served;
/** How many endless downloads the media host saw closed by the client. */
let endlessClosed = 0;
let root: string;

beforeAll(async () => {
  llm = await startMockLlmServer({ defaultAnswer: answer("a small image") });
  internal = await listen((request, response) => {
    // An error page that echoes the secret, and a 2xx that serves it: both must stay inside.
    response.writeHead(request.url === "/error" ? 500 : 200, { "content-type": "image/png" });
    response.end(MARKER);
  });
  redirector = await listen((request, response) => {
    const target = new URL(request.url ?? "/", "http://x").searchParams.get("to") ?? "/";
    response.writeHead(302, { location: target });
    response.end();
  });
  media = await listen((request, response) => {
    if (request.url === "/endless") {
      // Never ends: only a client that stops reading at its cap gets out.
      response.writeHead(200, { "content-type": "image/png" });
      const chunk = Buffer.alloc(64 * 1024, 1);
      const write = () => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once("drain", write);
      };
      response.on("close", () => {
        endlessClosed++;
      });
      write();
      return;
    }
    if (request.url === "/declared-huge") {
      response.writeHead(200, { "content-type": "image/png", "content-length": String(64 * 1024 * 1024) });
      response.write(Buffer.alloc(1024));
      return;
    }
    response.writeHead(200, { "content-type": "image/png" });
    response.end("PNGDATA");
  });
  root = mkdtempSync(join(tmpdir(), "sapling-media-urls-"));
  mkdirSync(join(root, "baml_src"));
  writeFileSync(join(root, "baml_src", "main.baml"), source);
});

afterAll(async () => {
  await llm.close();
  for (const served of [internal, redirector, media]) {
    served.server.closeAllConnections();
    await new Promise((resolve) => served.server.close(resolve));
  }
});

beforeEach(() => {
  llm.requests.length = 0;
  internal.hits.length = 0;
});

/** One turn of polling; a condition never reached fails at Vitest's test timeout, not at a clock. */
const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 10));

/** Starts `sapling <command>` in-process with `args`; resolves once it prints its URL. */
async function start(command: "serve" | "dev", args: string[] = []) {
  let stop: () => void = () => {};
  const interrupted = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const context = captureContext({ cwd: root, env: { MOCK_URL: llm.baseUrls.openai }, interrupted });
  const exit = main([command, "--port", "0", ...args], context);
  let exited = false;
  void exit.finally(() => {
    exited = true;
  });
  while (!/http:\/\/\S+:\d+/.test(context.output().stdout)) {
    if (exited) throw new Error(`${command} did not start: ${JSON.stringify(context.output())}`);
    await pause();
  }
  const port = /http:\/\/\S+:(\d+)/.exec(context.output().stdout)?.[1] as string;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    context,
    stop: async () => {
      stop();
      return exit;
    },
  };
}

const internalUrl = (path = "/admin") => `http://127.0.0.1:${internal.port}${path}`;
const redirectTo = (target: string) =>
  `http://127.0.0.1:${redirector.port}/go?to=${encodeURIComponent(target)}`;

/** POSTs the image URL to serve's /call; the status and the whole body as text. */
async function callServe(url: string, imageUrl: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${url}/call/Describe`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ img: { url: imageUrl } }),
  });
  return { status: response.status, text: await response.text() };
}

/** Nothing of the internal service reached the caller, the model, or even the service itself. */
function expectNothingLeaked(text: string, options: { internalHits?: number } = {}) {
  expect(text).not.toContain(MARKER);
  expect(text).not.toContain(MARKER_BASE64);
  const toModel = JSON.stringify(llm.requests);
  expect(toModel).not.toContain(MARKER);
  expect(toModel).not.toContain(MARKER_BASE64);
  expect(internal.hits.length).toBe(options.internalHits ?? 0);
}

describe("sapling serve: media URLs", () => {
  it("refuses every media URL by default, with a 400 that says how to allow a host", async () => {
    const serve = await start("serve");
    try {
      const result = await callServe(serve.url, internalUrl());
      expect(result.status).toBe(400);
      const error = (JSON.parse(result.text) as { error: { code: string; message: string } }).error;
      expect(error.code).toBe("MEDIA_URL");
      expect(error.message).toContain(`host 127.0.0.1:${internal.port}`);
      expect(error.message).toContain("--allow-media-host");
      expectNothingLeaked(result.text);
      expect(llm.requests).toHaveLength(0);
    } finally {
      await serve.stop();
    }
  });

  it("with * allowed, refuses loopback addresses, also when a name resolves to one", async () => {
    const serve = await start("serve", ["--allow-media-host", "*"]);
    try {
      for (const url of [
        internalUrl(),
        `http://localhost:${internal.port}/admin`,
        `http://[::ffff:127.0.0.1]:${internal.port}/admin`,
        `http://2130706433:${internal.port}/admin`,
      ]) {
        const result = await callServe(serve.url, url);
        expect(result.status, url).toBe(400);
        expect(result.text).toMatch(/loopback/);
        expectNothingLeaked(result.text);
      }
    } finally {
      await serve.stop();
    }
  });

  it("re-checks every redirect: an allowed host that redirects to the internal service is refused", async () => {
    const serve = await start("serve", [
      "--allow-media-host",
      `127.0.0.1:${redirector.port}`,
      "--allow-media-host",
      "*",
    ]);
    try {
      for (const target of [internalUrl(), `http://localhost:${internal.port}/admin`]) {
        const result = await callServe(serve.url, redirectTo(target));
        expect(result.status, target).toBe(400);
        expect(JSON.parse(result.text).error.code).toBe("MEDIA_URL");
        expectNothingLeaked(result.text);
      }
      expect(redirector.hits.length).toBeGreaterThanOrEqual(2);
    } finally {
      await serve.stop();
    }
  });

  it("never echoes a media host's error body, and does not blame the provider", async () => {
    const serve = await start("serve", ["--allow-media-host", `127.0.0.1:${internal.port}`]);
    try {
      const result = await callServe(serve.url, internalUrl("/error"));
      expect(result.status).toBe(400);
      const error = (JSON.parse(result.text) as { error: { code: string; message: string } }).error;
      expect(error.message).toContain("HTTP 500");
      expect(error.message).not.toMatch(/openai-generic|Client "Mock"/);
      // The host was allowed, so it was asked once; what it said stays inside.
      expectNothingLeaked(result.text, { internalHits: 1 });
    } finally {
      await serve.stop();
    }
  });

  it("cuts a download off at --media-max-bytes, before the model is called", async () => {
    const closedBefore = endlessClosed;
    const serve = await start("serve", [
      "--allow-media-host",
      `127.0.0.1:${media.port}`,
      "--media-max-bytes",
      "1000000",
    ]);
    try {
      const endless = await callServe(serve.url, `http://127.0.0.1:${media.port}/endless`);
      expect(endless.status).toBe(400);
      expect(endless.text).toContain("larger than the limit of 1000000 bytes");
      await expect.poll(() => endlessClosed).toBe(closedBefore + 1);
      const declared = await callServe(serve.url, `http://127.0.0.1:${media.port}/declared-huge`);
      expect(declared.status).toBe(400);
      expect(llm.requests).toHaveLength(0);
      // An allowed host within the limit works as before: the model gets the image inline.
      const small = await callServe(serve.url, `http://127.0.0.1:${media.port}/small.png`);
      expect(small.status, small.text).toBe(200);
      expect(JSON.stringify(llm.requests[0]?.body)).toContain(Buffer.from("PNGDATA").toString("base64"));
    } finally {
      await serve.stop();
    }
  });

  it("warns loudly when it listens beyond loopback without an API key", async () => {
    const open = await start("serve", ["--host", "0.0.0.0"]).catch(() => undefined);
    if (open === undefined) return; // no interface to bind in this sandbox
    try {
      expect(open.context.output().stderr).toContain("WARNING: sapling serve listens on 0.0.0.0");
      expect(open.context.output().stderr).toContain("SAPLING_API_KEY");
    } finally {
      await open.stop();
    }
    const local = await start("serve");
    await local.stop();
    expect(local.context.output().stderr).not.toContain("WARNING");
  });

  it("refuses an --allow-media-host that is a URL, not a host", async () => {
    const context = captureContext({ cwd: root, env: { MOCK_URL: llm.baseUrls.openai } });
    expect(await main(["serve", "--allow-media-host", "https://example.com/x"], context)).toBe(2);
    expect(context.output().stderr).toContain("give the host name alone");
  });
});

describe("sapling dev: media URLs", () => {
  const post = (url: string, path: string, body: unknown) =>
    fetch(`${url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }).then(async (response) => ({ status: response.status, text: await response.text() }));

  it("refuses the internal service in the prompt preview, a run and a redirect", async () => {
    const dev = await start("dev", ["--allow-media-host", `127.0.0.1:${redirector.port}`]);
    try {
      const preview = await post(dev.url, "/_dev/prompt", {
        function: "Describe",
        args: { img: { url: internalUrl() } },
      });
      expect(preview.text).toMatch(
        /"curlError":"media URL on host 127\.0\.0\.1:\d+: the host is not allowed/,
      );
      expectNothingLeaked(preview.text);
      for (const imageUrl of [internalUrl(), redirectTo(internalUrl())]) {
        const run = await post(dev.url, "/_dev/run", {
          function: "Describe",
          args: { img: { url: imageUrl } },
          mock: false,
          confirm: true,
        });
        expect(run.text, imageUrl).toMatch(/media URL on host 127\.0\.0\.1:\d+/);
        expectNothingLeaked(run.text);
      }
    } finally {
      await dev.stop();
    }
  });
});
