/**
 * `server` benchmark: `sapling serve` on loopback, backed by the mock LLM server (answers at once, so the
 * numbers are Sapling's own cost: HTTP in, prompt, provider call over HTTP, parse, HTTP out — client, server
 * and mock share one Node process and the machine's cores). Throughput and latency percentiles per route
 * and concurrency, plus the 500-request burst of the load test, every answer checked against its request.
 */
import {
  expectedTicket,
  type LoadResult,
  sendTicket,
  startLoadScenario,
} from "../test/server-load-scenario.js";

const warmup = 50;

interface Measurement {
  label: string;
  requests: number;
  concurrency: number;
  seconds: number;
  latencies: number[];
  wrong: number;
}

/** Runs `requests` requests with at most `concurrency` in flight; checks each answer. */
async function measure(
  url: string,
  label: string,
  route: "call" | "stream",
  requests: number,
  concurrency: number,
): Promise<Measurement> {
  const results: LoadResult[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        const position = next++;
        results.push(await sendTicket(url, `${route}-${concurrency}-${position}`, route));
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const wrong = results.filter(
    (result) =>
      result.status !== 200 || JSON.stringify(result.value) !== JSON.stringify(expectedTicket(result.id)),
  ).length;
  return {
    label,
    requests,
    concurrency,
    seconds,
    latencies: results.map((result) => result.latencyMs),
    wrong,
  };
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

function row(measurement: Measurement): string {
  const sorted = [...measurement.latencies].sort((a, b) => a - b);
  const cells = [
    measurement.label,
    String(measurement.concurrency),
    String(measurement.requests),
    (measurement.requests / measurement.seconds).toFixed(0),
    percentile(sorted, 0.5).toFixed(1),
    percentile(sorted, 0.95).toFixed(1),
    percentile(sorted, 0.99).toFixed(1),
    String(measurement.wrong),
  ];
  return `| ${cells.join(" | ")} |`;
}

export async function benchServer(): Promise<string> {
  const scenario = await startLoadScenario();
  const rows: string[] = [];
  try {
    await measure(scenario.url, "warmup", "call", warmup, 10);
    for (const concurrency of [1, 10, 50]) {
      rows.push(row(await measure(scenario.url, "POST /call", "call", 300, concurrency)));
    }
    for (const concurrency of [1, 10, 50]) {
      rows.push(row(await measure(scenario.url, "POST /stream (SSE)", "stream", 200, concurrency)));
    }
    rows.push(row(await measure(scenario.url, "burst: POST /call", "call", 500, 500)));
  } finally {
    await scenario.close();
  }
  return [
    "## Server (`sapling serve` on loopback)",
    "",
    "`sapling serve` with the mock LLM server answering at once (a fenced JSON answer, 12-character SSE",
    "chunks), so latency is Sapling's own: request parsing, prompt rendering, the provider call over HTTP,",
    "the Schema-Aligned Parse, the response. Client, server and mock run in one Node process on the same",
    "cores. `wrong` counts answers that were not 200 or carried another request's data (must be 0).",
    "",
    "| route | concurrency | requests | req/s | p50 ms | p95 ms | p99 ms | wrong |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ...rows,
  ].join("\n");
}
