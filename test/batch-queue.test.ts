/**
 * Batches on a real queue: a redis-server started for this file on a free port, BullMQ workers (three in
 * this process, one `sapling worker` process that is killed with SIGKILL mid-run and started again), and
 * the mock LLM server injecting 429s and connection resets. Every row must end with exactly one result.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureContext } from "../src/cli/cli-context.js";
import { batchCommand } from "../src/cli/commands/batch.js";
import { compile } from "../src/language/index.js";
import { SaplingRuntime } from "../src/runtime/index.js";
import {
  answer,
  type MockLlmServer,
  type RecordedRequest,
  rateLimited,
  resetMidStream,
  startMockLlmServer,
} from "../src/testing/index.js";
import { connectRedis, queueKeys, type RunningWorker, startWorker } from "../src/worker/index.js";
import { CATEGORIZE_SOURCE } from "./categorize-project.js";
import { type RedisServer, startRedisServer } from "./start-redis-server.js";

const ROWS = 10_000;
let redis: RedisServer | undefined;
let redisUrl: string;
let server: MockLlmServer;
let folder: string;
const faulted = new Set<number>();
let requests = 0;

/** Every 50th row gets a 429 first, every 77th a reset; then the answer, which follows from the prompt. */
function respond(request: RecordedRequest) {
  requests += 1;
  const n = Number(/transaction txn-(\d+)/.exec(request.promptText)?.[1] ?? -1);
  if (!faulted.has(n) && n % 50 === 0) {
    faulted.add(n);
    return rateLimited(0);
  }
  if (!faulted.has(n) && n % 77 === 0) {
    faulted.add(n);
    return resetMidStream("{", 0);
  }
  return answer(`{"n": "${n}", "category": "cat-${n % 7}"}`);
}

beforeAll(async () => {
  redis = await startRedisServer();
  redisUrl = redis.url;
  server = await startMockLlmServer({ respond });
  folder = await mkdtemp(join(tmpdir(), "sapling-queue-"));
  await writeFile(join(folder, "main.baml"), CATEGORIZE_SOURCE);
  await writeFile(
    join(folder, "rows.jsonl"),
    Array.from({ length: ROWS }, (_, n) => `${JSON.stringify({ id: `t${n}`, text: `txn-${n}` })}\n`).join(""),
  );
}, 30_000);

afterAll(async () => {
  await redis?.stop();
  await server?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

function spawnWorker(): ChildProcess {
  return spawn(
    process.execPath,
    // biome-ignore format: one flag and its value per pair
    ["--import", "tsx", resolve("src/cli/bin.ts"), "worker", "--queue", "txns", "--redis", redisUrl, "--from", folder, "--lock-duration", "1000", "--concurrency", "8"],
    { env: { ...process.env, MOCK_BASE_URL: `${server.url}/v1` }, stdio: "ignore" },
  );
}

describe("sapling batch --queue with sapling worker", () => {
  it("10,000 rows through four workers, one killed and restarted, with 429s and resets: one result each", async () => {
    const compiled = compile({ "main.baml": CATEGORIZE_SOURCE });
    if (!compiled.ir) throw new Error("no IR");
    const workers: RunningWorker[] = [];
    const redises = [0, 1, 2].map(() => connectRedis(redisUrl));
    for (const redis of redises) {
      workers.push(
        startWorker({
          queue: "txns",
          redis,
          runtime: SaplingRuntime.fromIr(compiled.ir, { env: { MOCK_BASE_URL: `${server.url}/v1` } }),
          concurrency: 8,
          lockDurationMs: 1000,
        }),
      );
    }
    let child = spawnWorker();
    const context = captureContext({ cwd: folder, env: {} });
    const running = batchCommand.run(
      [
        "Categorize",
        "--from",
        ".",
        "--input",
        "rows.jsonl",
        "--output",
        "out.jsonl",
        "--queue",
        "txns",
        "--redis",
        redisUrl,
        "--progress",
        "none",
      ],
      context,
    );
    // Kill the worker process once the batch is under way, then start it again.
    const watcher = connectRedis(redisUrl);
    const keys = queueKeys("txns", "Categorize");
    const killAt = 2000 + Math.floor(Math.random() * 4000);
    while (Number(await watcher.hlen(keys.results)) < killAt)
      await new Promise((wait) => setTimeout(wait, 50));
    child.kill("SIGKILL");
    await new Promise((done) => child.once("exit", done));
    child = spawnWorker();
    const code = await running;
    child.kill("SIGTERM");
    await Promise.all(workers.map((worker) => worker.close()));
    for (const redis of redises) redis.disconnect();

    expect(code, context.output().stderr).toBe(0);
    const lines = (await readFile(join(folder, "out.jsonl"), "utf8"))
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(ROWS);
    expect(lines).toEqual(
      Array.from({ length: ROWS }, (_, n) => ({
        id: `t${n}`,
        ok: true,
        value: { n, category: `cat-${n % 7}` },
        raw: `{"n": "${n}", "category": "cat-${n % 7}"}`,
      })),
    );
    const resent = Number((await watcher.get(keys.resent)) ?? 0);
    // Every request beyond one per row is a counted re-send: a fault's retry, or a row the killed worker held.
    expect(requests - ROWS).toBeGreaterThanOrEqual(faulted.size);
    const starts = Object.values(await watcher.hgetall(keys.starts)).reduce(
      (sum, count) => sum + Number(count),
      0,
    );
    const retried = Number((await watcher.get(keys.retried)) ?? 0);
    // Every start beyond a row's first is counted: a re-send (the killed worker held the row) or a retry.
    expect(resent + retried).toBe(starts - ROWS);
    expect(context.output().stderr).toContain(
      resent > 0 ? `${resent} re-sent (the worker running them died or lost its hold)` : "",
    );
    expect(context.output().stderr).toContain(`${retried} retried after a failure in transit`);
    expect(context.output().stderr).toMatch(/10000 of 10000 rows/);
    watcher.disconnect();
  }, 240_000);
});
