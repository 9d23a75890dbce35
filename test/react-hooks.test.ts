/**
 * The React hooks in a real browser: a small Vite React app (test/react-app/, built here with Vite's JS
 * API) using the generated `useExtractResume` over HTTP and `useSaplingObject`, served on 127.0.0.1 by
 * `createSaplingHandler` next to a route that streams object partials (`streamObjectResponse`), in headless
 * Chromium, against the mock LLM. It checks that partials of a fenced, chatty answer appear before the
 * answer ends, that a refusal sets `isError` with the model's raw text, and that unmounting aborts the
 * call (the server sees the caller leave, the mock stops short). The app and its generated client are
 * type-checked first. `.ci/run` installs Chromium; a machine without it skips this file, CI never does.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, extname, join, resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { type NodeHttpServer, serveOverNodeHttp } from "../src/cli/commands/serve-over-node-http.js";
import { generateClient } from "../src/codegen/index.js";
import type { Ir } from "../src/ir/index.js";
import { compile, renderDiagnostics } from "../src/language/index.js";
import { createLanguageModel } from "../src/llm/create-language-model.js";
import { streamObjectResponse } from "../src/object-stream/index.js";
import { SaplingRuntime } from "../src/runtime/index.js";
import { type AccessEntry, createSaplingHandler } from "../src/server/index.js";
import { type MockLlmServer, startMockLlmServer } from "../src/testing/index.js";
import { createStreamParser } from "../src/zod/index.js";
import { chromiumPath, launchChromium, chromiumRequired as required } from "./browser/launch-chromium.js";
import { splitIntoChunks, textOf, waitUntil } from "./browser/page-waits.js";
import { typeCheck } from "./codegen-typecheck.js";

const root = resolve(import.meta.dirname, "..");
const appSource = join(import.meta.dirname, "react-app");

/** A chatty, fenced answer, sent in 48 chunks 40 ms apart: partials must show long before its end. */
const CHATTY = `Sure! I read the resume carefully. Here is what I found:

\`\`\`json
{
  "name": "Jane Doe",
  "skills": ["Rust", "Go", "Kubernetes", "PostgreSQL"],
  "years": 8
}
\`\`\`

Let me know if you need anything else about this candidate!`;
const CHATTY_CHUNKS = 48;

const REFUSAL = "I'm sorry, but I can't help with extracting personal data from this document.";

/** A long answer for the unmount test: 400 chunks, 25 ms apart (10 s), of which only the start is read. */
const LONG_CHUNKS = 400;
const LONG = `\`\`\`json\n{"name": "Long Answer", "skills": [${Array.from({ length: LONG_CHUNKS }, (_, index) => `"skill ${index}"`).join(", ")}], "years": 3}\n\`\`\``;

const RECIPE = `Happy to help! Pancakes it is:

\`\`\`json
{"title": "Pancakes", "steps": ["Whisk flour, milk and eggs", "Rest the batter", "Fry in butter"]}
\`\`\``;

/** The route's schema (Zod); the page names the same shape in JSON Schema for its types. */
const recipeSchema = z.object({ title: z.string(), steps: z.array(z.string()) });

let scratch: string;
let mock: MockLlmServer;
let server: NodeHttpServer;
let browser: Browser;
let page: Page;
const access: AccessEntry[] = [];
const pageErrors: string[] = [];

function compileApp(): Ir {
  const sources = { "baml_src/main.baml": readFileSync(join(appSource, "baml_src", "main.baml"), "utf8") };
  const { ir, diagnostics } = compile(sources);
  if (!ir) throw new Error(renderDiagnostics(diagnostics, sources));
  return ir;
}

const contentTypes: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

describe.skipIf(!chromiumPath && !required)("generated React hooks in Chromium", () => {
  beforeAll(async () => {
    expect(chromiumPath, "Chromium is required on CI (.ci/run installs it)").toBeDefined();
    // Inside the repository, so that the app's bare imports (react, react-dom) resolve from node_modules.
    mkdirSync(join(root, ".tmp"), { recursive: true });
    scratch = mkdtempSync(join(root, ".tmp", "react-app-"));
    cpSync(appSource, scratch, { recursive: true });
    const ir = compileApp();
    const generator = ir.generators[0];
    if (!generator) throw new Error("the app's project has no generator");
    const files = generateClient(ir, generator);
    for (const [file, content] of Object.entries(files)) {
      mkdirSync(dirname(join(scratch, "baml_client", file)), { recursive: true });
      writeFileSync(join(scratch, "baml_client", file), content);
    }

    mock = await startMockLlmServer({
      respond: (request) => {
        if (request.promptText.includes("pancakes"))
          return { chunks: splitIntoChunks(RECIPE, 30), chunkDelayMs: 40 };
        if (request.promptText.includes("REFUSE"))
          return { chunks: splitIntoChunks(REFUSAL, 6), chunkDelayMs: 10 };
        if (request.promptText.includes("LONG"))
          return { chunks: splitIntoChunks(LONG, LONG_CHUNKS), chunkDelayMs: 25 };
        return { chunks: splitIntoChunks(CHATTY, CHATTY_CHUNKS), chunkDelayMs: 40 };
      },
    });
    const runtime = SaplingRuntime.fromIr(ir, { env: { MOCK_BASE_URL: `${mock.url}/v1` } });
    const saplingHandler = createSaplingHandler({ runtime, ir, onAccess: (entry) => access.push(entry) });
    const model = createLanguageModel(
      "openai-generic",
      { base_url: `${mock.url}/v1`, model: "mock" },
      { fetch },
    );
    const outDir = join(scratch, "dist");

    server = await serveOverNodeHttp(
      async (request) => {
        const path = new URL(request.url).pathname;
        if (path === "/api/recipe") {
          // The route of useSaplingObject: the model's text stream, parsed toward the schema as it arrives.
          const { dish } = (await request.json()) as { dish: string };
          const events = model.stream(
            [{ role: "user", parts: [{ type: "text", text: `A recipe for ${dish}` }] }],
            {
              signal: request.signal,
            },
          );
          const textStream = (async function* () {
            for await (const event of events) if (event.type === "text-delta") yield event.text;
          })();
          return streamObjectResponse(textStream, createStreamParser(recipeSchema));
        }
        if (request.method === "POST") return saplingHandler(request);
        const file = join(outDir, path === "/" ? "index.html" : path);
        if (!file.startsWith(outDir)) return new Response("not found", { status: 404 });
        try {
          return new Response(readFileSync(file), {
            headers: { "content-type": contentTypes[extname(file)] ?? "application/octet-stream" },
          });
        } catch {
          return new Response("not found", { status: 404 });
        }
      },
      { port: 0, host: "127.0.0.1" },
    );

    await build({
      root: scratch,
      configFile: false,
      logLevel: "warn",
      resolve: { alias: { "sapling-llm/react": join(root, "src", "react", "index.ts") } },
      build: { outDir, emptyOutDir: true, minify: false },
    });

    browser = await launchChromium();
    page = await browser.newPage();
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") pageErrors.push(message.text());
    });
    await page.goto(server.url);
    await page.locator("#run").waitFor();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close(0);
    await mock?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("the app and its generated React client type-check under strict settings", () => {
    const clientFiles = readdirSync(join(scratch, "baml_client"), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
    const diagnostics = typeCheck({
      moduleFormat: "esm",
      rootFiles: [join(scratch, "main.ts"), ...clientFiles],
      virtualFiles: new Map(),
      reportUnder: [scratch],
    });
    expect(diagnostics).toEqual([]);
    // One compiler program over the app, its client and the runtime's sources: seconds, more when loaded.
  }, 180_000);

  it("shows partials of a fenced, chatty answer before the answer ends, then the final value", async () => {
    await page.locator("#run").click();
    const shown = await waitUntil(async () => {
      const data = JSON.parse(await textOf(page, "#data")) as { name?: string | null } | null;
      return (await textOf(page, "#status")) === "streaming" && data?.name ? data : undefined;
    }, "a partial with the name");
    const request = mock.requests.at(-1);
    // The partial came while the mock was still sending: the answer had not ended.
    expect(request?.chunksSent).toBeLessThan(CHATTY_CHUNKS);
    expect("Jane Doe".startsWith(shown.name ?? "-")).toBe(true);
    await waitUntil(
      async () => ((await textOf(page, "#status")) === "success" ? true : undefined),
      "the final value",
    );
    expect(JSON.parse(await textOf(page, "#final"))).toEqual({
      name: "Jane Doe",
      skills: ["Rust", "Go", "Kubernetes", "PostgreSQL"],
      years: 8,
    });
    expect(JSON.parse(await textOf(page, "#data"))).toEqual(JSON.parse(await textOf(page, "#final")));
    expect(Number(await textOf(page, "#partials"))).toBeGreaterThan(1);
    expect(await textOf(page, "#loading")).toBe("false");
  });

  it("sets isError with the model's raw text on a refusal", async () => {
    await page.locator("#input").fill("REFUSE this one");
    await page.locator("#run").click();
    await waitUntil(
      async () => ((await textOf(page, "#status")) === "error" ? true : undefined),
      "the error",
    );
    expect(await textOf(page, "#error-name")).toBe("BamlValidationError");
    expect(await textOf(page, "#error-raw")).toBe(REFUSAL);
    expect(await textOf(page, "#loading")).toBe("false");
  });

  it("streams a Zod or JSON Schema object with useSaplingObject", async () => {
    await page.locator("#object-run").click();
    const partial = await waitUntil(async () => {
      const object = JSON.parse(await textOf(page, "#object")) as { title?: string | null } | null;
      return (await textOf(page, "#object-loading")) === "true" && object?.title ? object : undefined;
    }, "an object partial");
    expect("Pancakes".startsWith(partial.title ?? "-")).toBe(true);
    await waitUntil(
      async () => ((await textOf(page, "#object-loading")) === "false" ? true : undefined),
      "the object",
    );
    expect(JSON.parse(await textOf(page, "#object"))).toEqual({
      title: "Pancakes",
      steps: ["Whisk flour, milk and eggs", "Rest the batter", "Fry in butter"],
    });
    expect(await textOf(page, "#object-error")).toBe("");
  });

  it("aborts the call when the component unmounts", async () => {
    await page.locator("#input").fill("LONG answer please");
    await page.locator("#run").click();
    await waitUntil(
      async () => ((await textOf(page, "#status")) === "streaming" ? true : undefined),
      "streaming",
    );
    const before = access.length;
    await page.locator("#unmount").click();
    expect(await textOf(page, "#mounted")).toBe("false");
    // The server sees the caller leave: the stream ends as aborted, which stops the model call.
    const entry = await waitUntil(
      () => access.slice(before).find((candidate) => candidate.path === "/stream/ExtractResume"),
      "the stream's access entry",
    );
    expect(entry.outcome).toBe("aborted");
    expect(mock.requests.at(-1)?.chunksSent).toBeLessThan(LONG_CHUNKS);
    expect(pageErrors).toEqual([]);
  });
});
