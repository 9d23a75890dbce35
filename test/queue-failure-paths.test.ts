/**
 * Queue mode when Redis or a worker fails, on a real redis-server the test stops and restarts: Redis out
 * of reach at start (a clear error within the connect timeout, naming the address), Redis restarted empty
 * mid-run (the coordinator notices, enqueues again, and no row is paid twice), signals (the first stops
 * cleanly, a second at once), and a worker's log of each failure.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureContext } from "../src/cli/cli-context.js";
import { main } from "../src/cli/main.js";
import {
  answer,
  hang,
  type MockLlmServer,
  type RecordedRequest,
  serverError,
  startMockLlmServer,
} from "../src/testing/index.js";
import { connectRedis, queueKeys } from "../src/worker/index.js";
import { CATEGORIZE_SOURCE } from "./categorize-project.js";
import { freePort, type RedisServer, startRedisServer } from "./start-redis-server.js";

let redis: RedisServer;
let server: MockLlmServer;
let folder: string;
/** Requests per transaction number. */
const requestsOf = new Map<number, number>();
const failedOnce = new Set<number>();

/** n ≥ 900 never answers; 13 is unreadable; 14 has a refused key; 15 gets one 503 first; 100–199 are slow. */
function respond(request: RecordedRequest) {
  const n = Number(/transaction txn-(\d+)/.exec(request.promptText)?.[1] ?? -1);
  requestsOf.set(n, (requestsOf.get(n) ?? 0) + 1);
  if (n >= 900) return hang();
  if (n === 13) return answer("I cannot categorize this.");
  if (n === 14) return serverError(401, "Incorrect API key provided");
  if (n === 15 && !failedOnce.has(n)) {
    failedOnce.add(n);
    return serverError(503, "overloaded");
  }
  // The restart test's rows take a while each, so that the batch is surely mid-run when Redis goes.
  return answer(
    `{"n": "${n}", "category": "cat-${n % 7}"}`,
    n >= 100 && n < 200 ? { headersDelayMs: 100 } : {},
  );
}

beforeAll(async () => {
  redis = await startRedisServer();
  server = await startMockLlmServer({ respond });
  folder = await mkdtemp(join(tmpdir(), "sapling-queue-failures-"));
  await writeFile(join(folder, "main.baml"), CATEGORIZE_SOURCE);
}, 30_000);

afterAll(async () => {
  await redis?.stop();
  await server?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

async function writeRows(name: string, numbers: number[]): Promise<void> {
  await writeFile(
    join(folder, name),
    numbers.map((n) => `${JSON.stringify({ id: `t${n}`, text: `txn-${n}` })}\n`).join(""),
  );
}

/** `sapling …` in the project folder, in this process; `stop()` is its Ctrl-C. */
function sapling(argv: string[]) {
  let stop = () => {};
  const context = captureContext({
    cwd: folder,
    env: { MOCK_BASE_URL: `${server.url}/v1` },
    interrupted: new Promise<void>((resolve) => {
      stop = resolve;
    }),
  });
  const done = main(argv, context).then((code) => ({ code, ...context.output() }));
  return { done, stop, output: () => context.output() };
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let polls = 0; polls < 1500; polls += 1) {
    if (await condition()) return;
    await new Promise((wait) => setTimeout(wait, 20));
  }
  throw new Error(`gave up waiting for ${what}`);
}

const progressLines = (stderr: string) =>
  stderr
    .split("\n")
    .filter((line) => line.startsWith('{"progress"'))
    .map((line) => JSON.parse(line).progress);

describe("Redis out of reach", () => {
  it("sapling worker and sapling batch --queue fail within the connect timeout, naming the address", async () => {
    const port = await freePort();
    const address = `redis://127.0.0.1:${port}`;
    await writeRows("unreachable.jsonl", [1, 2]);
    const worker = sapling([
      "worker",
      "--queue",
      "q",
      "--redis",
      address,
      "--from",
      ".",
      "--connect-timeout",
      "300",
    ]);
    const batch = sapling([
      "batch",
      "Categorize",
      "--from",
      ".",
      "--input",
      "unreachable.jsonl",
      "--output",
      "unreachable.out.jsonl",
      "--queue",
      "q",
      "--redis",
      address,
      "--connect-timeout",
      "300",
      "--progress",
      "none",
    ]);
    const message = `cannot reach Redis at ${address} within 0.3 s (connect ECONNREFUSED 127.0.0.1:${port}). Start Redis there, or name the right one with --redis URL or REDIS_URL.\n`;
    expect(await worker.done).toMatchObject({ code: 1, stderr: `sapling worker: ${message}` });
    expect(await batch.done).toMatchObject({ code: 1, stderr: `sapling batch: ${message}` });
  }, 20_000);

  it("the first Ctrl-C stops a coordinator whose Redis went away mid-run", async () => {
    const own = await startRedisServer();
    await writeRows("gone.jsonl", [1, 2, 3]);
    const batch = sapling([
      "batch",
      "Categorize",
      "--from",
      ".",
      "--input",
      "gone.jsonl",
      "--output",
      "gone.out.jsonl",
      "--queue",
      "gone",
      "--redis",
      own.url,
      "--progress",
      "none",
    ]);
    const watcher = connectRedis(own.url);
    watcher.on("error", () => {});
    // Enqueued (no worker runs this queue), then Redis dies.
    await until(
      async () => (await watcher.exists(queueKeys("gone", "Categorize").state)) === 1,
      "the enqueue",
    );
    watcher.disconnect();
    await own.stop();
    await until(() => batch.output().stderr.includes("lost the connection to Redis"), "the lost line");
    batch.stop();
    const result = await batch.done;
    expect(result.code).toBe(130);
    expect(result.stderr).toContain(`lost the connection to Redis at ${own.url}`);
    expect(result.stderr).toContain("Interrupted.");
  }, 30_000);
});

describe("Redis restarted empty mid-run", () => {
  it("the coordinator notices, enqueues the rows without a result again, and pays for no row twice", async () => {
    const numbers = Array.from({ length: 24 }, (_, n) => 100 + n);
    await writeRows("restart.jsonl", numbers);
    const batch = sapling([
      "batch",
      "Categorize",
      "--from",
      ".",
      "--input",
      "restart.jsonl",
      "--output",
      "restart.out.jsonl",
      "--queue",
      "restart",
      "--redis",
      redis.url,
      "--progress",
      "json",
    ]);
    const workerArgs = [
      "worker",
      "--queue",
      "restart",
      "--redis",
      redis.url,
      "--from",
      ".",
      "--concurrency",
      "1",
    ];
    const first = sapling(workerArgs);
    const checkpoint = join(folder, "restart.out.jsonl.checkpoint");
    const resultsIn = async () =>
      (await readFile(checkpoint, "utf8").catch(() => ""))
        .split("\n")
        .filter((line) => line.startsWith('{"result"')).length;
    // A third of the rows answered; then the worker stops (finishing the row it holds).
    const watcher = connectRedis(redis.url);
    const resultsKey = queueKeys("restart", "Categorize").results;
    await until(async () => Number(await watcher.hlen(resultsKey)) >= 8, "8 results in Redis");
    first.stop();
    expect((await first.done).code).toBe(0);
    const answered = Number(await watcher.hlen(resultsKey));
    watcher.disconnect();
    expect(answered).toBeLessThan(24);
    // The coordinator has them all in its checkpoint before Redis goes.
    await until(async () => (await resultsIn()) >= answered, "every answered row in the checkpoint");
    await redis.restart();
    await until(() => batch.output().stderr.includes("Redis lost this batch"), "the coordinator to notice");
    const second = sapling(workerArgs);
    const result = await batch.done;
    second.stop();
    await second.done;

    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      `sapling batch: Redis lost this batch (no sapling:restart:Categorize:state: restarted without persistence, flushed or evicted); enqueueing the ${24 - answered} rows without a result again`,
    );
    const lines = (await readFile(join(folder, "restart.out.jsonl"), "utf8")).trimEnd().split("\n");
    expect(lines.map((line) => JSON.parse(line).id)).toEqual(numbers.map((n) => `t${n}`));
    // No row was asked twice: the rows answered before the restart were kept, not run again.
    expect(numbers.map((n) => requestsOf.get(n))).toEqual(numbers.map(() => 1));
    // Queue progress: what the workers do not report is unknown, not 0.
    const last = progressLines(result.stderr).at(-1);
    expect(last).toMatchObject({
      done: 24,
      inputTokens: null,
      outputTokens: null,
      repairs: null,
      costUsd: null,
    });
  }, 60_000);
});

describe("sapling worker", () => {
  it("logs each failed attempt, never retries a refused key, and stops cleanly at the first Ctrl-C", async () => {
    await writeRows("log.jsonl", [12, 13, 14, 15]);
    const batch = sapling([
      "batch",
      "Categorize",
      "--from",
      ".",
      "--input",
      "log.jsonl",
      "--output",
      "log.out.jsonl",
      "--queue",
      "log",
      "--redis",
      redis.url,
      "--progress",
      "none",
    ]);
    const worker = sapling(["worker", "--queue", "log", "--redis", redis.url, "--from", "."]);
    const result = await batch.done;
    worker.stop();
    const logged = await worker.done;
    expect(result.code).toBe(1); // rows 13 and 14 failed
    expect(logged.code).toBe(0);
    const lines = logged.stderr.split("\n");
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^sapling worker: row "t13" \(batch Categorize\) failed on attempt 1 of 5: BamlValidationError: .*; stored as its result$/,
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^sapling worker: row "t14" \(batch Categorize\) failed on attempt 1 of 5: BamlClientHttpError: .*401.*; stored as its result$/,
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^sapling worker: row "t15" \(batch Categorize\) failed on attempt 1 of 5: BamlClientHttpError: .*503.*; BullMQ retries it with backoff$/,
      ),
    );
    expect(requestsOf.get(14)).toBe(1);
    expect(requestsOf.get(15)).toBe(2);
    expect(result.stderr).toContain("1 retried after a failure in transit");
    expect(result.stderr).not.toContain("re-sent");
    expect(lines).toContain("sapling worker: stopping");
    expect(lines).toContain("sapling worker: stopped after 4 rows");
  }, 30_000);

  it("with a row in flight, the first SIGTERM lets it finish, a second stops the process at once", async () => {
    await writeRows("signal.jsonl", [901]);
    const batch = sapling([
      "batch",
      "Categorize",
      "--from",
      ".",
      "--input",
      "signal.jsonl",
      "--output",
      "signal.out.jsonl",
      "--queue",
      "signal",
      "--redis",
      redis.url,
      "--progress",
      "none",
    ]);
    let stderr = "";
    const child: ChildProcess = spawn(
      process.execPath,
      // biome-ignore format: one flag and its value per pair
      ["--import", "tsx", resolve("src/cli/bin.ts"), "worker", "--queue", "signal", "--redis", redis.url, "--from", folder],
      { env: { ...process.env, MOCK_BASE_URL: `${server.url}/v1` }, stdio: ["ignore", "ignore", "pipe"] },
    );
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
      child.once("exit", (code, signal) => done({ code, signal })),
    );
    await until(() => (requestsOf.get(901) ?? 0) > 0, "the row in flight");
    child.kill("SIGTERM");
    await until(() => stderr.includes("stopping: letting the 1 rows in flight finish"), "the stopping line");
    expect(child.exitCode).toBe(null);
    child.kill("SIGTERM");
    const end = await exited;
    expect(end.code === null ? end.signal : end.code).toBe("SIGTERM");
    batch.stop();
    expect((await batch.done).code).toBe(130);
  }, 30_000);
});
