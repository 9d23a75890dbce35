import { readFile, rename, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import {
  BatchBudgetError,
  BatchCheckpointError,
  BatchCredentialsError,
  type BatchProgress,
  type BatchReport,
  type BatchResult,
  type BatchRow,
  fileCheckpoint,
  ProviderBatchError,
  type RateLimit,
  runBatch,
  runProviderBatch,
} from "../../batch/index.js";
import { formatCost, isBamlError, SaplingRuntime } from "../../runtime/index.js";
import { type CliContext, CliError, type Command, UsageError } from "../cli-context.js";
import { dotenvFlags, dotenvUsage, environmentFor } from "../dotenv.js";
import { loadCompiledProject, projectDirectory } from "../load-project.js";
import { booleanFlag, optionalWholeNumberFlag, parseFlags, stringFlag } from "../parse-flags.js";
import { cliRuntimeExtensions } from "../provider-extensions.js";
import { readPriceFlags } from "../read-price-flags.js";
import { textFileReader } from "../text-file-reader.js";
import { unknownFunction } from "../unknown-function.js";
import { lockOutput } from "./batch-lock.js";
import { digestRows, readBatchRows } from "./batch-rows.js";
import { loadQueueRoom, redisUrl } from "./worker.js";

const usage = `Usage: sapling batch <Function> --input ROWS.jsonl --output RESULTS.jsonl [--from DIR]
                     [--concurrency N] [--rpm N] [--tpm N] [--timeout MS] [--max-rows N]
                     [--max-cost USD [--price MODEL=INPUT/OUTPUT]…] [--retry-failed] [--checkpoint FILE] [--client NAME] [--id-field NAME]
                     [--progress auto|bar|json|none] [--mode calls|provider-batch]
                     [--poll-interval SECONDS] [--queue NAME [--redis URL] [--connect-timeout MS]]
                     [--dotenv | --dotenv-path FILE]

Runs a function over every row of a JSON-lines file and writes one result per row, in input order:
{"id": …, "ok": true, "value": …, "raw": "<the answer>"} or {"id": …, "ok": false, "error": {…}, "raw": …}.
A row that fails never stops the batch. Progress goes to a checkpoint file as rows finish: rerun the
same command after a crash or Ctrl-C and it resumes, never asking again for a row whose result was
written (rows in flight at the stop are sent again, and counted as re-sent).

Options:
  --input FILE        the rows: one JSON object per line, the function's arguments by name, with an
                      optional id field; or {"id": …, "args": {…}}. Rows without an id are named by line
  --output FILE       the results file, written when the run ends (in input order, no timings)
  --from DIR          the baml_src folder (default ./baml_src)
  --concurrency N     rows in flight at once (default 8)
  --rpm N             at most N requests per minute to the client
  --tpm N             at most N tokens (input + output, as reported) per minute to the client
  --timeout MS        a row that takes longer fails with BatchRowTimeoutError
  --max-rows N        start at most N rows in this run; rerun to continue
  --max-cost USD      a budget in US dollars: once this run and the earlier runs of the checkpoint have
                      spent it, no new row starts (rows in flight finish); rerun with a higher
                      --max-cost to continue. Cost comes from the price table; a model it does not name
                      stops the run until you give its price with --price
  --price M=IN/OUT    the price of model M in US dollars per million input and output tokens, over the
                      shipped table (repeatable), e.g. --price my-finetune=0.3/1.2
  --retry-failed      run again only the rows whose recorded result is a failure
  --checkpoint FILE   where progress is kept (default: the output file's name + .checkpoint)
  --client NAME       use this client (a declared name or "provider/model") instead of the function's own
  --id-field NAME     the field that names a row (default id)
  --mode MODE         calls (default): one request per row, as b.Fn sends it; provider-batch: the
                      pending rows as an OpenAI Batch or Anthropic Message Batch (about half the price,
                      answered within 24 hours; several batches above 50,000 requests or 200 MB for
                      OpenAI, 100,000 or 256 MB for Anthropic); the batch ids go into the checkpoint, so
                      a rerun resumes polling instead of submitting again
  --poll-interval S   seconds between polls of a provider batch (default 30)
  --queue NAME        put the rows on a BullMQ queue in Redis for \`sapling worker --queue NAME\`s to run,
                      then wait for their results, writing each to the checkpoint as it arrives (rerun
                      to resume; a Redis restarted empty is noticed and the rows without a result are
                      enqueued again). Needs the optional packages bullmq and ioredis
  --redis URL         the Redis for --queue (default: REDIS_URL, then redis://127.0.0.1:6379)
  --connect-timeout MS  how long --queue waits for Redis at start before failing (default 5000)
  --progress MODE     bar (a live line on a terminal), json (a JSON line at most every second, and one
                      at the end), none; auto picks bar on a terminal and json otherwise (default auto)
${dotenvUsage(20)}

One run per output: a second run on the same --output is refused, naming the first (OUTPUT.lock; a lock
left by a run that is no longer running is taken over). A damaged checkpoint line is skipped and
reported (its row runs again). A key the provider refuses (401, 403) stops the batch: no new row starts.

Exit codes: 0 every row has a value; 1 some rows failed (their errors are in the results file), or the
run could not go on (the message says why); 3 stopped by --max-rows or --max-cost; 130 interrupted (the
checkpoint is kept).

Example:
  sapling batch ExtractResume --input resumes.jsonl --output resumes.results.jsonl --concurrency 16 --rpm 500
`;

/** `sapling batch`: run a function over a file of rows, resumably. */
export const batchCommand: Command = {
  usage,
  run: async (argv: string[], context: CliContext): Promise<number> => {
    const flags = parseFlags(
      argv,
      {
        from: { type: "string" },
        input: { type: "string" },
        output: { type: "string" },
        concurrency: { type: "string" },
        rpm: { type: "string" },
        tpm: { type: "string" },
        timeout: { type: "string" },
        "max-rows": { type: "string" },
        "max-cost": { type: "string" },
        price: { type: "string", multiple: true },
        "retry-failed": { type: "boolean" },
        checkpoint: { type: "string" },
        client: { type: "string" },
        "id-field": { type: "string" },
        progress: { type: "string" },
        mode: { type: "string" },
        "poll-interval": { type: "string" },
        queue: { type: "string" },
        redis: { type: "string" },
        "connect-timeout": { type: "string" },
        ...dotenvFlags,
      },
      1,
    );
    const functionName = flags.positionals[0];
    if (!functionName)
      throw new UsageError(
        "name the function to run, e.g. `sapling batch ExtractResume --input rows.jsonl --output results.jsonl`",
      );
    const inputFlag = stringFlag(flags, "input");
    const outputFlag = stringFlag(flags, "output");
    if (!inputFlag) throw new UsageError("--input FILE is required: the rows, one JSON object per line");
    if (!outputFlag) throw new UsageError("--output FILE is required: where the results go");
    const progressMode = stringFlag(flags, "progress") ?? "auto";
    if (!["auto", "bar", "json", "none"].includes(progressMode))
      throw new UsageError(`--progress must be auto, bar, json or none, got "${progressMode}"`);
    const maxCostUsd = maxCostFlag(stringFlag(flags, "max-cost"));
    const prices = readPriceFlags((flags.values.price as string[] | undefined) ?? []);
    const display = progressDisplay(
      (progressMode === "auto" ? (context.isTTY ? "bar" : "json") : progressMode) as "bar" | "json" | "none",
      context,
      maxCostUsd,
    );
    const runMode = stringFlag(flags, "mode") ?? "calls";
    if (runMode !== "calls" && runMode !== "provider-batch")
      throw new UsageError(`--mode must be calls or provider-batch, got "${runMode}"`);
    const pollSeconds = optionalWholeNumberFlag(flags, "poll-interval");
    if (runMode === "provider-batch")
      for (const flag of ["concurrency", "rpm", "tpm", "timeout", "max-rows", "max-cost"])
        if (stringFlag(flags, flag) !== undefined)
          throw new UsageError(
            flag === "max-cost"
              ? "--max-cost applies to --mode calls: a provider batch is submitted whole, so a budget cannot stop it part way. Drop --mode provider-batch to run with a budget"
              : `--${flag} applies to --mode calls; a provider batch is paced by the provider`,
          );
    const concurrency = optionalWholeNumberFlag(flags, "concurrency", 1);
    const maxRows = optionalWholeNumberFlag(flags, "max-rows");
    const timeoutMs = optionalWholeNumberFlag(flags, "timeout", 1);
    const limit: RateLimit = {};
    const rpm = optionalWholeNumberFlag(flags, "rpm", 1);
    const tpm = optionalWholeNumberFlag(flags, "tpm", 1);
    if (rpm !== undefined) limit.requestsPerMinute = rpm;
    if (tpm !== undefined) limit.tokensPerMinute = tpm;

    const inputPath = resolve(context.cwd, inputFlag);
    const outputPath = resolve(context.cwd, outputFlag);
    const checkpointPath = resolve(
      context.cwd,
      stringFlag(flags, "checkpoint") ?? `${outputFlag}.checkpoint`,
    );
    if (checkpointPath === outputPath || checkpointPath === inputPath)
      throw new UsageError("--checkpoint must name a file other than --input and --output");
    const { ir } = await loadCompiledProject(projectDirectory(context, stringFlag(flags, "from")), context);
    const fn = ir.functions.find((candidate) => candidate.name === functionName);
    if (!fn) throw unknownFunction(functionName, ir);
    let inputText: string;
    try {
      inputText = await readFile(inputPath, "utf8");
    } catch (error) {
      throw new CliError(
        `cannot read --input ${inputFlag}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
    const rows = readBatchRows(inputText, inputFlag, fn, stringFlag(flags, "id-field") ?? "id");
    // One run per output: a second would pay for every row again (docs/batch.md, "One run per output").
    const lock = lockOutput(outputPath, `sapling batch ${argv.join(" ")}`);
    if (lock.tookOverFrom !== undefined)
      context.stderr(
        `sapling batch: took over the lock of ${outputFlag} left by pid ${lock.tookOverFrom}, which is no longer running\n`,
      );
    const proceed = async (): Promise<number> => {
      const checkpoint = fileCheckpoint(
        checkpointPath,
        { function: functionName, rows: digestRows(rows) },
        {
          onDamagedLine: (line) =>
            context.stderr(`sapling batch: ${line}; skipped: the row it recorded runs again\n`),
        },
      );
      const queue = stringFlag(flags, "queue");
      if (queue !== undefined) {
        for (const flag of [
          "concurrency",
          "rpm",
          "tpm",
          "timeout",
          "max-rows",
          "max-cost",
          "price",
          "mode",
          "client",
        ])
          if (flags.values[flag] !== undefined)
            throw new UsageError(
              `--${flag} does not apply with --queue: the workers run the rows (see sapling worker --help)`,
            );
        return runOnQueue(functionName, rows, queue, redisUrl(stringFlag(flags, "redis"), context), {
          output: outputFlag,
          outputPath,
          checkpoint,
          checkpointPath,
          connectTimeoutMs: optionalWholeNumberFlag(flags, "connect-timeout", 1) ?? 5000,
          retryFailed: booleanFlag(flags, "retry-failed"),
          progress: display,
          context,
        });
      }
      const client = stringFlag(flags, "client");
      const runtime = SaplingRuntime.fromIr(ir, {
        env: await environmentFor(flags, context),
        readTextFile: textFileReader(context.cwd),
        ...cliRuntimeExtensions,
        prices,
      });
      const controller = new AbortController();
      void context.interrupted.then(() => controller.abort(new Error("interrupted")));
      let report: BatchReport;
      try {
        const shared = {
          checkpoint,
          signal: controller.signal,
          retryFailed: booleanFlag(flags, "retry-failed"),
          callOptions: client ? { client } : {},
          onProgress: display.update,
        };
        report =
          runMode === "provider-batch"
            ? await runProviderBatch(runtime, functionName, rows, {
                ...shared,
                ...(pollSeconds !== undefined ? { pollIntervalMs: pollSeconds * 1000 } : {}),
                onPoll: (batch) => context.stderr(`${JSON.stringify({ providerBatch: batch })}\n`),
              })
            : await runBatch(runtime, functionName, rows, {
                ...shared,
                ...(concurrency !== undefined ? { concurrency } : {}),
                ...(maxRows !== undefined ? { maxRows } : {}),
                ...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
                ...(timeoutMs !== undefined ? { timeoutMs } : {}),
                ...(rpm !== undefined || tpm !== undefined
                  ? { rateLimits: { [client ?? fn.client]: limit } }
                  : {}),
              });
      } catch (error) {
        if (controller.signal.aborted && !(error instanceof BatchCheckpointError)) {
          context.stderr(
            `Interrupted. The checkpoint ${checkpointPath} is kept: rerun the same command to resume.\n`,
          );
          return 130;
        }
        if (error instanceof BatchBudgetError)
          throw new CliError(
            `--max-cost: row ${JSON.stringify(error.rowId)} was answered by the model ${JSON.stringify(error.model ?? "(not reported)")}, which has no price, so the budget cannot be kept. Give its price in US dollars per million input and output tokens with --price ${error.model ?? "MODEL"}=INPUT/OUTPUT, or run without --max-cost. No new rows were started; the finished ones are in the checkpoint ${checkpointPath}.`,
          );
        // A client's failure (a refused key, a server out of reach) is reported as `sapling call` reports it.
        throw error instanceof RangeError ||
          error instanceof BatchCheckpointError ||
          error instanceof ProviderBatchError ||
          error instanceof BatchCredentialsError ||
          isBamlError(error)
          ? new CliError(error.message)
          : error;
      } finally {
        checkpoint.close();
      }
      display.end(report.progress);
      await writeResults(outputPath, report.results);
      return summarize(
        report,
        {
          output: outputFlag,
          checkpoint: checkpointPath,
          resentBecause: "in flight when an earlier run stopped",
          ...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
        },
        context,
      );
    };
    try {
      return await proceed();
    } finally {
      lock.release();
    }
  },
};

/** `--max-cost USD`: a positive amount of US dollars (digits, an optional fraction). */
function maxCostFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const amount = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(amount > 0))
    throw new UsageError(
      `--max-cost must be a positive amount of US dollars, such as 5 or 0.25 (no "$"), got "${value}"`,
    );
  return amount;
}

async function runOnQueue(
  functionName: string,
  rows: BatchRow[],
  queue: string,
  url: string,
  options: {
    output: string;
    outputPath: string;
    checkpoint: ReturnType<typeof fileCheckpoint>;
    checkpointPath: string;
    connectTimeoutMs: number;
    retryFailed: boolean;
    progress: ProgressDisplay;
    context: CliContext;
  },
): Promise<number> {
  const { context } = options;
  const room = await loadQueueRoom();
  let redis: ReturnType<typeof room.connectRedis>;
  try {
    redis = room.connectRedis(url);
  } catch (error) {
    throw new UsageError(`--redis: ${(error as Error).message}`);
  }
  const address = room.redisAddress(url);
  const controller = new AbortController();
  void context.interrupted.then(() => controller.abort(new Error("interrupted")));
  room.watchRedis(redis, address, (line) => context.stderr(`sapling batch: ${line}\n`));
  try {
    try {
      await room.waitForRedis(redis, url, { timeoutMs: options.connectTimeoutMs, signal: controller.signal });
    } catch (error) {
      if (controller.signal.aborted) {
        context.stderr("Interrupted before Redis answered; nothing was enqueued.\n");
        return 130;
      }
      throw new CliError((error as Error).message);
    }
    const report = await room.queueBatch(functionName, rows, {
      queue,
      redis,
      checkpoint: options.checkpoint,
      retryFailed: options.retryFailed,
      signal: controller.signal,
      onProgress: options.progress.update,
      onNotice: (message) => context.stderr(`sapling batch: ${message}\n`),
    });
    options.progress.end(report.progress);
    await writeResults(options.outputPath, report.results);
    return summarize(
      report,
      {
        output: options.output,
        checkpoint: `${options.checkpointPath} (and Redis, queue ${queue})`,
        resentBecause: "the worker running them died or lost its hold",
      },
      context,
    );
  } finally {
    options.checkpoint.close();
    redis.disconnect();
  }
}

/** Writes the results in input order, whole or not at all (a temporary file, then a rename). */
async function writeResults(path: string, results: readonly (BatchResult | null)[]): Promise<void> {
  const lines = results
    .filter((result): result is BatchResult => result !== null)
    .map((result) => `${JSON.stringify(result)}\n`);
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, lines.join(""));
  await rename(temporary, path);
}

function summarize(
  report: BatchReport,
  paths: { output: string; checkpoint: string; maxCostUsd?: number; resentBecause: string },
  context: CliContext,
): number {
  const { progress } = report;
  const done = report.results.filter((result) => result !== null).length;
  const parts = [
    `${progress.succeeded} succeeded`,
    `${progress.failed} failed`,
    ...(progress.skipped > 0 ? [`${progress.skipped} already done`] : []),
    ...(progress.resent > 0 ? [`${progress.resent} re-sent (${paths.resentBecause})`] : []),
    ...(progress.retried > 0 ? [`${progress.retried} retried after a failure in transit`] : []),
    ...(progress.rateLimited > 0 ? [`${progress.rateLimited} rate-limited and retried`] : []),
    ...(progress.succeeded + progress.failed > 0 ? [`cost ${formatCost(progress.costUsd)}`] : []),
  ];
  context.stderr(
    `sapling batch: ${parts.join(", ")}; ${done} of ${progress.total} rows in ${paths.output}\n`,
  );
  if (report.stoppedBy === "aborted") {
    context.stderr(
      `Interrupted. The checkpoint ${paths.checkpoint} is kept: rerun the same command to resume.\n`,
    );
    return 130;
  }
  if (report.stoppedBy === "max-cost") {
    const spent = progress.earlierCostUsd + (progress.costUsd ?? 0);
    const earlier =
      progress.earlierCostUsd > 0 ? ` (${formatCost(progress.earlierCostUsd)} of it in earlier runs)` : "";
    context.stderr(
      `Stopped at --max-cost ${formatCost(paths.maxCostUsd ?? 0)}: ${formatCost(spent)} spent${earlier}, ${progress.total - done} rows to go. Rerun with a higher --max-cost to continue; the rows already done are not asked again.\n`,
    );
    return 3;
  }
  if (report.stoppedBy === "max-rows") {
    context.stderr(`Stopped at --max-rows with ${progress.total - done} rows to go: rerun to continue.\n`);
    return 3;
  }
  const failed = report.results.filter((result) => result !== null && !result.ok).length;
  if (failed > 0) {
    context.stderr(
      `${failed} rows failed; their errors are in ${paths.output}. --retry-failed runs only those.\n`,
    );
    return 1;
  }
  return 0;
}

interface ProgressDisplay {
  update: (progress: BatchProgress) => void;
  end: (progress: BatchProgress) => void;
}

function progressDisplay(
  mode: "bar" | "json" | "none",
  context: CliContext,
  maxCostUsd: number | undefined,
): ProgressDisplay {
  if (mode === "none") return { update: () => {}, end: () => {} };
  let lastAt = Number.NEGATIVE_INFINITY;
  if (mode === "json") {
    const line = (progress: BatchProgress, final: boolean) =>
      context.stderr(`${JSON.stringify({ progress: { ...progressFigures(progress), final } })}\n`);
    return {
      update: (progress) => {
        if (progress.elapsedMs - lastAt < 1000) return;
        lastAt = progress.elapsedMs;
        line(progress, false);
      },
      end: (progress) => line(progress, true),
    };
  }
  const draw = (progress: BatchProgress) => context.stderr(`\r\x1b[2K${progressBar(progress, maxCostUsd)}`);
  return {
    update: (progress) => {
      if (progress.elapsedMs - lastAt < 100) return;
      lastAt = progress.elapsedMs;
      draw(progress);
    },
    end: (progress) => {
      draw(progress);
      context.stderr("\n");
    },
  };
}

function progressFigures(progress: BatchProgress) {
  const done = progress.succeeded + progress.failed;
  const seconds = progress.elapsedMs / 1000;
  const rate = seconds > 0 ? done / seconds : 0;
  const left = progress.pending - done;
  return {
    done: done + progress.skipped,
    total: progress.total,
    succeeded: progress.succeeded,
    failed: progress.failed,
    skipped: progress.skipped,
    resent: progress.resent,
    rateLimited: progress.rateLimited,
    retried: progress.retried,
    rowsPerSecond: Math.round(rate * 10) / 10,
    etaSeconds: rate > 0 ? Math.ceil(left / rate) : null,
    inputTokens: progress.inputTokens,
    outputTokens: progress.outputTokens,
    /** US dollars this run, from the price table; `null` (unknown) when a model has no price. */
    costUsd: progress.costUsd === null ? null : Number(progress.costUsd.toPrecision(6)),
    earlierCostUsd: Number(progress.earlierCostUsd.toPrecision(6)),
    repairs: progress.repairs,
    elapsedSeconds: Math.round(seconds * 10) / 10,
  };
}

function progressBar(progress: BatchProgress, maxCostUsd: number | undefined): string {
  const figures = progressFigures(progress);
  const share = figures.total === 0 ? 1 : figures.done / figures.total;
  const width = 24;
  const filled = Math.round(share * width);
  const eta = figures.etaSeconds === null ? "--" : formatDuration(figures.etaSeconds);
  const tokens =
    figures.inputTokens === null || figures.outputTokens === null
      ? "unknown"
      : compact(figures.inputTokens + figures.outputTokens);
  const cost =
    progress.costUsd === null
      ? "unknown"
      : formatCost(progress.costUsd + progress.earlierCostUsd) +
        (maxCostUsd === undefined ? "" : ` of ${formatCost(maxCostUsd)}`);
  return `${"█".repeat(filled)}${"░".repeat(width - filled)} ${figures.done}/${figures.total} ${Math.floor(share * 100)}%  ${figures.rowsPerSecond} rows/s  ETA ${eta}  tokens ${tokens}  cost ${cost}  repairs ${figures.repairs ?? "unknown"}  failed ${figures.failed}`;
}

function formatDuration(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}

function compact(count: number): string {
  if (count >= 1_000_000) return `${(count / 1_000_000).toFixed(1)}M`;
  if (count >= 1000) return `${(count / 1000).toFixed(1)}k`;
  return String(count);
}
