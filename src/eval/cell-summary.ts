/**
 * Aggregates of one cell, built one scored record at a time so that an eval of any size is summed without
 * keeping its rows: counters, per-field credit sums, and the latencies (one number per row, for the
 * percentiles).
 */
import { cellKey, type EvalCell } from "./eval-record.js";
import type { ScoredRecord } from "./score-record.js";

/** One cell's figures, as the report shows them (rates in [0, 1]; `null` where nothing was measured). */
export interface CellSummary {
  cell: string;
  client: string;
  mode: string;
  rows: number;
  /** Rows whose first call answered but did not parse, over all rows. */
  firstCallParseFailureRate: number;
  /** Rows that ended without a value, over all rows. */
  finalFailureRate: number;
  /** Rows whose every scored field is right. */
  rowAccuracy: number;
  /** Mean credit over rows and scored fields (partial credit counts). */
  fieldAccuracy: number;
  /** Mean credit of each top-level field, in declaration order. */
  fields: { field: string; accuracy: number }[];
  /** Rows with at least one repair, and the repairs by kind (most frequent first). */
  repairedRows: number;
  repairs: { kind: string; count: number }[];
  retries: number;
  meanSchemaTokens: number | null;
  meanInputTokens: number | null;
  meanOutputTokens: number | null;
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
  /** Total US dollars; `null` when a row's model has no price. */
  costUsd: number | null;
  /** `JSON.parse` + schema validation over the same answers. */
  strict: { parseRate: number; rowAccuracy: number };
  /** Fence strip + jsonrepair + validation; `null` when jsonrepair was not available. */
  repaired: { parseRate: number; rowAccuracy: number } | null;
}

export class CellAggregate {
  #rows = 0;
  #firstCallFailures = 0;
  #finalFailures = 0;
  #correct = 0;
  #fieldCredit = 0;
  #fieldCount = 0;
  readonly #perField = new Map<string, number>();
  #repairedRows = 0;
  readonly #repairs = new Map<string, number>();
  #retries = 0;
  readonly #sums = { schema: new Sum(), input: new Sum(), output: new Sum() };
  readonly #latencies: number[] = [];
  #cost: number | null = 0;
  readonly #strict = { parsed: 0, correct: 0 };
  #repaired: { parsed: number; correct: number } | null = { parsed: 0, correct: 0 };

  constructor(
    readonly cell: EvalCell,
    readonly fieldNames: readonly string[],
  ) {
    for (const name of fieldNames) this.#perField.set(name, 0);
  }

  add(scored: ScoredRecord): void {
    const { record, score } = scored;
    this.#rows += 1;
    if (record.firstCallParsed === false) this.#firstCallFailures += 1;
    if (!record.ok) this.#finalFailures += 1;
    if (score.correct) this.#correct += 1;
    for (const field of score.fields) {
      this.#fieldCredit += field.credit;
      this.#fieldCount += 1;
      this.#perField.set(field.field, (this.#perField.get(field.field) ?? 0) + field.credit);
    }
    if (record.repairs.length > 0) this.#repairedRows += 1;
    for (const { kind } of record.repairs) this.#repairs.set(kind, (this.#repairs.get(kind) ?? 0) + 1);
    this.#retries += Math.max(0, record.calls - 1);
    this.#sums.schema.add(record.schemaTokens);
    this.#sums.input.add(record.inputTokens);
    this.#sums.output.add(record.outputTokens);
    this.#latencies.push(record.latencyMs);
    this.#cost = this.#cost === null || record.costUsd === null ? null : this.#cost + record.costUsd;
    if (scored.strict.parsed) this.#strict.parsed += 1;
    if (scored.strict.correct) this.#strict.correct += 1;
    if (scored.repaired === null) this.#repaired = null;
    else if (this.#repaired !== null) {
      if (scored.repaired.parsed) this.#repaired.parsed += 1;
      if (scored.repaired.correct) this.#repaired.correct += 1;
    }
  }

  summary(): CellSummary {
    const rows = this.#rows;
    const share = (count: number) => (rows === 0 ? 0 : count / rows);
    const sorted = [...this.#latencies].sort((left, right) => left - right);
    const repaired = this.#repaired;
    return {
      cell: cellKey(this.cell),
      client: this.cell.client,
      mode: this.cell.mode,
      rows,
      firstCallParseFailureRate: share(this.#firstCallFailures),
      finalFailureRate: share(this.#finalFailures),
      rowAccuracy: share(this.#correct),
      fieldAccuracy: this.#fieldCount === 0 ? 0 : this.#fieldCredit / this.#fieldCount,
      fields: this.fieldNames.map((field) => ({ field, accuracy: share(this.#perField.get(field) ?? 0) })),
      repairedRows: this.#repairedRows,
      repairs: [...this.#repairs]
        .map(([kind, count]) => ({ kind, count }))
        .sort((left, right) => right.count - left.count || (left.kind < right.kind ? -1 : 1)),
      retries: this.#retries,
      meanSchemaTokens: this.#sums.schema.mean(),
      meanInputTokens: this.#sums.input.mean(),
      meanOutputTokens: this.#sums.output.mean(),
      latencyP50Ms: percentile(sorted, 0.5),
      latencyP95Ms: percentile(sorted, 0.95),
      costUsd: this.#cost,
      strict: { parseRate: share(this.#strict.parsed), rowAccuracy: share(this.#strict.correct) },
      repaired:
        repaired === null
          ? null
          : { parseRate: share(repaired.parsed), rowAccuracy: share(repaired.correct) },
    };
  }
}

/** The nearest-rank percentile of sorted numbers: the smallest value at or above share `p` of them. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil(p * sorted.length));
  return sorted[rank - 1] as number;
}

/** A mean over the rows that reported a count (`null` when none did). */
class Sum {
  #total = 0;
  #count = 0;
  add(value: number | null): void {
    if (value === null) return;
    this.#total += value;
    this.#count += 1;
  }
  mean(): number | null {
    return this.#count === 0 ? null : this.#total / this.#count;
  }
}
