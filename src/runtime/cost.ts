import type { Usage } from "./collector.js";
import type { ModelPrice } from "./price-table.js";

/** Model id → price; what `RuntimeOptions.prices` adds over (or instead of) the shipped table. */
export type Prices = Readonly<Record<string, ModelPrice>>;

const dateSuffix = /-(\d{4}-\d{2}-\d{2}|\d{8}|\d{4})$/;

/**
 * The price of `model` in `prices`: the id as reported, then without a provider prefix
 * (`openai/gpt-4o`, `models/gemini-2.5-pro`), then without a trailing date (`gpt-4o-2024-08-06`,
 * `claude-sonnet-4-20250514`, `o3-mini-2025-01-31`) or `-latest`. Nothing else: a model the table does not
 * name has no price, so no cost is ever guessed from a similar name.
 */
export function findPrice(model: string | null | undefined, prices: Prices): ModelPrice | undefined {
  if (!model) return undefined;
  const bare = model.slice(model.lastIndexOf("/") + 1);
  for (const candidate of [model, bare, bare.replace(dateSuffix, ""), bare.replace(/-latest$/, "")]) {
    const price = Object.hasOwn(prices, candidate) ? prices[candidate] : undefined;
    if (price !== undefined) return price;
  }
  return undefined;
}

/**
 * What `usage` costs at `price`, in US dollars; `null` without a price or without the input and output
 * counts. Usage totals include their parts (input: cache reads and writes; output: reasoning), so each part
 * is charged at its own price and the rest at the plain one.
 */
export function costOfUsage(usage: Usage | null, price: ModelPrice | undefined): number | null {
  if (price === undefined || usage === null) return null;
  const { inputTokens, outputTokens } = usage;
  if (inputTokens === null || outputTokens === null) return null;
  const cached = usage.cachedInputTokens ?? 0;
  const written = usage.cacheWriteInputTokens ?? 0;
  const reasoning = usage.reasoningTokens ?? 0;
  const dollars =
    (inputTokens - cached - written) * price.input +
    cached * (price.cachedInput ?? price.input) +
    written * (price.cacheWrite ?? price.input) +
    (outputTokens - reasoning) * price.output +
    reasoning * (price.reasoning ?? price.output);
  return dollars / 1_000_000;
}

/** A sum of costs: `null` as soon as one part is unknown (a partial sum would understate the bill). */
export function addCost(total: number | null, part: number | null): number | null {
  return total === null || part === null ? null : total + part;
}
