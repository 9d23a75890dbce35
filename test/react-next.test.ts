/**
 * The generated React hooks in a real Next.js app: `test/next-app/` with the generated `baml_client/`
 * (`output_type "typescript/react"`), built with `next build` and served by `next start` on 127.0.0.1, in
 * headless Chromium against the mock LLM. The hooks reach the functions through the generated server
 * actions, as BAML's do: partials of a fenced, chatty answer appear before the answer ends; `stream: false`
 * shows the final value only; a refusal sets `isError` with the model's raw text. `sapling-llm` is bundled
 * into the app's node_modules from the sources (the build's own esbuild options), as an install would
 * provide it. Takes about a minute (the Next build). `.ci/run` installs Chromium; a machine without it
 * skips this file, CI never does.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { build } from "esbuild";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { distBuildOptions } from "../scripts/build-dist.js";
import { generateClient } from "../src/codegen/index.js";
import { compile, renderDiagnostics } from "../src/language/index.js";
import { type MockLlmServer, startMockLlmServer } from "../src/testing/index.js";
import { chromiumPath, launchChromium, chromiumRequired as required } from "./browser/launch-chromium.js";
import { splitIntoChunks, textOf, waitUntil } from "./browser/page-waits.js";

const root = resolve(import.meta.dirname, "..");
const nextBin = join(root, "node_modules", "next", "dist", "bin", "next");

const CHATTY = `Sure! I read the resume carefully. Here is what I found:

\`\`\`json
{"name": "Jane Doe", "skills": ["Rust", "Go", "Kubernetes"], "years": 8}
\`\`\`

Let me know if you need anything else!`;
const CHATTY_CHUNKS = 40;
const REFUSAL = "I'm sorry, but I can't help with that request.";

let scratch: string;
let mock: MockLlmServer;
let next: ChildProcess | undefined;
let nextOutput = "";
let browser: Browser;
let page: Page;

/** What Next printed, for a timeout's message. */
const nextSaid = (): string => `; next said:\n${nextOutput}`;

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolvePort(typeof address === "object" && address ? address.port : 0));
    });
  });
}

function run(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, [nextBin, ...args], {
    cwd: scratch,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env },
  });
  child.stdout?.on("data", (chunk: Buffer) => {
    nextOutput += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    nextOutput += chunk.toString();
  });
  return child;
}

describe.skipIf(!chromiumPath && !required)("generated React hooks in a Next.js app (server actions)", () => {
  beforeAll(async () => {
    expect(chromiumPath, "Chromium is required on CI (.ci/run installs it)").toBeDefined();
    mkdirSync(join(root, ".tmp"), { recursive: true });
    scratch = mkdtempSync(join(root, ".tmp", "next-app-"));
    cpSync(join(import.meta.dirname, "next-app"), scratch, { recursive: true });
    writeFileSync(
      join(scratch, "package.json"),
      JSON.stringify({ name: "sapling-next-test", private: true }),
    );

    const sources = {
      "baml_src/main.baml": readFileSync(
        join(import.meta.dirname, "react-app", "baml_src", "main.baml"),
        "utf8",
      ),
    };
    const { ir, diagnostics } = compile(sources);
    if (!ir) throw new Error(renderDiagnostics(diagnostics, sources));
    const [generator] = ir.generators;
    if (!generator) throw new Error("no generator");
    for (const [file, content] of Object.entries(generateClient(ir, generator))) {
      mkdirSync(dirname(join(scratch, "baml_client", file)), { recursive: true });
      writeFileSync(join(scratch, "baml_client", file), content);
    }

    // sapling-llm as the app would install it: the package's entry points, bundled as `npm run build` does.
    const packageFolder = join(scratch, "node_modules", "sapling-llm");
    await build({
      ...distBuildOptions(packageFolder),
      entryPoints: {
        "runtime/index": join(root, "src", "runtime", "index.ts"),
        "react/index": join(root, "src", "react", "index.ts"),
        "batch/index": join(root, "src", "batch", "index.ts"),
      },
      sourcemap: false,
      logLevel: "silent",
    });
    writeFileSync(
      join(packageFolder, "package.json"),
      JSON.stringify({
        name: "sapling-llm",
        type: "module",
        exports: {
          "./runtime": "./runtime/index.js",
          "./react": "./react/index.js",
          "./batch": "./batch/index.js",
        },
      }),
    );

    mock = await startMockLlmServer({
      respond: (request) =>
        request.promptText.includes("REFUSE")
          ? { text: REFUSAL }
          : { chunks: splitIntoChunks(CHATTY, CHATTY_CHUNKS), chunkDelayMs: 40 },
    });

    const builder = run(["build"], {});
    const status = await new Promise<number | null>((done) => builder.on("close", done));
    if (status !== 0) throw new Error(`next build exited ${status}:\n${nextOutput}`);

    const port = await freePort();
    next = run(["start", "--port", String(port), "--hostname", "127.0.0.1"], {
      MOCK_BASE_URL: `${mock.url}/v1`,
      BAML_LOG: "error",
    });
    browser = await launchChromium();
    page = await browser.newPage();
    await waitUntil(
      async () => {
        try {
          await page.goto(`http://127.0.0.1:${port}/`);
          return true;
        } catch {
          return undefined;
        }
      },
      "next start",
      nextSaid,
    );
    await page.locator("#run").waitFor();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    next?.kill();
    await mock?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("streams partials of a fenced, chatty answer through the server action before it ends", async () => {
    await page.locator("#run").click();
    const shown = await waitUntil(
      async () => {
        const data = JSON.parse(await textOf(page, "#data")) as { name?: string | null } | null;
        return (await textOf(page, "#status")) === "streaming" && data?.name ? data : undefined;
      },
      "a partial with the name",
      nextSaid,
    );
    // The partial came while the mock was still sending, over server_streaming.ts's stream.
    expect(mock.requests.at(-1)?.stream).toBe(true);
    expect(mock.requests.at(-1)?.chunksSent).toBeLessThan(CHATTY_CHUNKS);
    expect("Jane Doe".startsWith(shown.name ?? "-")).toBe(true);
    await waitUntil(
      async () => ((await textOf(page, "#status")) === "success" ? true : undefined),
      "the final value",
    );
    expect(JSON.parse(await textOf(page, "#final"))).toEqual({
      name: "Jane Doe",
      skills: ["Rust", "Go", "Kubernetes"],
      years: 8,
    });
    expect(Number(await textOf(page, "#partials"))).toBeGreaterThan(1);
  });

  it("stream: false calls the other server action and shows the final value only", async () => {
    await page.locator("#stream").uncheck();
    await page.locator("#run").click();
    await waitUntil(
      async () => ((await textOf(page, "#status")) === "success" ? true : undefined),
      "the final value",
    );
    // server.ts ran `b.ExtractResume`: one non-streaming model request.
    expect(mock.requests.at(-1)?.stream).toBe(false);
    expect(JSON.parse(await textOf(page, "#data"))).toEqual({
      name: "Jane Doe",
      skills: ["Rust", "Go", "Kubernetes"],
      years: 8,
    });
    await page.locator("#stream").check();
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
  });
});
