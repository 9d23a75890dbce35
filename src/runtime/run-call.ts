/**
 * A call's run, loaded with `import()` on its first call, with the attempt that runs in it (run-attempt.ts):
 * the attempts in their plan with retries and fallback (execute-plan.ts), the call's deadline, what the
 * Collector and the log receive, and `b.request`'s request built without sending it. A page that only
 * parses never loads them (docs/decisions/0043-lazy-call-path.md, 0048-lazy-prompt-renderer.md).
 */
import type { LlmFunction } from "../ir/index.js";
import {
  type EnvOptionValue,
  LlmError,
  loadLanguageModel,
  type MediaUrlPolicy,
  type ProviderExtension,
  type ReadTextFile,
  withRequestSecrets,
} from "../llm/index.js";
import type { StreamPush } from "../sap/index.js";
import { CallDeadline } from "./call-deadline.js";
import type { CallOptions, ParseRecovery } from "./call-options.js";
import type { CallRecord } from "./call-record.js";
import { CallRecorder } from "./call-recorder.js";
import type { ClientTree } from "./client-tree.js";
import type { FunctionLog } from "./collector.js";
import type { Prices } from "./cost.js";
import { BamlInvalidArgumentError } from "./errors.js";
import { defaultSleep, executePlan, type Sleep } from "./execute-plan.js";
import type { FunctionPipeline } from "./function-pipeline.js";
import { type HttpRequest, toHttpRequest } from "./http-request.js";
import type { LineLevel, LogFields } from "./log.js";
import { mapLlmError } from "./map-llm-error.js";
import { withOutput } from "./output-request.js";
import { planAttempts } from "./plan-attempts.js";
import { clientSecrets, type Environment, resolveOptions } from "./resolve-options.js";
import type { RoundRobinPicker } from "./round-robin-picker.js";
import { runAttempt } from "./run-attempt.js";

/** Everything one call needs, resolved (and checked) before the call path loads. */
export interface PreparedCall {
  fn: LlmFunction;
  /** The client the call starts from (named in timeout errors). */
  client: { name: string; provider: string };
  totalTimeoutMs: number | undefined;
  env: Environment;
  pipeline: FunctionPipeline;
  /** The client tree the call starts from, and the runtime's round-robin picker (planned per call). */
  tree: ClientTree;
  picker: RoundRobinPicker;
}

/** What a call takes from the runtime that runs it. */
export interface CallHost {
  fetch: typeof fetch;
  readTextFile: ReadTextFile | undefined;
  providers: readonly ProviderExtension[] | undefined;
  mediaUrls: MediaUrlPolicy | undefined;
  /** Waits between retries (default: a timer). */
  sleep: Sleep | undefined;
  prices: Prices;
  parseRecovery: ParseRecovery;
  /** Whether a line of `level` reaches a logger. */
  logs(level: LineLevel): boolean;
  log(level: LineLevel, message: string, fields?: LogFields): void;
  /** Logs the `info` line of a call that ended. */
  logSummary(log: FunctionLog): void;
}

/** Runs a prepared call: its attempts in plan order, recorded for the Collector and the log. */
export async function runCall(
  host: CallHost,
  prepared: PreparedCall,
  record: CallRecord,
  options: CallOptions,
  onText?: (read: () => StreamPush) => void,
): Promise<unknown> {
  const recorder = new CallRecorder(record, host.prices);
  const onTick = options.onTick;
  const debug = host.logs("debug");
  const recovery: ParseRecovery = {
    reask: options.parseRecovery?.reask ?? host.parseRecovery.reask,
    nextClient: options.parseRecovery?.nextClient ?? host.parseRecovery.nextClient,
  };
  const deadline = new CallDeadline(
    options.signal,
    prepared.totalTimeoutMs,
    prepared.client.name,
    prepared.client.provider,
  );
  const signal = deadline.signal;
  try {
    const value = await executePlan(
      planAttempts(prepared.tree, prepared.picker),
      async (attempt, position) => {
        host.log("debug", `${prepared.fn.name}: attempt ${position + 1} with client ${attempt.client.name}`, {
          function: prepared.fn.name,
          attempt: position + 1,
          client: attempt.client.name,
        });
        return runAttempt(
          attempt.client,
          {
            pipeline: prepared.pipeline,
            env: prepared.env,
            fetch: host.fetch,
            ...(host.readTextFile === undefined ? {} : { readTextFile: host.readTextFile }),
            ...(host.providers === undefined ? {} : { providers: host.providers }),
            ...(host.mediaUrls === undefined ? {} : { mediaUrls: host.mediaUrls }),
            recorder,
            reaskOnParseFailure: Math.max(0, Math.floor(recovery.reask ?? 0)),
            ...(options.validateOutput === undefined ? {} : { validateOutput: options.validateOutput }),
            ...(signal ? { signal } : {}),
            ...(onText ? { onText } : {}),
            ...(options.outputMode === undefined ? {} : { outputMode: options.outputMode }),
            onUnusedToolCalls: (clientName, names) =>
              host.log(
                "warn",
                `${prepared.fn.name}: client ${clientName} answered with ${names.length + 1} tool calls; the return type holds one, so the first is the value and ${names.join(", ")} ${names.length === 1 ? "is" : "are"} recorded in the Collector (toolCalls, used: false).`,
              ),
            ...(onTick
              ? {
                  onTick: () => onTick("Unknown", recorder.log),
                  onTickError: (error: unknown) =>
                    host.log(
                      "warn",
                      `onTick callback for ${prepared.fn.name} failed: ${error instanceof Error ? error.message : String(error)}`,
                    ),
                }
              : {}),
            ...(debug
              ? {
                  debug: (message: string, fields: LogFields) =>
                    host.log("debug", `${prepared.fn.name}: ${message}`, {
                      function: prepared.fn.name,
                      ...fields,
                    }),
                }
              : {}),
          },
          record.log.logType === "stream",
        );
      },
      {
        sleep: host.sleep ?? defaultSleep,
        nextClientOnParseFailure: recovery.nextClient === true,
        onFailure: (attempt, error) =>
          host.log(
            "warn",
            `${prepared.fn.name}: client ${attempt.client.name} failed (${error.code}): ${error.message}`,
            { function: prepared.fn.name, client: attempt.client.name, code: error.code },
          ),
        ...(signal ? { signal } : {}),
      },
    );
    recorder.finish({ value });
    host.logSummary(recorder.log);
    return value;
  } catch (caught) {
    const error = deadline.translate(caught);
    // Client errors are already redacted; anything else (a template error) carries no secret.
    recorder.finish({ error: error instanceof Error ? error.message : String(error) });
    host.logSummary(recorder.log);
    throw error;
  } finally {
    deadline.dispose();
  }
}

/** The HTTP request the call would send first (to its first client), API key included (`b.request.Fn`). */
export async function buildCallRequest(
  host: CallHost,
  prepared: PreparedCall,
  request: { stream: boolean },
  options: CallOptions,
): Promise<HttpRequest> {
  const first = planAttempts(prepared.tree, prepared.picker)[0];
  if (!first) throw new BamlInvalidArgumentError(`${prepared.fn.name} has no client to build a request for.`);
  const client = first.client;
  const fromEnv: EnvOptionValue[] = [];
  let secrets: string[] = [];
  try {
    const resolved = resolveOptions(client, prepared.env, fromEnv);
    secrets = clientSecrets(client.provider, resolved, fromEnv, prepared.env);
    const model = await loadLanguageModel(client.provider, resolved, {
      fetch: host.fetch,
      env: prepared.env,
      ...(host.readTextFile === undefined ? {} : { readTextFile: host.readTextFile }),
      ...(host.providers === undefined ? {} : { providers: host.providers }),
      ...(host.mediaUrls === undefined ? {} : { mediaUrls: host.mediaUrls }),
    });
    const mode = options.outputMode ?? model.outputMode ?? "prompt";
    const plan = prepared.pipeline.outputPlan(mode);
    const messages = await prepared.pipeline.render(
      { name: client.name, provider: client.provider, defaultRole: model.defaultRole },
      plan,
    );
    const built = await model.buildRequest(messages, {
      stream: request.stream,
      ...withOutput(plan),
    });
    // `redactRequest` masks this call's secrets by value, whatever the headers are called.
    return withRequestSecrets(toHttpRequest(built), secrets);
  } catch (error) {
    // The same errors as a call (`BamlClientOptionsError`, `BamlMediaUrlError`, …), secrets removed.
    if (!LlmError.isInstance(error)) throw error;
    throw mapLlmError(error, client.name, client.provider, secrets);
  }
}
