import type { FunctionLog } from "./collector.js";

/**
 * The facts every report of a call shares — the info log line, `sapling call`'s summary on stderr,
 * `sapling serve`'s `x-sapling-*` headers, envelope and access log — read from the call's `FunctionLog` in
 * one place so they never disagree.
 */
export interface CallSummary {
  functionName: string;
  /** The client whose answer was used (else the last one tried), `null` when none was reached. */
  client: string | null;
  model: string | null;
  status: "ok" | "error";
  latencyMs: number | null;
  /** How many HTTP attempts the call made (retries, fallbacks, re-asks). */
  attempts: number;
  inputTokens: number | null;
  outputTokens: number | null;
  cachedInputTokens: number | null;
  cacheWriteInputTokens: number | null;
  reasoningTokens: number | null;
  costUsd: number | null;
  /** How many repairs the parser made to the answer used. */
  repairs: number;
  truncated: boolean;
}

export function summarizeCall(log: FunctionLog): CallSummary {
  const used = log.selectedCall ?? log.calls.at(-1) ?? null;
  return {
    functionName: log.functionName,
    client: used?.clientName ?? null,
    model: used?.model ?? null,
    status: log.error === null ? "ok" : "error",
    latencyMs: log.timing.durationMs,
    attempts: log.calls.length,
    inputTokens: log.usage.inputTokens,
    outputTokens: log.usage.outputTokens,
    cachedInputTokens: log.usage.cachedInputTokens,
    cacheWriteInputTokens: log.usage.cacheWriteInputTokens,
    reasoningTokens: log.usage.reasoningTokens,
    costUsd: log.costUsd,
    repairs: log.repairs.length,
    truncated: log.truncated,
  };
}

/** `$0.000412`, or `unknown` without a price. */
export function formatCost(costUsd: number | null): string {
  if (costUsd === null) return "unknown";
  return `$${
    costUsd === 0
      ? "0"
      : costUsd
          .toPrecision(3)
          .replace(/(\.\d*?)0+$/, "$1")
          .replace(/\.$/, "")
  }`;
}

/** `120 in (100 cached, 6 cache write) / 40 out (30 reasoning)`. */
export function formatTokens(summary: CallSummary): string {
  const count = (value: number | null) => (value === null ? "?" : String(value));
  const parts = (entries: [number | null, string][]) => {
    const shown = entries
      .filter(([value]) => value !== null && value > 0)
      .map(([value, name]) => `${value} ${name}`);
    return shown.length === 0 ? "" : ` (${shown.join(", ")})`;
  };
  return `${count(summary.inputTokens)} in${parts([
    [summary.cachedInputTokens, "cached"],
    [summary.cacheWriteInputTokens, "cache write"],
  ])} / ${count(summary.outputTokens)} out${parts([[summary.reasoningTokens, "reasoning"]])}`;
}

/** One line: `ExtractResume ok client=GPT4o latency=812ms tokens=… cost=$0.00041 repairs=2`. */
export function formatCallSummary(summary: CallSummary): string {
  return `${summary.functionName} ${summary.status} ${formatCallFacts(summary)}`;
}

/** The facts of the line without the function and status (the access log's suffix). */
export function formatCallFacts(summary: CallSummary): string {
  const fields = [
    `client=${summary.client ?? "none"}`,
    ...(summary.model === null ? [] : [`model=${summary.model}`]),
    `latency=${summary.latencyMs ?? "?"}ms`,
    ...(summary.attempts > 1 ? [`attempts=${summary.attempts}`] : []),
    `tokens=${formatTokens(summary)}`,
    `cost=${formatCost(summary.costUsd)}`,
    `repairs=${summary.repairs}`,
  ];
  return fields.join(" ");
}
