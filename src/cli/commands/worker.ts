import { SaplingRuntime } from "../../runtime/index.js";
import { type CliContext, CliError, type Command, UsageError } from "../cli-context.js";
import { dotenvFlags, dotenvUsage, environmentFor } from "../dotenv.js";
import { loadCompiledProject, projectDirectory } from "../load-project.js";
import { optionalWholeNumberFlag, parseFlags, stringFlag } from "../parse-flags.js";
import { cliRuntimeExtensions } from "../provider-extensions.js";
import { textFileReader } from "../text-file-reader.js";

const usage = `Usage: sapling worker --queue NAME [--redis URL] [--from DIR] [--concurrency N] [--rpm N]
                      [--lock-duration MS] [--client NAME] [--dotenv | --dotenv-path FILE]

Runs the rows that \`sapling batch --queue NAME\` puts on a BullMQ queue in Redis, until Ctrl-C. Start any
number of workers on any number of machines: BullMQ hands each row to one of them, takes back the rows of
a worker that dies (after --lock-duration) and retries failures in transit (429, 5xx, resets) with
backoff. Each result is stored in Redis under its row id, so a row run twice still leaves one result.
Needs the optional packages bullmq and ioredis (npm install bullmq ioredis).

Options:
  --queue NAME        the queue's name
  --redis URL         redis://[user:password@]host:port[/db], or rediss:// for TLS (default: REDIS_URL,
                      then redis://127.0.0.1:6379)
  --from DIR          the baml_src folder (default ./baml_src)
  --concurrency N     rows in flight in this worker (default 8)
  --rpm N             requests per minute for the whole queue, shared by every worker
  --lock-duration MS  how long a worker's hold on a row lasts without renewal (default 30000)
  --client NAME       use this client instead of each function's own
  --connect-timeout MS  how long to wait for Redis at start before failing (default 5000)
${dotenvUsage(20)}

Each failed attempt of a row is logged on stderr (stored as the row's result, or retried), and so is a
lost connection to Redis and its return. The first Ctrl-C (or SIGTERM) stops taking rows and lets the
rows in flight finish; a second stops at once (BullMQ hands those rows to another worker).
`;

/** Loads the queue room only when a queue is used: bullmq and ioredis are optional peers. */
export async function loadQueueRoom() {
  try {
    return await import("../../worker/index.js");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ERR_MODULE_NOT_FOUND")
      throw new CliError(
        `queues need the optional packages bullmq and ioredis: npm install bullmq ioredis (${(error as Error).message.split("\n")[0]})`,
      );
    throw error;
  }
}

export function redisUrl(flag: string | undefined, context: CliContext): string {
  return flag ?? context.env.REDIS_URL ?? "redis://127.0.0.1:6379";
}

/** `sapling worker`: run queued rows until interrupted. */
export const workerCommand: Command = {
  usage,
  run: async (argv: string[], context: CliContext): Promise<number> => {
    const flags = parseFlags(
      argv,
      {
        queue: { type: "string" },
        redis: { type: "string" },
        from: { type: "string" },
        concurrency: { type: "string" },
        rpm: { type: "string" },
        "lock-duration": { type: "string" },
        client: { type: "string" },
        "connect-timeout": { type: "string" },
        ...dotenvFlags,
      },
      0,
    );
    const queue = stringFlag(flags, "queue");
    if (!queue)
      throw new UsageError("--queue NAME is required: the queue `sapling batch --queue NAME` fills");
    const concurrency = optionalWholeNumberFlag(flags, "concurrency", 1);
    const rpm = optionalWholeNumberFlag(flags, "rpm", 1);
    const lockDurationMs = optionalWholeNumberFlag(flags, "lock-duration", 100);
    const connectTimeoutMs = optionalWholeNumberFlag(flags, "connect-timeout", 1) ?? 5000;
    const { ir } = await loadCompiledProject(projectDirectory(context, stringFlag(flags, "from")), context);
    const runtime = SaplingRuntime.fromIr(ir, {
      env: await environmentFor(flags, context),
      readTextFile: textFileReader(context.cwd),
      ...cliRuntimeExtensions,
    });
    const room = await loadQueueRoom();
    const url = redisUrl(stringFlag(flags, "redis"), context);
    let redis: ReturnType<typeof room.connectRedis>;
    try {
      redis = room.connectRedis(url);
    } catch (error) {
      throw new UsageError(`--redis: ${(error as Error).message}`);
    }
    const address = room.redisAddress(url);
    const log = (line: string) => context.stderr(`sapling worker: ${line}\n`);
    room.watchRedis(redis, address, log);
    const interrupted = new AbortController();
    void context.interrupted.then(() => interrupted.abort(new Error("interrupted")));
    try {
      await room.waitForRedis(redis, url, { timeoutMs: connectTimeoutMs, signal: interrupted.signal });
    } catch (error) {
      redis.disconnect();
      if (interrupted.signal.aborted) {
        log("stopped before Redis answered");
        return 0;
      }
      throw new CliError((error as Error).message);
    }
    const client = stringFlag(flags, "client");
    let done = 0;
    const worker = room.startWorker({
      queue,
      redis,
      runtime,
      ...(concurrency !== undefined ? { concurrency } : {}),
      ...(rpm !== undefined ? { requestsPerMinute: rpm } : {}),
      ...(lockDurationMs !== undefined ? { lockDurationMs } : {}),
      ...(client ? { callOptions: { client } } : {}),
      onResult: () => {
        done += 1;
      },
      onFailure: (failure) =>
        log(
          `row ${JSON.stringify(failure.job.id)} (batch ${failure.job.batch}) failed on attempt ${failure.attempt} of ${failure.attempts}: ${failure.error instanceof Error ? `${failure.error.name}: ${failure.error.message}` : String(failure.error)}; ${failure.retrying ? "BullMQ retries it with backoff" : "stored as its result"}`,
        ),
    });
    log(`taking rows from queue ${queue} at ${address}; Ctrl-C stops`);
    await context.interrupted;
    // A second signal ends the process (the CLI listens for the first only); say so while rows finish.
    log(
      worker.inFlight > 0
        ? `stopping: letting the ${worker.inFlight} rows in flight finish (Ctrl-C again stops at once; another worker takes them over)`
        : "stopping",
    );
    await worker.close();
    redis.disconnect();
    log(`stopped after ${done} rows`);
    return 0;
  },
};
