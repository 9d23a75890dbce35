import type { Collector } from "../runtime/index.js";
import { hasErrorMark, markError } from "../util/index.js";

/**
 * A budget (`maxCostUsd`) that cannot be kept: a row's model has no price, so what it cost is unknown.
 * Rows that finished are in the checkpoint; the message says how to add the price.
 */
export class BatchBudgetError extends Error {
  constructor(
    readonly rowId: string,
    readonly model: string | null,
  ) {
    super(
      `maxCostUsd: the cost of row ${JSON.stringify(rowId)} is unknown: the model ${model === null ? "(not reported)" : JSON.stringify(model)} has no price in the price table, so the budget cannot be kept. Add its price (RuntimeOptions.prices, or --price MODEL=INPUT/OUTPUT on the command line, US dollars per million tokens), or run without a budget. No new rows were started; the finished ones are in the checkpoint.`,
    );
    this.name = "BatchBudgetError";
    markError(this, "BatchBudgetError");
  }

  /** `instanceof` that also works across two copies of the package. */
  static isInstance(value: unknown): value is BatchBudgetError {
    return hasErrorMark(value, "BatchBudgetError");
  }
}

/** The model of the row's attempt that had no price, for the budget's error message. */
export function unpricedModel(collector: Collector): string | null {
  for (const log of collector.logs)
    for (const call of log.calls) if (call.usage !== null && call.costUsd === null) return call.model;
  return null;
}
