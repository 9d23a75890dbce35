/**
 * `sapling dev`'s Eval view through the dev server's HTTP API, on a copy of the example project with the
 * mock answer profiles (the mock LLM server on 127.0.0.1): the eval's table and HTML report are the bytes
 * `sapling eval --replay … --html` prints and writes for the same records, a rerun calls no model for
 * recorded rows, and a real client, a file outside the project or a vague request are refused.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureContext } from "../src/cli/cli-context.js";
import { main } from "../src/cli/main.js";
import type { DevErrorBody, DevEvalResult, DevProjectView } from "../src/dev/dev-api.js";

const example = resolve(import.meta.dirname, "..", "examples", "resume");
let project: string;
let url: string;
let stop: () => void;
let finished: Promise<number>;

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), "sapling-dev-eval-"));
  cpSync(join(example, "baml_src"), join(project, "baml_src"), { recursive: true });
  cpSync(join(example, "eval", "score.json"), join(project, "eval", "score.json"), { recursive: true });
  const rows = readFileSync(join(example, "eval", "rows.jsonl"), "utf8")
    .trimEnd()
    .split("\n")
    .slice(0, 8);
  writeFileSync(join(project, "eval", "rows.jsonl"), `${rows.join("\n")}\n`);
  let interrupt = () => {};
  const interrupted = new Promise<void>((done) => {
    interrupt = done;
  });
  stop = interrupt;
  const context = captureContext({ cwd: project, interrupted });
  finished = main(["dev", "--port", "0", "--mock"], context);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const found = /Sapling dev at (http:\/\/127\.0\.0\.1:\d+)/.exec(context.output().stdout)?.[1];
    if (found) {
      url = found;
      break;
    }
    if (Date.now() > deadline) throw new Error(`no server; output:\n${context.output().stderr}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}, 90_000);

afterAll(async () => {
  stop?.();
  expect(await finished).toBe(0);
  rmSync(project, { recursive: true, force: true });
});

const postEval = (body: unknown) =>
  fetch(`${url}/_dev/eval`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

const recordsFile = () => join(project, ".sapling", "eval", "EvaluateResume", "records.jsonl");
const recordLines = () => readFileSync(recordsFile(), "utf8").trimEnd().split("\n");

const request = {
  function: "EvaluateResume",
  data: "eval/rows.jsonl",
  score: "eval/score.json",
  clients: ["mock/fenced-prose", "mock/cut-by-max-tokens"],
  modes: ["prompt", "native"],
};

describe("sapling dev's Eval view over HTTP", () => {
  it("offers the answer profiles and the project's dataset files", async () => {
    const view = (await (await fetch(`${url}/_dev/project`)).json()) as DevProjectView;
    expect(view.eval.profiles).toContain("mock/reasoning-first");
    expect(view.eval.datasets).toEqual(["eval/rows.jsonl"]);
  });

  it("runs an eval and shows the table and report that sapling eval gives for the same records", {
    timeout: 120_000,
  }, async () => {
    const response = await postEval(request);
    const result = (await response.json()) as DevEvalResult & DevErrorBody;
    expect(response.status, JSON.stringify(result.error)).toBe(200);
    expect(result.table.split("\n")[0]).toBe("sapling eval EvaluateResume: 8 rows × 4 cells");
    expect(result.records).toBe(".sapling/eval/EvaluateResume/records.jsonl");
    expect(recordLines()).toHaveLength(1 + 8 * 4);
    const page = await fetch(`${url}${result.reportUrl}`);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await page.text();

    const context = captureContext({ cwd: project });
    const code = await main(
      [
        "eval",
        "EvaluateResume",
        "--data",
        "eval/rows.jsonl",
        "--score",
        "eval/score.json",
        "--replay",
        ".sapling/eval/EvaluateResume",
        "--html",
        "report.html",
      ],
      context,
    );
    expect(code, context.output().stderr).toBe(0);
    expect(context.output().stdout).toBe(result.table);
    expect(readFileSync(join(project, "report.html"), "utf8")).toBe(html);
    expect(html).toContain("<h1>sapling eval EvaluateResume: 8 rows × 4 cells</h1>");
  });

  it("resumes: a rerun calls no model for recorded rows, and fresh starts over", {
    timeout: 120_000,
  }, async () => {
    const before = recordLines();
    const again = await postEval(request);
    expect(again.status).toBe(200);
    expect(recordLines()).toEqual(before);
    const fresh = await postEval({ ...request, clients: ["mock/clean-json"], modes: ["tools"], fresh: true });
    expect(fresh.status).toBe(200);
    expect(recordLines()).toHaveLength(1 + 8);
    expect(((await fresh.json()) as DevEvalResult).table).toContain("mock/clean-json");
  });

  it("asks before a real model, and refuses a file outside the project or a request without rows", async () => {
    const real = await postEval({ ...request, clients: ["GPT4oMini"] });
    expect(real.status).toBe(409);
    expect(((await real.json()) as DevErrorBody).error.code).toBe("CONFIRM_REQUIRED");
    const outside = await postEval({ ...request, data: "../../etc/passwd" });
    expect(outside.status).toBe(400);
    expect(((await outside.json()) as DevErrorBody).error.message).toContain(
      "name a file inside the project folder",
    );
    const both = await postEval({ ...request, tests: true });
    expect(both.status).toBe(400);
    const profile = await postEval({ ...request, clients: ["mock/typo"] });
    expect(((await profile.json()) as DevErrorBody).error.message).toContain(
      "mock/typo is not an answer profile",
    );
    // The example's only test block asserts without naming a value: no rows, said so.
    const tests = await postEval({ function: "EvaluateResume", tests: true, clients: ["mock/clean-json"] });
    expect(tests.status).toBe(400);
    expect(((await tests.json()) as DevErrorBody).error.message).toContain(
      "add @@check(expected, {{ this == {…} }})",
    );
  });
});
