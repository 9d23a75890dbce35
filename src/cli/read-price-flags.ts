import type { Prices } from "../runtime/index.js";
import { UsageError } from "./cli-context.js";

const priceFlag = /^([^=\s]+)=(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/;

/**
 * `--price MODEL=INPUT/OUTPUT` flags (US dollars per million input and output tokens, e.g.
 * `--price my-finetune=0.3/1.2`) as prices over the shipped table: how a model the table does not name
 * gets a cost, which a budget (`--max-cost`) needs.
 */
export function readPriceFlags(values: readonly string[], flag = "--price"): Prices {
  const prices: Record<string, { input: number; output: number }> = {};
  for (const value of values) {
    const match = priceFlag.exec(value);
    if (!match)
      throw new UsageError(
        `${flag} must be MODEL=INPUT/OUTPUT in US dollars per million tokens, e.g. ${flag} my-model=0.3/1.2; got "${value}"`,
      );
    prices[match[1] as string] = { input: Number(match[2]), output: Number(match[3]) };
  }
  return prices;
}
