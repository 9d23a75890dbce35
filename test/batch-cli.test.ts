/**
 * `sapling batch` end to end against the mock LLM server: a large run, a run killed with SIGKILL and
 * rerun (the results file must come out identical), and the input and checkpoint errors.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureContext } from "../src/cli/cli-context.js";
import { batchCommand } from "../src/cli/commands/batch.js";
import {
  answer,
  type MockLlmServer,
  type RecordedRequest,
  startMockLlmServer,
} from "../src/testing/index.js";
import { seededRandom } from "./seeded-random.js";

const SOURCE = `
class Ticket {
  ticket int
  urgent bool
  summary string
}

client<llm> Mock {
  provider openai-generic
  options {
    base_url env.MOCK_BASE_URL
    model "mock"
  }
}

function Triage(text: string) -> Ticket {
  client Mock
  prompt #"Triage this ticket: {{ text }} {{ ctx.output_format }}"#
}
`;

/** The kill-and-rerun test: the issue's "killed at a random point and rerun" over 10,000 rows. */
const KILL_ROWS = 10_000;
const KILL_CONCURRENCY = 8;

let server: MockLlmServer;
let folder: string;
let requests = 0;

/** Every answer reports this usage: $1 a row at `--price mock=500/2000` (dollars per million tokens). */
const usage = { inputTokens: 1000, outputTokens: 250 };
const PRICE = "mock=500/2000";

/** The answer follows from the prompt alone, so two runs (or a run and its resumption) agree. */
function respond(request: RecordedRequest) {
  requests += 1;
  const n = Number(/ticket (\d+)/.exec(request.promptText)?.[1] ?? -1);
  if (n % 97 === 13) return answer("Sorry, I can't read this ticket.", { usage });
  const urgent = n % 3 === 0 ? "yes" : "false";
  return answer(
    `\`\`\`json\n{"ticket": "${n}", "urgent": ${urgent}, "summary": "ticket ${n} summary"\n\`\`\``,
    { usage },
  );
}

beforeAll(async () => {
  server = await startMockLlmServer({ respond });
  folder = await mkdtemp(join(tmpdir(), "sapling-batch-"));
  await writeFile(join(folder, "main.baml"), SOURCE);
});
afterAll(async () => {
  await server.close();
  await rm(folder, { recursive: true, force: true });
});

async function writeRows(name: string, count: number): Promise<string> {
  const lines = Array.from(
    { length: count },
    (_, n) => `${JSON.stringify({ id: `t${n}`, text: `ticket ${n}` })}\n`,
  );
  await writeFile(join(folder, name), lines.join(""));
  return name;
}

function run(argv: string[]) {
  const context = captureContext({ cwd: folder, env: { MOCK_BASE_URL: `${server.url}/v1` } });
  return batchCommand.run(argv, context).then((code) => ({ code, ...context.output() }));
}

function expectedLine(n: number): unknown {
  if (n % 97 === 13) return { id: `t${n}`, ok: false };
  return { id: `t${n}`, ok: true, value: { ticket: n, urgent: n % 3 === 0, summary: `ticket ${n} summary` } };
}

describe("sapling batch", () => {
  it("runs 10,000 rows into a results file in input order, one result per row", async () => {
    const input = await writeRows("many.jsonl", 10_000);
    requests = 0;
    const result = await run([
      "Triage",
      "--from",
      ".",
      "--input",
      input,
      "--output",
      "many.out.jsonl",
      "--concurrency",
      "16",
    ]);
    expect(result.code).toBe(1); // some rows were unreadable on purpose
    expect(requests).toBe(10_000);
    const lines = (await readFile(join(folder, "many.out.jsonl"), "utf8"))
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(10_000);
    expect(lines).toMatchObject(Array.from({ length: 10_000 }, (_, n) => expectedLine(n)));
    expect(lines[13]).toMatchObject({
      error: { type: "BamlValidationError" },
      raw: "Sorry, I can't read this ticket.",
    });
    expect(result.stderr).toMatch(/9897 succeeded, 103 failed, cost unknown; 10000 of 10000 rows/);
    const progress = result.stderr.split("\n").filter((line) => line.startsWith('{"progress"'));
    expect(JSON.parse(progress.at(-1) as string).progress).toMatchObject({
      done: 10_000,
      final: true,
      failed: 103,
    });

    // A rerun asks for nothing and writes the same file.
    requests = 0;
    const again = await run(["Triage", "--from", ".", "--input", input, "--output", "many.out.jsonl"]);
    expect([again.code, requests]).toEqual([1, 0]);
    expect(again.stderr).toMatch(/10000 already done/);
  }, 120_000);

  it("a run of 10,000 rows killed with SIGKILL at a seeded point and rerun writes the same results file", async () => {
    const input = await writeRows("kill.jsonl", KILL_ROWS);
    await run(["Triage", "--from", ".", "--input", input, "--output", "whole.jsonl", "--progress", "none"]);
    const whole = await readFile(join(folder, "whole.jsonl"), "utf8");

    // The kill point is random but seeded (SAPLING_KILL_SEED replays another), between 5% and 95% of the rows.
    const seed = Number(process.env.SAPLING_KILL_SEED ?? 22);
    const killAfter = Math.floor(KILL_ROWS * (0.05 + 0.9 * seededRandom(seed)()));
    const bin = resolve("src/cli/bin.ts");
    const child = spawn(
      process.execPath,
      // prettier-ignore
      [
        "--import",
        "tsx",
        bin,
        "batch",
        "Triage",
        "--from",
        folder,
        "--input",
        join(folder, input),
        "--output",
        join(folder, "cut.jsonl"),
        "--progress",
        "none",
        "--concurrency",
        String(KILL_CONCURRENCY),
      ],
      { env: { ...process.env, MOCK_BASE_URL: `${server.url}/v1` }, stdio: ["ignore", "ignore", "pipe"] },
    );
    const checkpointPath = join(folder, "cut.jsonl.checkpoint");
    let childErrors = "";
    child.stderr?.on("data", (chunk) => {
      childErrors += String(chunk);
    });
    const exited = new Promise<NodeJS.Signals | null>((done) =>
      child.on("exit", (_code, signal) => done(signal)),
    );
    for (;;) {
      const text = await readFile(checkpointPath, "utf8").catch(() => "");
      if ((text.match(/"result"/g)?.length ?? 0) >= killAfter) break;
      if (child.exitCode !== null) break;
      await new Promise((wait) => setTimeout(wait, 50));
    }
    child.kill("SIGKILL");
    expect(
      await exited,
      `seed ${seed}: killed after ${killAfter} results; the run said: ${childErrors}`,
    ).toBe("SIGKILL");
    const checkpoint = await readFile(checkpointPath, "utf8");
    const written = new Set([...checkpoint.matchAll(/"result":\{"id":"(t\d+)"/g)].map((match) => match[1]));

    requests = 0;
    const resumed = await run([
      "Triage",
      "--from",
      ".",
      "--input",
      input,
      "--output",
      "cut.jsonl",
      "--progress",
      "none",
    ]);
    expect(await readFile(join(folder, "cut.jsonl"), "utf8"), `seed ${seed}`).toBe(whole);
    expect(written.size).toBeGreaterThanOrEqual(killAfter);
    expect(written.size).toBeLessThan(KILL_ROWS);
    // Never re-requested a row whose result was written; re-sent only what was in flight (≤ concurrency).
    const resent = Number(/(\d+) re-sent/.exec(resumed.stderr)?.[1] ?? 0);
    expect(requests).toBe(KILL_ROWS - written.size);
    expect(resent).toBeLessThanOrEqual(KILL_CONCURRENCY);
  }, 300_000);

  it("--mode provider-batch sends one OpenAI batch and writes the same results as calls do", async () => {
    const input = await writeRows("provider.jsonl", 120);
    await run(["Triage", "--from", ".", "--input", input, "--output", "calls.jsonl", "--progress", "none"]);
    const batches = server.batches.length;
    requests = 0;
    const result = await run([
      "Triage",
      "--from",
      ".",
      "--input",
      input,
      "--output",
      "provider.out.jsonl",
      "--mode",
      "provider-batch",
      "--poll-interval",
      "0",
      "--progress",
      "none",
    ]);
    expect(result.code).toBe(1); // row 13 cannot be read, as in calls mode
    expect(server.batches.slice(batches).map((batch) => batch.size)).toEqual([120]);
    expect(requests).toBe(120);
    expect(await readFile(join(folder, "provider.out.jsonl"), "utf8")).toBe(
      await readFile(join(folder, "calls.jsonl"), "utf8"),
    );
    expect(result.stderr).toContain('"status":"completed"');
    await expect(
      run([
        "Triage",
        "--from",
        ".",
        "--input",
        input,
        "--output",
        "x.jsonl",
        "--mode",
        "provider-batch",
        "--rpm",
        "5",
      ]),
    ).rejects.toThrow("--rpm applies to --mode calls");
  });

  it("names the line of a bad input row before sending anything", async () => {
    await writeFile(join(folder, "bad.jsonl"), '{"text": "ticket 1"}\n{"text": "ticket 2"\n');
    requests = 0;
    await expect(
      run(["Triage", "--from", ".", "--input", "bad.jsonl", "--output", "bad.out.jsonl"]),
    ).rejects.toThrow(/bad\.jsonl:2: not JSON/);
    expect(requests).toBe(0);
  });

  it("refuses a checkpoint made for other rows", async () => {
    await writeRows("first.jsonl", 3);
    await run([
      "Triage",
      "--from",
      ".",
      "--input",
      "first.jsonl",
      "--output",
      "same.jsonl",
      "--progress",
      "none",
    ]);
    await writeRows("first.jsonl", 4);
    await expect(
      run(["Triage", "--from", ".", "--input", "first.jsonl", "--output", "same.jsonl"]),
    ).rejects.toThrow(/was made for other rows: the input changed/);
  });

  it("stops at --max-rows with exit code 3, and --retry-failed reruns only failures", async () => {
    await writeRows("budget.jsonl", 20);
    const first = await run([
      "Triage",
      "--from",
      ".",
      "--input",
      "budget.jsonl",
      "--output",
      "budget.out.jsonl",
      "--max-rows",
      "5",
      "--progress",
      "none",
    ]);
    expect(first.code).toBe(3);
    expect(first.stderr).toMatch(/Stopped at --max-rows with 15 rows to go/);
    const rest = await run([
      "Triage",
      "--from",
      ".",
      "--input",
      "budget.jsonl",
      "--output",
      "budget.out.jsonl",
      "--progress",
      "none",
    ]);
    expect(rest.code).toBe(1); // row 13 cannot be read
    requests = 0;
    const retried = await run([
      "Triage",
      "--from",
      ".",
      "--input",
      "budget.jsonl",
      "--output",
      "budget.out.jsonl",
      "--retry-failed",
      "--progress",
      "none",
    ]);
    expect([retried.code, requests]).toEqual([1, 1]);
  });

  it("--max-cost stops starting rows at the budget, counts earlier runs, and says how to go on", async () => {
    await writeRows("cost.jsonl", 20);
    const flags = ["Triage", "--from", ".", "--input", "cost.jsonl", "--output", "cost.out.jsonl"];
    requests = 0;
    const first = await run([...flags, "--max-cost", "5", "--price", PRICE, "--concurrency", "1"]);
    expect([first.code, requests]).toEqual([3, 5]);
    expect(first.stderr).toContain(
      "Stopped at --max-cost $5: $5 spent, 15 rows to go. Rerun with a higher --max-cost to continue",
    );
    const progress = first.stderr.split("\n").filter((line) => line.startsWith('{"progress"'));
    expect(JSON.parse(progress.at(-1) as string).progress).toMatchObject({
      done: 5,
      inputTokens: 5000,
      outputTokens: 1250,
      costUsd: 5,
      earlierCostUsd: 0,
      final: true,
    });
    expect((await readFile(join(folder, "cost.out.jsonl"), "utf8")).trimEnd().split("\n")).toHaveLength(5);

    // The checkpoint remembers the $5: the same budget starts nothing.
    requests = 0;
    const same = await run([...flags, "--max-cost", "5", "--price", PRICE]);
    expect([same.code, requests]).toEqual([3, 0]);
    expect(same.stderr).toContain("$5 spent ($5 of it in earlier runs), 15 rows to go");

    const rest = await run([...flags, "--max-cost", "100", "--price", PRICE, "--progress", "json"]);
    expect([rest.code, requests]).toEqual([1, 15]); // row 13 cannot be read
    const last = rest.stderr.split("\n").filter((line) => line.startsWith('{"progress"'));
    expect(JSON.parse(last.at(-1) as string).progress).toMatchObject({ costUsd: 15, earlierCostUsd: 5 });
    expect(rest.stderr).toMatch(/cost \$15;/);
  });

  it("--max-cost for a model without a price is an error that says to add one with --price", async () => {
    await writeRows("unpriced.jsonl", 30);
    const flags = ["Triage", "--from", ".", "--input", "unpriced.jsonl", "--output", "unpriced.out.jsonl"];
    requests = 0;
    await expect(run([...flags, "--max-cost", "5", "--concurrency", "2"])).rejects.toThrow(
      /--max-cost: row "t\d+" was answered by the model "mock", which has no price.*--price mock=INPUT\/OUTPUT/,
    );
    expect(requests).toBeLessThanOrEqual(2);
    // Without a budget the cost is unknown, never $0.
    const free = await run([...flags, "--progress", "json"]);
    const last = free.stderr.split("\n").filter((line) => line.startsWith('{"progress"'));
    expect(JSON.parse(last.at(-1) as string).progress).toMatchObject({ costUsd: null, final: true });
    expect(free.stderr).toMatch(/cost unknown;/);
  });

  it("refuses a --max-cost or --price it cannot use, saying why", async () => {
    await writeRows("flags.jsonl", 2);
    const flags = ["Triage", "--from", ".", "--input", "flags.jsonl", "--output", "flags.out.jsonl"];
    await expect(run([...flags, "--max-cost", "$5"])).rejects.toThrow(
      '--max-cost must be a positive amount of US dollars, such as 5 or 0.25 (no "$"), got "$5"',
    );
    await expect(run([...flags, "--max-cost", "0"])).rejects.toThrow("--max-cost must be a positive");
    await expect(run([...flags, "--max-cost", "1", "--price", "mock=1"])).rejects.toThrow(
      "--price must be MODEL=INPUT/OUTPUT",
    );
    await expect(run([...flags, "--mode", "provider-batch", "--max-cost", "1"])).rejects.toThrow(
      "--max-cost applies to --mode calls",
    );
  });
});
