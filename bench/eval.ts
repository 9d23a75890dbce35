/**
 * `eval` benchmark: `sapling eval` over 10,000 rows × 3 cells (`SAPLING_BENCH_EVAL_ROWS` to change)
 * against the mock answer profiles on loopback, in this process, with the heap and resident memory
 * sampled every 100 ms. The same run at a tenth of the rows first, so that memory growing with the rows
 * would show. Records stream to a file and the report is summed from it, so the figures that grow with
 * the rows are the dataset itself (held for the batch engine) and the latencies (one number per row).
 */
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { captureContext } from "../src/cli/cli-context.js";
import { evalCommand } from "../src/cli/commands/eval.js";

const example = join(import.meta.dirname, "..", "examples", "resume");

interface Run {
  rows: number;
  wallMs: number;
  peakHeapMb: number;
  peakLiveHeapMb: number;
  peakRssMb: number;
  baseHeapMb: number;
  recordsMb: number;
  table: string;
}

const megabytes = (bytes: number) => bytes / (1024 * 1024);

// A full collection before a sample measures what is kept, not garbage not yet collected.
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

async function run(rowCount: number): Promise<Run> {
  const base = (await readFile(join(example, "eval", "rows.jsonl"), "utf8")).trimEnd().split("\n");
  const directory = await mkdtemp(join(tmpdir(), "sapling-bench-eval-"));
  try {
    const lines: string[] = [];
    for (let index = 0; index < rowCount; index += 1) {
      const row = JSON.parse(base[index % base.length] as string) as {
        args: { resume_text: string };
        expected: unknown;
      };
      // A line of its own makes each row's prompt unique, so the profiles find its expected value.
      lines.push(
        JSON.stringify({
          id: `row-${index + 1}`,
          args: { resume_text: `Application ${index + 1}\n${row.args.resume_text}` },
          expected: row.expected,
        }),
      );
    }
    await writeFile(join(directory, "rows.jsonl"), `${lines.join("\n")}\n`);
    lines.length = 0;
    collectGarbage();
    const baseHeap = process.memoryUsage().heapUsed;
    let peakHeap = baseHeap;
    let peakLiveHeap = baseHeap;
    let peakRss = process.memoryUsage().rss;
    let samples = 0;
    const sampler = setInterval(() => {
      samples += 1;
      // Every tenth sample (once a second) after a full collection: the heap the run keeps.
      if (samples % 10 === 0) {
        collectGarbage();
        peakLiveHeap = Math.max(peakLiveHeap, process.memoryUsage().heapUsed);
      }
      const usage = process.memoryUsage();
      peakHeap = Math.max(peakHeap, usage.heapUsed);
      peakRss = Math.max(peakRss, usage.rss);
    }, 100);
    const context = captureContext({ cwd: directory });
    const started = performance.now();
    const code = await evalCommand.run(
      [
        "EvaluateResume",
        "--from",
        join(example, "baml_src"),
        "--data",
        "rows.jsonl",
        "--score",
        join(example, "eval", "score.json"),
        "--client",
        "mock/reasoning-first",
        "--mode",
        "prompt,tools,native",
        "--concurrency",
        "32",
        "--record",
        "records",
        "--progress",
        "none",
      ],
      context,
    );
    const wallMs = performance.now() - started;
    clearInterval(sampler);
    if (code !== 0) throw new Error(`sapling eval exited ${code}: ${context.output().stderr}`);
    return {
      rows: rowCount,
      wallMs,
      peakHeapMb: megabytes(peakHeap),
      peakLiveHeapMb: megabytes(peakLiveHeap),
      peakRssMb: megabytes(peakRss),
      baseHeapMb: megabytes(baseHeap),
      recordsMb: megabytes((await stat(join(directory, "records", "records.jsonl"))).size),
      table: context.output().stdout,
    };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

export async function benchEval(): Promise<string> {
  const rows = Number(process.env.SAPLING_BENCH_EVAL_ROWS ?? 10_000);
  const small = await run(Math.max(1, Math.round(rows / 10)));
  const large = await run(rows);
  const line = (result: Run) =>
    `| ${result.rows.toLocaleString("en-US")} × 3 | ${(result.wallMs / 1000).toFixed(1)} s | ${Math.round((result.rows * 3) / (result.wallMs / 1000))} | ${result.baseHeapMb.toFixed(0)} MB | ${result.peakLiveHeapMb.toFixed(0)} MB | ${result.peakHeapMb.toFixed(0)} MB | ${result.peakRssMb.toFixed(0)} MB | ${result.recordsMb.toFixed(1)} MB |`;
  const cells = (large.table.split("Field accuracy")[0] ?? "")
    .split("\n")
    .filter((text) => text.startsWith("mock/"));
  return `## Evals (\`sapling eval\`)

\`sapling eval EvaluateResume\` over the example's 50 resumes repeated (each with a line of its own), one
profile in three output modes (\`mock/reasoning-first\` × prompt, tools, native), \`--concurrency 32\`,
against the mock LLM server in the same process. Memory is sampled every 100 ms during the run; once a
second after a full garbage collection ("peak heap kept": what the run holds, garbage excluded). "Heap
before" is the heap after a collection when the run starts. Records stream to
\`records.jsonl\` and the report is summed from that file; what grows with the rows is the dataset held
for the batch engine and one latency per row. Source: \`bench/eval.ts\`.

| rows × cells | wall time | rows/s | heap before | peak heap kept | peak heap | peak RSS | records file |
|---|---:|---:|---:|---:|---:|---:|---:|
${line(small)}
${line(large)}

Over its start, the kept heap grew by ${(small.peakLiveHeapMb - small.baseHeapMb).toFixed(0)} MB for ${small.rows.toLocaleString("en-US")} rows and by ${(large.peakLiveHeapMb - large.baseHeapMb).toFixed(0)} MB for ${large.rows.toLocaleString("en-US")} (the
dataset and the latencies; the first run's start excludes js-tiktoken's rank tables, loaded during it and
kept by the second), while the records file grew tenfold; peak RSS stayed the same.

The ${rows.toLocaleString("en-US")}-row table (every profile answer is right by construction; the figures that matter
here are memory and throughput):

\`\`\`
${cells.join("\n")}
\`\`\`
`;
}
