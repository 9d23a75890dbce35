import type { EvalRecord, EvalRepair } from "./eval-record.js";

/** A parser flag as a record keeps it. */
export function toRepair(flag: {
  kind: string;
  path: string;
  span?: { start: number; end: number };
}): EvalRepair {
  return flag.span
    ? { kind: flag.kind, path: flag.path, span: { start: flag.span.start, end: flag.span.end } }
    : { kind: flag.kind, path: flag.path };
}

/** What replaying needs of a runtime: `SaplingRuntime.explain`. */
export interface ReplayRuntime {
  explain(
    functionName: string,
    answer: { text: string; toolCalls: { id: string | undefined; name: string; arguments: string }[] },
    options: { outputMode: EvalRecord["mode"] },
  ): {
    value: unknown;
    repairs: readonly { kind: string; path: string; span?: { start: number; end: number } }[];
  };
}

/**
 * A recorded row read again by today's parser and schema, without a model: the value, the error and the
 * repairs are new; tokens, latency, cost and the calls made are the recording's. A row whose only call
 * answered has its first-call figure re-judged too; with several calls the recording's stands (the
 * earlier answers were not the ones recorded).
 */
export function replayRecord(runtime: ReplayRuntime, functionName: string, record: EvalRecord): EvalRecord {
  if (record.text === null && record.toolCalls.length === 0) return record; // no answer to read again
  const answer = {
    text: record.text ?? "",
    toolCalls: record.toolCalls.map((call) => ({
      id: undefined,
      name: call.name,
      arguments: call.arguments,
    })),
  };
  const { value: _value, error: _error, ...rest } = record;
  try {
    const { value, repairs } = runtime.explain(functionName, answer, { outputMode: record.mode });
    return {
      ...rest,
      ok: true,
      value,
      repairs: repairs.map(toRepair),
      firstCallParsed: record.calls === 1 ? true : record.firstCallParsed,
    };
  } catch (error) {
    return {
      ...rest,
      ok: false,
      error: {
        type: error instanceof Error ? error.name : "Error",
        message: error instanceof Error ? error.message : String(error),
      },
      repairs: [],
      firstCallParsed: record.calls === 1 ? false : record.firstCallParsed,
    };
  }
}
