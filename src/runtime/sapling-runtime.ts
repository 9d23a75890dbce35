import { type Ir, IrIndex, type LlmFunction, loadIr } from "../ir/index.js";
import type { MediaUrlPolicy, OutputMode, ProviderExtension, ReadTextFile } from "../llm/index.js";
import { type ConstraintEvaluator, explainFlags, type Flag } from "../sap/index.js";
import type { CallOptions, ParseRecovery } from "./call-options.js";
import { type CallRecord, type Clock, endCallRecord, startCallRecord } from "./call-record.js";
import { formatCallSummary, summarizeCall } from "./call-summary.js";
import { checkCallOptions } from "./check-call-options.js";
import { resolveClientTree, totalTimeoutMs } from "./client-tree.js";
import type { FunctionLog } from "./collector.js";
import type { Prices } from "./cost.js";
import { createFunctionPipeline } from "./create-function-pipeline.js";
import { defaultReadTextFile } from "./default-read-text-file.js";
import { BamlInvalidArgumentError } from "./errors.js";
import type { Sleep } from "./execute-plan.js";
import type { AnswerContent, FunctionPipeline } from "./function-pipeline.js";
import type { HttpRequest } from "./http-request.js";
import { loadCallPath } from "./load-call-path.js";
import {
  getLogLevel,
  isLogged,
  type LineLevel,
  type LogFields,
  type LogLevel,
  type RuntimeLogger,
} from "./log.js";
import { defaultPriceTable } from "./price-table.js";
import type { Environment } from "./resolve-options.js";
import { createRoundRobinPicker, type RoundRobinPicker } from "./round-robin-picker.js";
import type { CallHost, PreparedCall } from "./run-call.js";
import { SaplingStream } from "./sapling-stream.js";
import { Tracer } from "./tracing.js";
import { validateArguments } from "./validate-arguments.js";

const outputModes: readonly OutputMode[] = ["prompt", "tools", "native"];

export interface RuntimeOptions {
  /** The `fetch` every client uses (default: the global one). */
  fetch?: typeof fetch;
  /** Environment for `env.NAME` in client options and providers' default API keys (default: none). */
  env?: Environment;
  /**
   * Reads credential files given by path (a `vertex-ai` key file in `credentials` or
   * `GOOGLE_APPLICATION_CREDENTIALS`) and the AWS shared files of `aws-bedrock` profiles. Default on
   * Node: `fs.promises.readFile` (relative paths resolve against the working directory); elsewhere none,
   * and a path or profile is refused with a message. `null` reads no file even on Node (as in a browser).
   */
  readTextFile?: ReadTextFile | null;
  /**
   * Provider adapters from entry points of their own, for clients whose provider needs one: `awsBedrock`
   * of `sapling-llm/aws-bedrock` for `aws-bedrock` clients, `vertexAi` of `sapling-llm/vertex-ai` for
   * `vertex-ai` clients (the generated client passes them when its .baml declares one). A client whose adapter is missing fails with a message saying what to pass.
   */
  providers?: readonly ProviderExtension[];
  /**
   * Which media URLs calls may use, and how much of one they may download. Without it every URL is used
   * (as in BAML) within the default limits (32 MiB, 30 s, 5 redirects). A server that takes arguments from
   * others sets `allowedHosts` (and `resolveHost`, so hosts matched by a pattern are checked against
   * private addresses after DNS): `sapling serve` and `sapling dev` do, from `--allow-media-host`.
   */
  mediaUrls?: MediaUrlPolicy;
  /** Waits between retries (default: a timer; tests inject an instant one). */
  sleep?: Sleep;
  /** Wall clock for Collector timings (default `Date.now`). */
  clock?: Clock;
  /**
   * Receives log lines at or above `logLevel`: one `info` line per call (function, client, status,
   * latency, tokens, cost, repairs), `warn` per failed attempt, `debug` per attempt with its rendered
   * prompt and raw answer (secrets removed). Silent by default; the generated client passes a console
   * logger and the level of `BAML_LOG`.
   */
  logger?: RuntimeLogger;
  /**
   * This runtime's own level; `runtime.setLogLevel` changes it later. Without it the runtime follows the
   * process's level (the package's `setLogLevel`, default `info` as in BAML).
   */
  logLevel?: LogLevel;
  /**
   * Prices (US dollars per million tokens) by model id, over the shipped table (`defaultPriceTable`):
   * an entry adds a model or replaces the shipped price of one.
   */
  prices?: Prices;
  /**
   * Evaluates `@check`/`@assert` expressions when `parse`, `parseStream` or `explain` read a type that has
   * them: `evaluateConstraint` of `sapling-llm/constraints` (the generated client passes it when its .baml
   * declares constraints). Calls do not need it: the prompt room they load brings the same evaluator. Without
   * it, parsing such a type without a call throws `BamlInvalidArgumentError` saying what to pass.
   */
  constraintEvaluator?: ConstraintEvaluator;
  /** Picks a round-robin client's first child when it has no `start` (default random, as in BAML). */
  random?: () => number;
  /** Default opt-in parse recovery for every call (calls may override it). */
  parseRecovery?: ParseRecovery;
}

/**
 * Runs the functions of one project: render the prompt, call the model (retries, fallback, round-robin),
 * parse the answer into the declared type. What generated clients call; usable directly with an IR.
 *
 * ```ts
 * const runtime = SaplingRuntime.fromIr(ir, { env: process.env });
 * const resume = await runtime.call("ExtractResume", { text });
 * ```
 */
export class SaplingRuntime {
  readonly #ir: Ir;
  readonly #index: IrIndex;
  readonly #fetch: typeof fetch;
  #env: Environment;
  readonly #readTextFile: ReadTextFile | undefined;
  /** The injected `sleep`; calls default to a timer (execute-plan.ts), streams pace with their own. */
  readonly #sleep: Sleep | undefined;
  readonly #clock: Clock;
  readonly #logger: RuntimeLogger | undefined;
  #logLevel: LogLevel | undefined;
  readonly #warned = new Set<string>();
  readonly #prices: Prices;
  readonly #tracer: Tracer;
  readonly #picker: RoundRobinPicker;
  readonly #parseRecovery: ParseRecovery;
  readonly #options: RuntimeOptions;

  private constructor(ir: Ir, options: RuntimeOptions) {
    this.#options = options;
    this.#ir = ir;
    this.#index = new IrIndex(ir);
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#env = options.env ?? {};
    this.#readTextFile =
      options.readTextFile === null ? undefined : (options.readTextFile ?? defaultReadTextFile());
    this.#sleep = options.sleep;
    this.#clock = options.clock ?? Date.now;
    this.#logger = options.logger;
    this.#logLevel = options.logLevel;
    this.#prices = { ...defaultPriceTable.models, ...options.prices };
    this.#tracer = new Tracer(this.#clock, (error) =>
      this.#log(
        "warn",
        `onLogEvent callback failed: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
    const random = options.random ?? Math.random;
    this.#picker = createRoundRobinPicker((count) => Math.floor(random() * count));
    this.#parseRecovery = options.parseRecovery ?? {};
  }

  /** A runtime for serialized IR (parsed JSON or a JSON string), checked with `loadIr`. */
  static fromIr(ir: unknown, options: RuntimeOptions = {}): SaplingRuntime {
    return new SaplingRuntime(loadIr(ir), options);
  }

  /**
   * The same runtime over another `fetch` (its environment, clock, logger and readers kept). Provider
   * batch APIs use it to read a batch's downloaded answers through the normal call path: the provider's
   * response decoding, parsing, checks and the Collector.
   */
  withFetch(fetch: typeof globalThis.fetch): SaplingRuntime {
    return new SaplingRuntime(this.#ir, { ...this.#options, env: this.#env, fetch });
  }

  /** The project's IR. */
  get ir(): Ir {
    return this.#ir;
  }

  /**
   * Replaces the environment calls read from now on (`env.NAME` in client options, providers' default
   * keys); calls already running keep theirs. BAML's `resetBamlEnvVars` (generated `globals.ts`) calls it.
   */
  resetEnv(env: Environment): void {
    this.#env = { ...env };
  }

  /**
   * Spans and log events of this runtime's calls: `traceAsync`, `traceSync`, `setTags`, `flush`,
   * `onLogEvent` (the generated client's `tracing.ts`), and `addExporter` for span exporters.
   */
  get tracing(): Tracer {
    return this.#tracer;
  }

  /** BAML's `setLogLevel`: the level of the lines the logger receives from now on. */
  setLogLevel(level: LogLevel): void {
    this.#logLevel = level;
  }

  /** The level this runtime logs at: its own, else the process's (`getLogLevel` of the package). */
  getLogLevel(): LogLevel {
    return this.#logLevel ?? getLogLevel();
  }

  /**
   * Runs `functionName` and resolves its parsed return value. With `onTick`, the answer is streamed (as
   * BAML does) so that `onTick` sees it arrive; the value is the same.
   */
  async call(
    functionName: string,
    args: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<unknown> {
    const prepared = this.#prepare(functionName, args, options);
    const record = this.#startRecord(prepared, options, options.onTick === undefined ? "call" : "stream");
    const callPath = await this.#loadCallPath(prepared, record);
    return callPath.runCall(this.#host(), prepared, record, options);
  }

  /** Streams `functionName`: partial values while the answer arrives, then the final value. */
  stream(
    functionName: string,
    args: Record<string, unknown>,
    options: CallOptions = {},
  ): SaplingStream<unknown, unknown> {
    return new SaplingStream(
      (sink) => {
        const prepared = this.#prepare(functionName, args, options);
        // The consumer stopping (`break`, a cancelled response) ends the call as the caller's signal does.
        const signal = options.signal ? AbortSignal.any([options.signal, sink.signal]) : sink.signal;
        const record = this.#startRecord(prepared, options, "stream");
        return this.#loadCallPath(prepared, record).then((callPath) =>
          callPath.runCall(this.#host(), prepared, record, { ...options, signal }, (read) =>
            sink.offer(read),
          ),
        );
      },
      {
        partialIntervalMs: options.partialIntervalMs,
        clock: this.#clock,
        ...(this.#sleep === undefined ? {} : { sleep: this.#sleep }),
      },
    );
  }

  /**
   * The HTTP request the call would send first (to its first client), API key included, as `b.request.Fn`:
   * for sending it yourself (batch APIs, other SDKs). Round-robin clients advance as for a call.
   */
  async buildRequest(
    functionName: string,
    args: Record<string, unknown>,
    request: { stream: boolean },
    options: CallOptions = {},
  ): Promise<HttpRequest> {
    const prepared = this.#prepare(functionName, args, options);
    return (await loadCallPath(prepared.client)).buildCallRequest(this.#host(), prepared, request, options);
  }

  /** Parses a complete answer into the function's return type (`b.parse.Fn`); synchronous. */
  parse(functionName: string, text: string, options: Pick<CallOptions, "tb"> = {}): unknown {
    const { ir, index, fn } = this.#resolveFunction(functionName, options);
    return this.#parsePipeline(ir, index, fn).parseFinal(text, []).value;
  }

  /**
   * Like `parse`, and also says how the answer was read: every repair with its path, and a readable
   * account of them (a Sapling addition; `sapling parse --explain` prints the same text). A whole answer
   * with its tool calls and an `outputMode` read a recorded answer as a call in that mode did.
   */
  explain(
    functionName: string,
    answer: string | AnswerContent,
    options: Pick<CallOptions, "tb" | "outputMode"> = {},
  ): { value: unknown; repairs: readonly Flag[]; explanation: string } {
    const { ir, index, fn } = this.#resolveFunction(functionName, options);
    const pipeline = this.#parsePipeline(ir, index, fn);
    // An answer recorded in tools or native mode is read as that mode reads it (tool calls, the wrapper).
    const plan = options.outputMode === undefined ? undefined : pipeline.outputPlan(options.outputMode);
    const { value, repairs } = pipeline.parseFinal(answer, [], plan);
    return { value, repairs, explanation: explainFlags({ flags: repairs }) };
  }

  /** Parses a partial answer into the function's partial type (`b.parseStream.Fn`); synchronous. */
  parseStream(functionName: string, text: string, options: Pick<CallOptions, "tb"> = {}): unknown {
    const { ir, index, fn } = this.#resolveFunction(functionName, options);
    return this.#parsePipeline(ir, index, fn).parsePartial(text);
  }

  /** The pipeline of a parse without a call: constraints need the evaluator the runtime was given. */
  #parsePipeline(ir: Ir, index: IrIndex, fn: LlmFunction): FunctionPipeline {
    return createFunctionPipeline(ir, index, fn, { constraintEvaluator: this.#options.constraintEvaluator });
  }

  /** The function and the IR it runs against (extended by the call's TypeBuilder, if any). */
  #resolveFunction(
    functionName: string,
    options: Pick<CallOptions, "tb">,
  ): { ir: Ir; index: IrIndex; fn: LlmFunction } {
    const ir = options.tb ? options.tb.applyTo(this.#ir) : this.#ir;
    const index = options.tb ? new IrIndex(ir) : this.#index;
    const fn = index.functions.get(functionName);
    if (!fn) {
      const known = [...index.functions.keys()].sort().join(", ") || "none";
      throw new BamlInvalidArgumentError(
        `Unknown function "${functionName}". Functions in this project: ${known}.`,
      );
    }
    return { ir, index, fn };
  }

  #log(level: LineLevel, message: string, fields?: LogFields): void {
    if (this.#logger !== undefined && isLogged(this.getLogLevel(), level))
      this.#logger(level, message, fields);
  }

  #prepare(functionName: string, args: Record<string, unknown>, options: CallOptions): PreparedCall {
    checkCallOptions(options, (name, message) => {
      if (this.#warned.has(name)) return;
      this.#warned.add(name);
      this.#log("warn", message, { option: name });
    });
    const { ir, index, fn } = this.#resolveFunction(functionName, options);
    validateArguments(fn, args, index);
    const env = { ...this.#env, ...options.env };
    const clientName = options.client ?? options.clientRegistry?.primary ?? fn.client;
    const tree = resolveClientTree(clientName, index, options.clientRegistry);
    const pipeline = createFunctionPipeline(ir, index, fn, {
      args,
      tags: this.#callTags(options),
      constraintEvaluator: this.#options.constraintEvaluator,
    });
    // A call's output mode that cannot serve the return type fails before any client is tried.
    if (options.outputMode !== undefined) {
      if (!outputModes.includes(options.outputMode)) {
        throw new BamlInvalidArgumentError(
          `outputMode must be one of ${outputModes.map((mode) => `"${mode}"`).join(", ")}, got ${JSON.stringify(options.outputMode)}.`,
        );
      }
      pipeline.outputPlan(options.outputMode);
    }
    return {
      fn,
      client: { name: tree.client.name, provider: tree.client.provider },
      totalTimeoutMs: totalTimeoutMs(tree),
      env,
      pipeline,
      tree,
      picker: this.#picker,
    };
  }

  /** What a call takes from this runtime (run-call.ts). */
  #host(): CallHost {
    return {
      fetch: this.#fetch,
      readTextFile: this.#readTextFile,
      providers: this.#options.providers,
      mediaUrls: this.#options.mediaUrls,
      sleep: this.#sleep,
      prices: this.#prices,
      parseRecovery: this.#parseRecovery,
      logs: (level) => this.#logger !== undefined && isLogged(this.getLogLevel(), level),
      log: (level, message, fields) => this.#log(level, message, fields),
      logSummary: (log) => this.#logSummary(log),
    };
  }

  /**
   * A call's record, started as the call starts (before its call path loads): its log is in the call's
   * collectors, and its span opens under the caller's context (call-record.ts).
   */
  #startRecord(prepared: PreparedCall, options: CallOptions, logType: "call" | "stream"): CallRecord {
    const parent = this.#tracer.current();
    return startCallRecord(
      { functionName: prepared.fn.name, logType, tags: this.#callTags(options) },
      options.collector === undefined ? [] : [options.collector].flat(),
      this.#clock,
      { tracer: this.#tracer, ...(parent === undefined ? {} : { parent }) },
    );
  }

  /** The call path; a call whose call path cannot load ends its record with the error it rejects with. */
  async #loadCallPath(prepared: PreparedCall, record: CallRecord): Promise<typeof import("./run-call.js")> {
    try {
      return await loadCallPath(prepared.client);
    } catch (error) {
      endCallRecord(record, { error: error instanceof Error ? error.message : String(error) });
      this.#logSummary(record.log);
      throw error;
    }
  }

  /** The `info` line of a call (the same summary `sapling call` and `sapling serve` show). */
  #logSummary(log: FunctionLog): void {
    if (this.#logger === undefined || !isLogged(this.getLogLevel(), "info")) return;
    const summary = summarizeCall(log);
    this.#log("info", formatCallSummary(summary), {
      event: "call",
      ...summary,
      ...(log.error === null ? {} : { error: log.error }),
    });
  }

  /** The call's tags: those set with `setTags` around it, then its own. */
  #callTags(options: CallOptions): Record<string, string> {
    return { ...this.#tracer.currentTags(), ...options.tags };
  }
}
