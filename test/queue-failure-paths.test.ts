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

/** n ≥ 900 never answers; 13 is unreadable; 14 has a refused key; 15 gets one 503 first. */
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
  return answer(`{"n": "${n}", "category": "cat-${n % 7}"}`);
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
