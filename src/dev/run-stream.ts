import { Collector, type FunctionLog, type LlmCall, type SaplingRuntime } from "../runtime/index.js";
import { describeFailure } from "../server/index.js";
import type { DevAttemptView, DevCheckView, DevRunEvents } from "./dev-api.js";
import { serverSentEvent } from "./server-sent-event.js";

/** Prices a finished call in dollars, or `null` when no table knows its model (the cost table's seam). */
export type DevCostEstimator = (log: FunctionLog) => number | null;

/**
 * A streaming run as server-sent events: `partial` (the raw text so far beside the typed partial) while the
 * answer arrives, then `final` (value, `@check` results, repairs, latency, tokens, cost, every attempt of
 * the retry/fallback chain) or `error` (message, the raw answer when there was one, the attempts).
 * Closing the response stops the model call.
 */
export function runStream(options: {
  runtime: SaplingRuntime;
  functionName: string;
  args: Record<string, unknown>;
  client?: string;
  signal: AbortSignal;
  estimateCost?: DevCostEstimator;
  onEnd?: () => void;
}): Response {
  const collector = new Collector("sapling-dev");
  const controller = new AbortController();
  const signal = AbortSignal.any([options.signal, controller.signal]);
  const running = options.runtime.stream(options.functionName, options.args, {
    collector,
    signal,
    ...(options.client ? { client: options.client } : {}),
  });
  const iterator = running[Symbol.asyncIterator]();
  const send = <Name extends keyof DevRunEvents>(name: Name, data: DevRunEvents[Name]) =>
    serverSentEvent(name, data);
  const raw = (): string => collector.last?.calls.at(-1)?.rawText ?? "";
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    options.onEnd?.();
  };
  const body = new ReadableStream<Uint8Array>({
    pull: async (output) => {
      try {
        const step = await iterator.next();
        if (!step.done) {
          output.enqueue(send("partial", { raw: raw(), value: step.value }));
          return;
        }
        const log = collector.last;
        const value = await running.getFinalResponse();
        output.enqueue(
          send("final", {
            raw: log?.rawLlmResponse ?? raw(),
            value,
            checks: collectChecks(value),
            repairs: (log?.repairs ?? []).map((flag) => ({ ...flag, span: flag.span ?? null })),
            latencyMs: log?.timing.durationMs ?? null,
            usage: {
              inputTokens: log?.usage.inputTokens ?? null,
              outputTokens: log?.usage.outputTokens ?? null,
            },
            // The Collector's cost, from the runtime's price table (null for a model it has no price for).
            cost: log ? (options.estimateCost ? options.estimateCost(log) : log.costUsd) : null,
            attempts: attemptsOf(log),
          }),
        );
      } catch (error) {
        const failure = describeFailure(error);
        const log = collector.last;
        output.enqueue(
          send("error", {
            message: failure.message,
            code: failure.code,
            raw: failure.raw_output ?? log?.rawLlmResponse ?? null,
            attempts: attemptsOf(log),
          }),
        );
      }
      output.close();
      end();
    },
    cancel: () => {
      controller.abort(new Error("the page stopped the run"));
      end();
    },
  });
  return new Response(body, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
  });
}

function attemptsOf(log: FunctionLog | null): DevAttemptView[] {
  return (log?.calls ?? []).map((call: LlmCall) => ({
    client: call.clientName,
    provider: call.provider,
    status: call.httpResponse?.status ?? null,
    error: call.error,
    durationMs: call.timing.durationMs,
    usage: call.usage ? { inputTokens: call.usage.inputTokens, outputTokens: call.usage.outputTokens } : null,
    selected: call.selected,
    finishReason: call.finishReason,
  }));
}

/**
 * Every `@check` result in a value: the runtime wraps a checked value as BAML's `Checked<T>`,
 * `{ value, checks: { label: { name, expr, status } } }`, wherever the type declares checks.
 */
export function collectChecks(value: unknown, path = "$"): DevCheckView[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => collectChecks(item, `${path}[${index}]`));
  if (typeof value !== "object" || value === null) return [];
  const record = value as Record<string, unknown>;
  if (isChecked(record)) {
    const own = Object.values(
      record.checks as Record<string, { name: string; expr: string; status: string }>,
    ).map((check) => ({
      path,
      name: check.name,
      expression: check.expr,
      passed: check.status === "succeeded",
    }));
    return [...own, ...collectChecks(record.value, path)];
  }
  return Object.entries(record).flatMap(([key, item]) => collectChecks(item, `${path}.${key}`));
}

function isChecked(record: Record<string, unknown>): boolean {
  const keys = Object.keys(record);
  if (
    keys.length !== 2 ||
    !("value" in record) ||
    typeof record.checks !== "object" ||
    record.checks === null
  )
    return false;
  return Object.values(record.checks).every(
    (check) => typeof check === "object" && check !== null && "expr" in check && "status" in check,
  );
}
