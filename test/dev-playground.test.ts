/**
 * `sapling dev` in headless Chromium, on a copy of the example project with the mock: the prompt preview
 * (text, ctx.output_format marked, token counts equal to js-tiktoken's), a saved .baml edit reaching the
 * page, a streamed run (partials, then the final value, every attempt of the fallback chain), the parse
 * explorer's repairs marked on a messy answer, the tests, a broken file's diagnostic while the server
 * keeps running, the keyboard path, WCAG AA contrast, the confirmation before a real run, and foreign
 * Host/Origin refused. With UPDATE_SCREENSHOTS=1 it writes the screenshots the README shows
 * (docs/images/dev-*.png). `.ci/run` installs Chromium; a machine without it skips this file, CI never does.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureContext } from "../src/cli/cli-context.js";
import { loadTokenCounter } from "../src/cli/count-tokens.js";
import { main } from "../src/cli/main.js";
import { chromiumPath, launchChromium, chromiumRequired as required } from "./browser/launch-chromium.js";

const root = resolve(import.meta.dirname, "..");
const screenshots = process.env.UPDATE_SCREENSHOTS === "1" ? join(root, "docs", "images") : undefined;

/** A messy answer: prose, a fence, unquoted keys, "7.5" for an int, a comma list, a label for an enum. */
const MESSY = `Sure! Here's my evaluation:

\`\`\`json
{
  candidate_name: "Jane Doe",
  years_of_experience: "7.5",
  skills: "Rust, Go, Kubernetes",
  work_history: [{company: "Streamline", role: "Staff engineer", duration_months: 60, achievements: ["Led the Kubernetes migration"]}],
  decision: "Strong Hire",
  reasoning: "Deep distributed-systems experience",
}
\`\`\``;

/** What the mock answers the runs and tests: fenced JSON with 8 years, so the test's assert holds. */
const MOCK_ANSWER = `Here is my evaluation.

\`\`\`json
{"candidate_name": "Jane Doe", "years_of_experience": 8, "skills": ["Rust", "Go"], "work_history": [{"company": "Streamline", "role": "Staff engineer", "duration_months": 60, "achievements": ["Led the Kubernetes migration"]}], "decision": "STRONG_HIRE", "reasoning": "Eight years of distributed systems, led a migration."}
\`\`\`
`;

const PHOTO_BAML = `function DescribePhoto(photo: image) -> string {
  client GPT4oMini
  prompt #"
    {{ _.role("user") }}
    Describe this photo: {{ photo }}
  "#
}

test Pixel {
  functions [DescribePhoto]
  args {
    photo { file "pixel.png" }
  }
}
`;

/** A 1×1 PNG. */
const PIXEL_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

let project: string;
let stop: () => void;
let finished: Promise<number>;
let url: string;
let browser: Browser;
let page: Page;
const output = { text: () => "" };

async function until<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; output:\n${output.text()}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

async function shoot(name: string): Promise<void> {
  if (screenshots) await page.screenshot({ path: join(screenshots, `dev-${name}.png`), fullPage: true });
}

/** Every visible text's contrast against the background it sits on, below 4.5:1 (WCAG 2.1 AA). */
function lowContrast(target: Page): Promise<string[]> {
  return target.evaluate(() => {
    const parse = (color: string): number[] => (color.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r = 0, g = 0, b = 0]: number[]): number => {
      const channel = (value: number) => {
        const c = value / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const background = (element: Element | null): number[] => {
      for (let at = element; at; at = at.parentElement) {
        const color = parse(getComputedStyle(at).backgroundColor);
        if (color.length === 3 || (color[3] ?? 0) > 0) return color.slice(0, 3);
      }
      return [255, 255, 255];
    };
    const failures: string[] = [];
    for (const element of document.querySelectorAll("body *")) {
      const ownText = [...element.childNodes].some((node) => node.nodeType === 3 && node.textContent?.trim());
      const box = element.getBoundingClientRect();
      if (
        !ownText ||
        box.width === 0 ||
        box.height === 0 ||
        getComputedStyle(element).visibility === "hidden"
      )
        continue;
      const foreground = luminance(parse(getComputedStyle(element).color));
      const behind = luminance(background(element));
      const ratio = (Math.max(foreground, behind) + 0.05) / (Math.min(foreground, behind) + 0.05);
      if (ratio < 4.5)
        failures.push(
          `${element.tagName.toLowerCase()}.${element.className} "${element.textContent?.trim().slice(0, 30)}" ${ratio.toFixed(2)}:1`,
        );
    }
    return failures;
  });
}

describe.skipIf(!chromiumPath && !required)("sapling dev in Chromium", () => {
  beforeAll(async () => {
    expect(chromiumPath, "Chromium is required on CI (.ci/run installs it)").toBeDefined();
    // The page is built by `npm run build`; build it here when this checkout has not been built yet.
    if (!existsSync(join(root, "dist", "ui", "index.html")))
      await build({ configFile: join(root, "ui", "vite.config.ts") });
    project = mkdtempSync(join(tmpdir(), "sapling-dev-"));
    cpSync(join(root, "examples", "resume", "baml_src"), join(project, "baml_src"), { recursive: true });
    // The Eval view's dataset: the example's first 8 rows and its scoring file.
    cpSync(join(root, "examples", "resume", "eval", "score.json"), join(project, "eval", "score.json"));
    const evalRows = readFileSync(join(root, "examples", "resume", "eval", "rows.jsonl"), "utf8").split("\n");
    writeFileSync(join(project, "eval", "rows.jsonl"), `${evalRows.slice(0, 8).join("\n")}\n`);
    // A function with an image parameter and a test that reads the image from a file beside it.
    writeFileSync(join(project, "baml_src", "photo.baml"), PHOTO_BAML);
    writeFileSync(join(project, "baml_src", "pixel.png"), Buffer.from(PIXEL_PNG, "base64"));
    let interrupt = () => {};
    const interrupted = new Promise<void>((done) => {
      interrupt = done;
    });
    stop = interrupt;
    const context = captureContext({ cwd: project, interrupted });
    output.text = () => `${context.output().stdout}\n${context.output().stderr}`;
    finished = main(["dev", "--port", "0", "--mock"], context);
    url = await until(
      () => /Sapling dev at (http:\/\/127\.0\.0\.1:\d+)/.exec(context.output().stdout)?.[1],
      "the server",
    );
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // Nothing may come from the network: every request the page makes goes to the dev server.
    page.on("request", (request) => {
      if (!request.url().startsWith(url) && !request.url().startsWith("data:"))
        throw new Error(`the page fetched ${request.url()}`);
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    stop?.();
    expect(await finished).toBe(0);
    rmSync(project, { recursive: true, force: true });
  });

  it("previews the prompt with ctx.output_format marked and js-tiktoken's token counts", async () => {
    await page.goto(url);
    await page.getByRole("button", { name: "test EvaluateJane" }).click();
    // The tokenizer loads after the server starts; the page updates itself when the counts are ready.
    await page.waitForSelector("#total-tokens:has-text('o200k_base')", { timeout: 90_000 });
    const message = (await page.locator(".message pre").first().textContent()) ?? "";
    expect(message).toContain("Evaluate the candidate's resume below and produce a structured report.");
    expect(message).toContain("Jane Doe — 8 years building distributed systems");
    const marked = await page.locator(".message mark.output-format").allTextContents();
    expect(marked.join("")).toMatch(/^Answer in JSON using this schema:\n\{\n {2}candidate_name: string,/);
    const counter = await loadTokenCounter();
    const expected = counter!(message);
    expect(await page.locator("#total-tokens").textContent()).toContain(
      `total ${expected.o200k_base} o200k_base · ${expected.cl100k_base} cl100k_base tokens`,
    );
    const schemaRows = await page.locator("table.schema-tokens tbody tr").allTextContents();
    expect(schemaRows[0]).toMatch(/^ctx\.output_format\d+\d+$/);
    expect(schemaRows[1]).toMatch(/^JSON Schema \(minified\)\d+\d+$/);
    const curl = (await page.locator("pre.curl").textContent()) ?? "";
    expect(curl).toContain("curl -X POST 'https://api.openai.com/v1/chat/completions'");
    expect(curl).toContain("authorization: [REDACTED]");
    expect(curl).not.toMatch(/mock-openai_api_key|Bearer/);
    await shoot("prompt");
  });

  it("shows a test's media arguments, and serves no file outside the project", async () => {
    await page.getByRole("button", { name: "test Pixel" }).click();
    await page.waitForSelector(".media img");
    expect(
      await page.locator(".media img").evaluate((image) => (image as HTMLImageElement).naturalWidth),
    ).toBe(1);
    expect(await page.locator(".media figcaption").textContent()).toBe("$.photo: pixel.png, sent inline");
    await page.waitForSelector(".media-part");
    expect(await page.locator(".media-part").textContent()).toMatch(
      /^\[image: image\/png, \d+ base64 characters\]$/,
    );
    expect((await fetch(`${url}/_dev/media?path=../../../../etc/passwd`)).status).toBe(404);
    expect((await fetch(`${url}/_dev/media?path=resume.baml`)).status).toBe(200);
    await page.getByRole("button", { name: "test EvaluateJane" }).click();
    await page.waitForSelector(".message pre:has-text('Jane Doe')");
  });

  it("updates the preview when a .baml file is saved, and regenerates baml_client/", async () => {
    const file = join(project, "baml_src", "resume.baml");
    writeFileSync(
      file,
      readFileSync(file, "utf8").replace("produce a structured report", "write a short report"),
    );
    await page.waitForSelector(".message pre:has-text('write a short report')", { timeout: 60_000 });
    const ir = readFileSync(join(project, "baml_client", "ir.ts"), "utf8");
    expect(ir).toContain("write a short report");
  });

  it("streams a run: the raw text beside typed partials, then the final value and the fallback chain", async () => {
    await page.getByRole("tab", { name: "Run" }).click();
    await page.locator("#mock-answer").fill(MOCK_ANSWER);
    await page.locator("#fail-first").check();
    // Record every partial the page shows while the answer streams.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { partials: string[] }).partials = seen;
      new MutationObserver(() => {
        const text = document.getElementById("partial-value")?.textContent ?? "";
        if (text && !document.getElementById("run-status")?.dataset.done && seen.at(-1) !== text)
          seen.push(text);
      }).observe(document.getElementById("view")!, { subtree: true, childList: true, characterData: true });
    });
    await page.locator("#run").click();
    await page.waitForSelector("#run-status[data-done='final']", { timeout: 60_000 });
    const partials = await page.evaluate(() => (window as unknown as { partials: string[] }).partials);
    expect(partials.length).toBeGreaterThan(2);
    const first = JSON.parse(partials[0]!) as Record<string, unknown>;
    expect(first.reasoning ?? null).not.toBe("Eight years of distributed systems, led a migration.");
    const final = JSON.parse((await page.locator("#final-value").textContent()) ?? "") as Record<
      string,
      unknown
    >;
    expect(final).toMatchObject({
      candidate_name: "Jane Doe",
      years_of_experience: 8,
      decision: "STRONG_HIRE",
    });
    expect(await page.locator("#raw-text").textContent()).toBe(MOCK_ANSWER);
    const attempts = await page.locator("table.attempts tbody tr").allTextContents();
    expect(attempts).toHaveLength(2);
    expect(attempts[0]).toMatch(/^1GPT4oMiniopenai503/);
    expect(attempts[1]).toMatch(/^2LocalVLLMopenai-generic200.*used$/);
    expect(await page.locator("ol.repairs li code").allTextContents()).toContain("FromFence");
    await shoot("run");
  });

  it("marks each repair of a messy answer on the raw text, replays it chunk by chunk, and shows a failure's path", async () => {
    await page.getByRole("tab", { name: "Parse explorer" }).click();
    // The last run's answer is one click away.
    await page.locator("#use-last-answer").click();
    expect(await page.locator("#parse-text").inputValue()).toBe(MOCK_ANSWER);
    expect(await page.locator("#parse-type").inputValue()).toBe("CandidateEvaluation");
    await page.locator("#parse-type").fill("CandidateEvaluation");
    await page.locator("#parse-text").fill(MESSY);
    await page.locator("#parse").click();
    await page.waitForSelector("ol.repairs li");
    const kinds = await page.locator("ol.repairs li code").allTextContents();
    expect(kinds).toEqual(
      expect.arrayContaining(["FromFence", "FixedJson", "FloatToInt", "SplitString", "EnumCaseFold"]),
    );
    const marks = await page.locator("#parse-marked mark.repair").allTextContents();
    expect(marks).toContain('"7.5"');
    expect(marks).toContain('"Strong Hire"');
    expect(marks).toContain('"Rust, Go, Kubernetes"');
    const value = JSON.parse((await page.locator("#parse-value").textContent()) ?? "") as Record<
      string,
      unknown
    >;
    expect(value).toMatchObject({
      years_of_experience: 8,
      skills: ["Rust", "Go", "Kubernetes"],
      decision: "STRONG_HIRE",
    });
    // Focusing a repair in the list outlines its stretch of the raw text.
    await page.locator("ol.repairs li[data-kind='EnumCaseFold']").focus();
    expect(await page.locator("#parse-marked mark.active").allTextContents()).toEqual(['"Strong Hire"']);
    await shoot("parse");

    await page.locator("#chunk-size").fill("16");
    await page.locator("#replay").click();
    await page.waitForFunction(() => Number(document.getElementById("replay-label")?.dataset.step) >= 4);
    const steps = Number(await page.locator("#replay-step").getAttribute("max")) + 1;
    expect(steps).toBeGreaterThan(4);
    await page.locator("#replay-step").fill(String(steps - 1));
    expect(await page.locator("#replay-text").textContent()).toBe(MESSY);
    // Halfway through: the partial value as a stream would show it then.
    await page.locator("#replay-step").fill(String(Math.floor(steps / 2)));
    expect(((await page.locator("#replay-text").textContent()) ?? "").length).toBeLessThan(MESSY.length);
    await shoot("replay");

    await page.locator("#parse-type").fill("int");
    await page.locator("#parse-text").fill("No number here, sorry.");
    await page.locator("#parse").click();
    await page.waitForSelector("#parse-error");
    expect(await page.locator(".parse-error dl").textContent()).toMatch(/^path\$expectedint/);

    // A type that does not parse: its code frame keeps its lines, the caret under the column it names.
    await page.locator("#parse-type").fill("map<string, ");
    await page.locator("#parse").click();
    await page.waitForSelector("pre.error");
    const frame = (await page.locator("pre.error").textContent()) ?? "";
    expect(frame.split("\n").length).toBeGreaterThan(2);
    expect(frame).toContain("\n1 | map<string,\n  |             ^\n");
  });

  it("runs the tests and shows each assert's outcome", async () => {
    await page.getByRole("tab", { name: "Tests" }).click();
    await page.locator("#run-all-tests").click();
    await page.waitForSelector("tr[data-test='EvaluateResume::EvaluateJane'] td.status.passed", {
      timeout: 60_000,
    });
    expect(
      await page.locator("tr[data-test='EvaluateResume::EvaluateJane'] ul.checks li").textContent(),
    ).toBe("✓ @@assert({{ this.years_of_experience > 5 }})");
    await shoot("tests");
  });

  it("runs an eval in the Eval view and frames the report sapling eval writes", async () => {
    await page.getByRole("tab", { name: "Eval" }).click();
    expect(await page.locator("#eval-data").inputValue()).toBe("eval/rows.jsonl");
    expect(await page.locator("#eval-score").inputValue()).toBe("eval/score.json");
    await page.locator("#eval-clients").fill("mock/fenced-prose,mock/cut-by-max-tokens");
    await page.locator("#eval-mode-native").check();
    await page.locator("#run-eval").click();
    await page.waitForSelector("#eval-table", { timeout: 120_000 });
    const table = (await page.locator("#eval-table").textContent()) ?? "";
    expect(table.split("\n")[0]).toBe("sapling eval EvaluateResume: 8 rows × 4 cells");
    expect(table).toMatch(/mock\/fenced-prose +prompt +\d+ +0\.0% +0\.0% +100\.0%/);
    // The report is the page sapling eval --html writes, in a frame: its charts and the failing cut rows.
    const report = page.frameLocator("#eval-report");
    expect(await report.locator("h1").textContent()).toBe("sapling eval EvaluateResume: 8 rows × 4 cells");
    expect(await report.locator(".chart").count()).toBe(10);
    expect(
      await report.locator("details.failure summary", { hasText: "mock/cut-by-max-tokens · prompt" }).count(),
    ).toBeGreaterThan(0);
    await shoot("eval");
  });

  it("shows a broken file's diagnostic with its code frame, keeps the last good state, and recovers", async () => {
    const file = join(project, "baml_src", "resume.baml");
    const good = readFileSync(file, "utf8");
    writeFileSync(file, good.replace("  years_of_experience int\n", "  years_of_experience Integer\n"));
    await page.waitForSelector(".banner-error", { timeout: 60_000 });
    expect(await page.locator(".banner-error").textContent()).toContain(
      "has 1 error; the page shows the last state that compiled",
    );
    // The header agrees with the banner: not "Up to date" while a file is broken.
    await page.waitForSelector("#status[data-state='errors']");
    expect(await page.locator("#status").textContent()).toBe("1 error: showing the last state that compiled");
    await page.getByRole("tab", { name: /Diagnostics/ }).click();
    const text = (await page.locator("#diagnostics-text").textContent()) ?? "";
    expect(text).toContain("baml_src/resume.baml:");
    expect(text).toContain("years_of_experience Integer");
    expect(text).toMatch(/\^+/);
    await shoot("diagnostics");
    // The server still answers with the last good project.
    const view = (await (await fetch(`${url}/_dev/project`)).json()) as { functions: { name: string }[] };
    expect(view.functions.map((fn) => fn.name)).toEqual(["DescribePhoto", "EvaluateResume"]);
    writeFileSync(file, good);
    await page.waitForSelector(".banner-error", { state: "detached", timeout: 60_000 });
    await page.waitForSelector("#no-diagnostics");
    expect(await page.locator("#status").textContent()).toMatch(/^Up to date \(version \d+\)$/);
  });

  it("reaches every control by keyboard and runs a function with the keyboard alone", async () => {
    await page.goto(url);
    await page.waitForSelector("#args");
    const reached = new Set<string>();
    for (let step = 0; step < 40; step++) {
      await page.keyboard.press("Tab");
      reached.add(
        await page.evaluate(() => {
          const element = document.activeElement as HTMLElement | null;
          return element?.id ? `#${element.id}` : (element?.textContent?.trim().slice(0, 40) ?? "");
        }),
      );
    }
    for (const control of [
      "Skip to the view",
      "EvaluateResume(resume_text: ",
      "test EvaluateJane",
      "#args",
      "#client",
      "#use-mock",
      "#tab-prompt",
    ])
      expect(
        [...reached].some((item) => item.startsWith(control)),
        `${control} is reachable by Tab`,
      ).toBe(true);
    await page.locator("#tab-prompt").focus();
    await page.keyboard.press("ArrowRight");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("tab-run");
    await page.locator("#mock-answer").focus();
    await page.keyboard.press("Tab"); // the fail-first checkbox
    await page.keyboard.press("Tab"); // Run
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("run");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#run-status[data-done='final']", { timeout: 60_000 });
  });

  it("meets WCAG AA contrast in every view", async () => {
    // The measure itself catches grey on white (2.3:1) and passes the page's muted grey (7.5:1).
    const probe = await browser.newPage();
    await probe.setContent('<p style="color:#aaa">too light</p><p style="color:#4f5661">muted</p>');
    expect(await lowContrast(probe)).toEqual([expect.stringMatching(/^p\. "too light" 2\.3\d:1$/)]);
    await probe.close();
    const failures: string[] = [];
    for (const tab of ["Prompt", "Run", "Parse explorer", "Tests", "Eval", "Diagnostics"]) {
      await page.getByRole("tab", { name: tab }).click();
      await page.waitForTimeout(300);
      failures.push(...(await lowContrast(page)).map((failure) => `${tab}: ${failure}`));
    }
    expect(failures).toEqual([]);
  });

  it("asks before a run against a real model, and the server refuses one without confirmation", async () => {
    await page.getByRole("tab", { name: "Run" }).click();
    await page.locator("#use-mock").uncheck();
    await page.waitForSelector("p.warning");
    await page.locator("#run").click();
    const dialog = page.locator("dialog#confirm");
    await dialog.waitFor({ state: "visible" });
    expect(await dialog.textContent()).toContain("calls the real model with the API keys");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    await page.locator("#use-mock").check();
    const refused = await fetch(`${url}/_dev/run`, {
      method: "POST",
      body: JSON.stringify({ function: "EvaluateResume", args: { resume_text: "x" }, mock: false }),
    });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("CONFIRM_REQUIRED");
  });

  it("refuses a foreign Origin and a foreign Host (DNS rebinding)", async () => {
    const origin = await fetch(`${url}/_dev/project`, { headers: { origin: "http://evil.example" } });
    expect(origin.status).toBe(403);
    const crossSite = await fetch(`${url}/call/EvaluateResume`, {
      method: "POST",
      headers: { origin: "http://localhost:1", "content-type": "application/json" },
      body: "{}",
    });
    expect(crossSite.status).toBe(403);
    const port = Number(new URL(url).port);
    const status = await new Promise<number>((done, fail) => {
      const request = httpRequest(
        { host: "127.0.0.1", port, path: "/_dev/project", headers: { host: `evil.example:${port}` } },
        (response) => {
          response.resume();
          done(response.statusCode ?? 0);
        },
      );
      request.on("error", fail);
      request.end();
    });
    expect(status).toBe(403);
    expect((await fetch(`${url}/_dev/project`)).status).toBe(200);
  });
});
