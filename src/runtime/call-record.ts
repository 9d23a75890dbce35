import { type Collector, costOfCalls, emptyUsage, type FunctionLog } from "./collector.js";
import type { SpanRecord, Tracer } from "./tracing.js";

/** A clock: milliseconds since the epoch. Injected so durations are testable. */
export type Clock = () => number;

let sequence = 0;

/** A log id unique within the process and sortable by creation. */
function nextId(clock: Clock): string {
  sequence += 1;
  return `${clock().toString(36)}-${sequence.toString(36)}`;
}

/** The function call a record logs: its name, whether it streams, and the caller's tags. */
export interface RecordedFunction {
  functionName: string;
  logType: "call" | "stream";
  tags: Record<string, string>;
}

/** A started call's `FunctionLog` (in its collectors already) and its span, if the tracer is active. */
export interface CallRecord {
  readonly log: FunctionLog;
  readonly clock: Clock;
  readonly tracer: Tracer | undefined;
  readonly span: SpanRecord | undefined;
}

/**
 * Starts a call's record when the call starts, before anything loads: its `FunctionLog` goes into every
 * collector of the call, and its span opens under `parent` while the caller's context is still active
 * (an OpenTelemetry exporter reads the application's active span then). The rest of the record is
 * `CallRecorder`'s, on the call path (docs/decisions/0048-lazy-prompt-renderer.md).
 */
export function startCallRecord(
  { functionName, logType, tags }: RecordedFunction,
  collectors: readonly Collector[],
  clock: Clock,
  observers: { tracer?: Tracer; parent?: SpanRecord } = {},
): CallRecord {
  const log: FunctionLog = {
    id: nextId(clock),
    functionName,
    logType,
    timing: { startTimeUtcMs: clock(), durationMs: null },
    usage: emptyUsage(),
    calls: [],
    selectedCall: null,
    rawLlmResponse: null,
    tags: { ...tags },
    error: null,
    repairs: [],
    truncated: false,
    incompleteFields: [],
    toolCalls: [],
    costUsd: null,
  };
  for (const collector of collectors) collector.record(log);
  const tracer = observers.tracer?.active ? observers.tracer : undefined;
  const span = tracer?.startSpan("function", functionName, observers.parent, {
    tags: log.tags,
    functionLog: log,
  });
  return { log, clock, tracer, span };
}

/**
 * Ends a call's record: its duration, error and cost, and its span (with `prompt`, the prompt of the answer
 * used). `CallRecorder.finish` ends it so, and so does a call whose call path could not be loaded.
 */
export function endCallRecord(
  record: CallRecord,
  outcome: { value: unknown } | { error: string },
  prompt?: string,
): void {
  const log = record.log;
  log.timing.durationMs = record.clock() - log.timing.startTimeUtcMs;
  if ("error" in outcome) log.error = outcome.error;
  log.costUsd = costOfCalls(log.calls);
  if (record.tracer === undefined || record.span === undefined) return;
  record.tracer.endSpan(record.span, {
    ...("error" in outcome ? { error: outcome.error } : { output: outcome.value }),
    ...(prompt === undefined ? {} : { prompt }),
    rawOutput: log.rawLlmResponse,
  });
}
