/**
 * `batch` benchmark: 100,000 rows (`SAPLING_BENCH_BATCH_ROWS` to change) through the mock LLM server on
 * loopback, twice.
 *
 * 1. Queue mode: `sapling batch --queue` puts the rows on a BullMQ queue in a redis-server this bench
 *    starts on 127.0.0.1 (a free port, no persistence), four `sapling worker` processes run them, one of
 *    them is killed with SIGKILL at a seeded point mid-run and started again, and the mock answers every
 *    50th row's first request with a 429 and every 77th's with a reset connection.
 * 2. Calls mode: `sapling batch` in this process, one request per row, a file checkpoint, the same 429s
 *    (resets would fail their rows: the mock's client has no retry policy).
 *
 * Each run is checked: the results file has one line per row, in input order, each the row's value; the
 * queue run's Redis holds exactly one result per row; the two results files are identical. Re-sends are
 * counted (Redis's counter of starts beyond a row's first) and set against the faults injected. Each run
 * is bounded by a deadline (`SAPLING_BENCH_BATCH_MINUTES`, default 15): past it the run is interrupted
 * and the section says so.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { captureContext } from "../src/cli/cli-context.js";
import { batchCommand } from "../src/cli/commands/batch.js";
import {
  answer,
  type RecordedRequest,
  rateLimited,
  resetMidStream,
  startMockLlmServer,
} from "../src/testing/index.js";
import { connectRedis, queueKeys } from "../src/worker/index.js";
import { CATEGORIZE_SOURCE } from "../test/categorize-project.js";
import { seededRandom } from "../test/seeded-random.js";
import { startRedisServer } from "../test/start-redis-server.js";

const WORKERS = 4;
const WORKER_CONCURRENCY = 16;
const CALLS_CONCURRENCY = 32;
/** The kill point, as a share of the rows done: the same on every run of the bench. */
const KILL_SEED = 20_251_202;

function expectedLine(n: number): string {
  const raw = `{"n": "${n}", "category": "cat-${n % 7}"}`;
  return JSON.stringify({ id: `t${n}`, ok: true, value: { n, category: `cat-${n % 7}` }, raw });
}

/** Lines of the results file that are not the row's expected result at its place, and the line count. */
async function checkResults(path: string, rows: number): Promise<{ lines: number; wrong: number }> {
  const lines = (await readFile(path, "utf8")).trimEnd().split("\n");
  let wrong = Math.abs(lines.length - rows);
  for (let n = 0; n < Math.min(rows, lines.length); n += 1) if (lines[n] !== expectedLine(n)) wrong += 1;
  return { lines: lines.length, wrong };
}

function formatCount(value: number): string {
  return value.toLocaleString("en-US");
}

function formatSeconds(seconds: number): string {
  return seconds >= 60
    ? `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`
    : `${seconds.toFixed(1)} s`;
}

export async function benchBatch(): Promise<string> {
  const rows = Number(process.env.SAPLING_BENCH_BATCH_ROWS ?? 100_000);
  const deadlineMs = Number(process.env.SAPLING_BENCH_BATCH_MINUTES ?? 15) * 60_000;
  const faulted = new Set<number>();
  let requests = 0;
  let rateLimitedCount = 0;
  let resetCount = 0;
  /** Resets only for the queue run: a worker retries one, a call without a retry policy fails the row. */
  let injectResets = true;
  const respond = (request: RecordedRequest) => {
    requests += 1;
    const n = Number(/transaction txn-(\d+)/.exec(request.promptText)?.[1] ?? -1);
    if (!faulted.has(n) && n % 50 === 0) {
      faulted.add(n);
      rateLimitedCount += 1;
      return rateLimited(0);
    }
    if (injectResets && !faulted.has(n) && n % 77 === 0) {
      faulted.add(n);
      resetCount += 1;
      return resetMidStream("{", 0);
    }
    return answer(`{"n": "${n}", "category": "cat-${n % 7}"}`);
  };

  const redisServer = await startRedisServer();
  const server = await startMockLlmServer({ respond });
  const folder = await mkdtemp(join(tmpdir(), "sapling-bench-batch-"));
  const workers: ChildProcess[] = [];
  const environment = { ...process.env, MOCK_BASE_URL: `${server.url}/v1` };
  try {
    await writeFile(join(folder, "main.baml"), CATEGORIZE_SOURCE);
    await writeFile(
      join(folder, "rows.jsonl"),
      Array.from({ length: rows }, (_, n) => `${JSON.stringify({ id: `t${n}`, text: `txn-${n}` })}\n`).join(
        "",
      ),
    );

    // Queue mode. Workers are started (and have said so) before the clock starts.
    const startWorkerProcess = async (): Promise<ChildProcess> => {
      const child = spawn(
        process.execPath,
        // biome-ignore format: one flag and its value per pair
        ["--import", "tsx", resolve(import.meta.dirname, "../src/cli/bin.ts"), "worker", "--queue", "bench", "--redis", redisServer.url, "--from", folder, "--lock-duration", "5000", "--concurrency", String(WORKER_CONCURRENCY)],
        { env: environment, stdio: ["ignore", "ignore", "pipe"] },
      );
      await new Promise<void>((ready, failed) => {
        let said = "";
        child.stderr?.on("data", (chunk) => {
          said += String(chunk);
          if (said.includes("taking rows")) ready();
        });
        child.once("exit", (code) =>
          failed(new Error(`a worker exited (${code}) before it started: ${said}`)),
        );
      });
      return child;
    };
    const say = (text: string) => process.stderr.write(`bench batch: ${text}\n`);
    for (let index = 0; index < WORKERS; index += 1) workers.push(await startWorkerProcess());
    say(`${WORKERS} workers started; ${formatCount(rows)} rows onto the queue`);
    const killShare = 0.2 + seededRandom(KILL_SEED)() * 0.4;
    const killAt = Math.floor(rows * killShare);
    let deadline: NodeJS.Timeout | undefined;
    const queueContext = captureContext({
      cwd: folder,
      env: {},
      interrupted: new Promise<void>((stop) => {
        deadline = setTimeout(stop, deadlineMs);
      }),
    });
    requests = 0;
    const queueStarted = performance.now();
    const queueRun = batchCommand.run(
      // biome-ignore format: one flag and its value per pair
      ["Categorize", "--from", ".", "--input", "rows.jsonl", "--output", "queue.jsonl", "--queue", "bench", "--redis", redisServer.url, "--progress", "none"],
      queueContext,
    );
    const watcher = connectRedis(redisServer.url);
    watcher.on("error", () => {});
    const keys = queueKeys("bench", "Categorize");
    let killedAfter: number | null = null;
    let finished = false;
    void queueRun.finally(() => {
      finished = true;
    });
    while (!finished) {
      const done = Number(await watcher.hlen(keys.results));
      if (done >= killAt) {
        killedAfter = done;
        const victim = workers[0] as ChildProcess;
        const exited = new Promise((gone) => victim.once("exit", gone));
        victim.kill("SIGKILL");
        await exited;
        workers[0] = await startWorkerProcess();
        say(`killed a worker after ${formatCount(done)} results and started it again`);
        break;
      }
      await new Promise((wait) => setTimeout(wait, 100));
    }
    const queueCode = await queueRun;
    say(`queue run ended (exit ${queueCode}); calls run next`);
    const queueSeconds = (performance.now() - queueStarted) / 1000;
    clearTimeout(deadline);
    const queueRequests = requests;
    const queueFaults = rateLimitedCount + resetCount;
    const stored = Number(await watcher.hlen(keys.results));
    const resent = Number((await watcher.get(keys.resent)) ?? 0);
    const starts = Object.values(await watcher.hgetall(keys.starts)).reduce(
      (sum, count) => sum + Number(count),
      0,
    );
    watcher.disconnect();
    for (const worker of workers) worker.kill("SIGTERM");
    const queueCheck =
      queueCode === 130 ? { lines: 0, wrong: rows } : await checkResults(join(folder, "queue.jsonl"), rows);

    // Calls mode over the same rows and answers, with the 429s again (no resets).
    faulted.clear();
    injectResets = false;
    requests = 0;
    rateLimitedCount = 0;
    resetCount = 0;
    const callsContext = captureContext({
      cwd: folder,
      env: { MOCK_BASE_URL: `${server.url}/v1` },
      interrupted: new Promise<void>((stop) => {
        deadline = setTimeout(stop, deadlineMs);
      }),
    });
    const callsStarted = performance.now();
    const callsCode = await batchCommand.run(
      // biome-ignore format: one flag and its value per pair
      ["Categorize", "--from", ".", "--input", "rows.jsonl", "--output", "calls.jsonl", "--concurrency", String(CALLS_CONCURRENCY), "--progress", "none"],
      callsContext,
    );
    const callsSeconds = (performance.now() - callsStarted) / 1000;
    clearTimeout(deadline);
    const callsCheck =
      callsCode === 130 ? { lines: 0, wrong: rows } : await checkResults(join(folder, "calls.jsonl"), rows);
    const identical =
      queueCode === 0 &&
      callsCode === 0 &&
      (await readFile(join(folder, "queue.jsonl"), "utf8")) ===
        (await readFile(join(folder, "calls.jsonl"), "utf8"));
    const callsSummary = /sapling batch: ([^\n]*)/.exec(callsContext.output().stderr)?.[1] ?? "";

    const status = (code: number, check: { lines: number; wrong: number }) =>
      code === 130
        ? `stopped at the ${deadlineMs / 60_000}-minute deadline`
        : check.wrong === 0
          ? "every row one correct result"
          : `${check.wrong} rows wrong or missing (exit ${code})`;
    return `## Batches (\`sapling batch\`)

${formatCount(rows)} rows of \`Categorize\` (one short transaction each) through the mock LLM server on
loopback, which answers at once: the numbers are Sapling's own cost per row (queueing, the request,
parsing, the checkpoint), not a model's. The mock answers every 50th row's first request with a 429 and
(queue run only) every 77th's with a reset connection. Source: \`bench/batch.ts\`.

| mode | rows | wall time | rows/s | requests | faults injected | re-sent | result |
|---|---:|---:|---:|---:|---:|---:|---|
| queue: ${WORKERS} \`sapling worker\` processes × ${WORKER_CONCURRENCY}, one killed and restarted | ${formatCount(rows)} | ${formatSeconds(queueSeconds)} | ${formatCount(Math.round(rows / queueSeconds))} | ${formatCount(queueRequests)} | ${formatCount(queueFaults)} | ${formatCount(resent)} | ${status(queueCode, queueCheck)} |
| calls: one process, \`--concurrency ${CALLS_CONCURRENCY}\`, file checkpoint | ${formatCount(rows)} | ${formatSeconds(callsSeconds)} | ${formatCount(Math.round(rows / callsSeconds))} | ${formatCount(requests)} | ${formatCount(rateLimitedCount + resetCount)} | — | ${status(callsCode, callsCheck)} |

- Queue run: redis-server on 127.0.0.1 started by the bench; the worker killed with SIGKILL after
  ${killedAfter === null ? "— (the run ended first)" : formatCount(killedAfter)} results (a seeded point between 20% and 60% of the rows), then started again;
  \`--lock-duration 5000\`. Redis holds ${formatCount(stored)} results for ${formatCount(rows)} rows; ${formatCount(starts)} starts,
  of which ${formatCount(resent)} beyond a row's first (counted as re-sent: the faults' retries and the rows the killed worker held).
  Wall time runs from the enqueue to the results file written; the workers were started before it.
- Calls run: ${callsSummary.replace(/;.*$/, "")}. The same 429s (each puts its row back in the queue) but no
  resets: the mock's client has no retry policy, so a reset fails its row in calls mode.
- The two results files are identical: ${identical ? "yes" : "no"}.
- Both processes share the machine's 2 cores with the mock server and redis-server (and, on the machine
  that produced this page, with other work), so these are floors, not ceilings.
`;
  } finally {
    for (const worker of workers) if (worker.exitCode === null) worker.kill("SIGKILL");
    await server.close();
    await redisServer.stop();
    await rm(folder, { recursive: true, force: true });
  }
}
