import type { MessagePort, Worker } from "node:worker_threads";
import {
  BamlAbortError,
  BamlInvalidArgumentError,
  type CallOptions,
  type Collector,
  type Environment,
  type FunctionLog,
  type HttpRequest,
  type SaplingRuntime,
  withBodyReaders,
} from "../runtime/index.js";
import {
  fromPortableError,
  type PortableCallOptions,
  type SyncCallReply,
  type SyncCallRequest,
} from "./sync-messages.js";
import { workerThreads } from "./worker-threads.js";

export interface SyncClientOptions {
  /** Provider adapters of other entry points the project's clients use: `aws-bedrock`, `vertex-ai`. */
  providers?: readonly string[];
  /**
   * The environment calls read, each call's `env` over it. The generated sync client passes
   * `process.env` itself, as BAML's does (`resetBamlEnvVars` changes the async client's only).
   */
  env?: Environment;
  /** One JSON object per log line (`BAML_LOG_JSON`), as the runtime's logger writes them. */
  jsonLogs?: boolean;
}

/**
 * The worker's start: load the sync entry (this package's module at `entry`) and serve; if it cannot
 * load, answer every request with why, so the waiting thread wakes up and throws instead of hanging.
 */
const bootstrap = `
const { workerData } = require("node:worker_threads");
// Run from TypeScript sources (this repository's tests, through tsx), the worker loads them through tsx too.
const loader = workerData.loader ? import(workerData.loader).then((tsx) => tsx.register()) : Promise.resolve();
loader
  .then(() => import(workerData.entry))
  .then((module) => module.serveSyncCalls(workerData.data))
  .catch((error) => {
    const port = workerData.data.port;
    port.on("message", ({ flag }) => {
      port.postMessage({ ok: false, startup: String((error && error.stack) || error) });
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
    });
  });
`;

/**
 * BAML's synchronous client (`b_sync.Fn(...)`, `b_sync.request.Fn(...)`): JavaScript cannot wait for
 * HTTP on the thread that asked, so each call runs on a worker thread (one per client, started on first
 * use) in a runtime over the same IR and providers, while this thread waits on `Atomics.wait` and then
 * reads the reply synchronously. The call is the async client's: same retries, fallback, parsing, errors
 * (of the same classes) and Collector logs. Node only; it blocks the event loop for the whole call, as
 * BAML's does (docs/generated-client.md, "The sync client").
 */
export class SyncClient {
  readonly #runtime: SaplingRuntime;
  readonly #entry: { url: string; loader?: string | undefined };
  readonly #options: SyncClientOptions;
  #thread: { worker: Worker; port: MessagePort } | undefined;

  /**
   * `entry` is the URL of the module that exports `serveSyncCalls` (`sapling-llm/sync`'s own); `loader`, a
   * module whose `register()` the worker calls first (tsx's, when `entry` is TypeScript source).
   */
  constructor(
    runtime: SaplingRuntime,
    entry: { url: string; loader?: string | undefined },
    options: SyncClientOptions = {},
  ) {
    this.#runtime = runtime;
    this.#entry = entry;
    this.#options = options;
  }

  /** Runs `functionName` and returns its parsed value, blocking until the call ends. */
  call(functionName: string, args: Record<string, unknown>, options: CallOptions = {}): unknown {
    return this.#run({ method: "call", functionName, args, options: this.#portable(options) }, options);
  }

  /** The HTTP request a call (or, with `stream`, a stream) would send, as `b.request.Fn` builds it. */
  buildRequest(
    functionName: string,
    args: Record<string, unknown>,
    request: { stream: boolean },
    options: CallOptions = {},
  ): HttpRequest {
    const method = request.stream ? "streamRequest" : "request";
    const built = this.#run(
      { method, functionName, args, options: this.#portable(options) },
      options,
    ) as HttpRequest;
    return { ...built, body: withBodyReaders(built.body) };
  }

  /** Ends the worker thread (a later call starts another). */
  close(): void {
    void this.#thread?.worker.terminate();
    this.#thread?.port.close();
    this.#thread = undefined;
  }

  #run(request: SyncCallRequest, options: CallOptions): unknown {
    const port = this.#start();
    const flag = new Int32Array(new SharedArrayBuffer(4));
    try {
      port.postMessage({ flag, request });
    } catch (error) {
      throw new BamlInvalidArgumentError(
        `${request.functionName}: the sync client could not hand the arguments to its worker thread ` +
          `(${error instanceof Error ? error.message : String(error)}); arguments must be data (no functions ` +
          "or class instances with private state). The async client takes them as they are.",
      );
    }
    Atomics.wait(flag, 0, 0);
    const reply = workerThreads().receiveMessageOnPort(port)?.message as SyncCallReply | undefined;
    if (reply === undefined) throw new Error("the sync client's worker woke it without a reply");
    if ("startup" in reply) {
      this.close();
      throw new Error(
        `The sync client runs calls on a worker thread, which could not load ${this.#entry.url}: ` +
          `${reply.startup}\nUse the async client (\`b\` from baml_client) where worker threads cannot load this package (bundled code).`,
      );
    }
    for (const collector of collectorsOf(options)) for (const log of reply.logs) collector.record(log);
    for (const log of reply.logs) restoreBodyReaders(log);
    if (!reply.ok) throw fromPortableError(reply.error);
    return reply.value;
  }

  #start(): MessagePort {
    if (this.#thread !== undefined) return this.#thread.port;
    const threads = workerThreads();
    const channel = new threads.MessageChannel();
    const worker = new threads.Worker(bootstrap, {
      eval: true,
      workerData: {
        entry: this.#entry.url,
        loader: this.#entry.loader,
        data: {
          port: channel.port2,
          ir: this.#runtime.ir,
          providers: [...(this.#options.providers ?? [])],
          json: this.#options.jsonLogs ?? false,
        },
      },
      transferList: [channel.port2],
    });
    // Neither keeps the process alive: the main thread waits only inside a call.
    worker.unref();
    channel.port1.unref();
    this.#thread = { worker, port: channel.port1 };
    return channel.port1;
  }

  #portable(options: CallOptions): PortableCallOptions {
    const {
      collector,
      tb,
      clientRegistry,
      signal,
      onTick,
      validateOutput,
      env,
      partialIntervalMs: _streamsOnly,
      ...plain
    } = options;
    if (onTick !== undefined) {
      throw new BamlInvalidArgumentError(
        "onTick is not supported for synchronous functions: nothing can run on this thread while the sync " +
          "client waits. Use the async client (`b`) for onTick.",
      );
    }
    if (validateOutput !== undefined) {
      throw new BamlInvalidArgumentError(
        "validateOutput is a function, which the sync client cannot hand to its worker thread; use the async client.",
      );
    }
    // Nothing on this thread can abort while it waits: a signal counts once, before the call.
    if (signal?.aborted) throw new BamlAbortError("Operation was aborted", signal.reason);
    const merged: Environment = { ...this.#options.env, ...env };
    return {
      plain,
      env: Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined)),
      ...(tb === undefined ? {} : { schema: tb.applyTo(this.#runtime.ir) }),
      ...(clientRegistry === undefined
        ? {}
        : { registry: { primary: clientRegistry.primary, clients: clientRegistry.clients } }),
      collect: collector !== undefined,
      logLevel: this.#runtime.getLogLevel(),
    };
  }
}

function collectorsOf(options: CallOptions): Collector[] {
  if (options.collector === undefined) return [];
  return Array.isArray(options.collector) ? options.collector : [options.collector];
}

/** Logged bodies answer `json()` and `text()` again (those helpers do not cross threads). */
function restoreBodyReaders(log: FunctionLog): void {
  for (const call of log.calls) {
    if (call.httpRequest) call.httpRequest.body = withBodyReaders(call.httpRequest.body);
    if (call.httpResponse) call.httpResponse.body = withBodyReaders(call.httpResponse.body);
  }
}
