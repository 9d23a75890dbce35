/**
 * One row's outcome in one cell (client × output mode), as `sapling eval` records it: everything the
 * report needs, including the raw answer, so that a recorded eval can be re-scored without a model.
 */

/** How structured output is asked for (docs/decisions/0013). */
export type EvalMode = "prompt" | "tools" | "native";

export const evalModes: readonly EvalMode[] = ["prompt", "tools", "native"];

/** A cell of the matrix: one client in one output mode. */
export interface EvalCell {
  client: string;
  mode: EvalMode;
}

/** The cell's key in records and reports: `client · mode`. */
export function cellKey(cell: EvalCell): string {
  return `${cell.client} · ${cell.mode}`;
}

/** A parser repair: its kind, the value path, and the characters of the answer it read (when known). */
export interface EvalRepair {
  kind: string;
  path: string;
  span?: { start: number; end: number };
}

export interface EvalRecord {
  client: string;
  mode: EvalMode;
  /** The dataset row's id. */
  id: string;
  ok: boolean;
  /** The parsed value (absent when the row failed). */
  value?: unknown;
  /** Why the row failed: the error class and message. */
  error?: { type: string; message: string };
  /** The selected (or last) answer's text; `null` when no answer arrived. */
  text: string | null;
  /** The answer's native tool calls (tools mode, or a forced tool in native mode). */
  toolCalls: { name: string; arguments: string }[];
  /** Every repair the parser made (`FromFence`, `StringToInt`, …), with where it applies. */
  repairs: EvalRepair[];
  /** Whether the first model call's answer parsed; `null` when the first call brought no answer. */
  firstCallParsed: boolean | null;
  /** Model calls made for the row (retries and fallbacks included). */
  calls: number;
  inputTokens: number | null;
  outputTokens: number | null;
  /** Tokens the mode's schema adds to the request (`ctx.output_format`, or the tools / JSON Schema). */
  schemaTokens: number | null;
  /** Milliseconds from the call to its value or error. */
  latencyMs: number;
  /** US dollars from the price table; `null` when the model has no price. */
  costUsd: number | null;
  /** Whether the answer was cut (the token limit, or it ended inside a value). */
  truncated: boolean;
}

/** The answer text a baseline reads: the first tool call's arguments when there is one, else the text. */
export function answerText(record: Pick<EvalRecord, "text" | "toolCalls">): string | null {
  return record.toolCalls[0]?.arguments ?? record.text;
}
