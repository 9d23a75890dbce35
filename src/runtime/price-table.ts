/**
 * The shipped price table: list prices in US dollars per million tokens, as the providers published them
 * on the table's date, for the models whose prices were known then. Data only: `cost.ts` reads it, users
 * add to it or override it (`RuntimeOptions.prices`). A model that is not here has no cost (`null`), never
 * a guess; a price that changed since the date is the user's to override.
 *
 * Fields: `input` and `output` for uncached input and for output; `cachedInput` for input read from the
 * prompt cache and `cacheWrite` for input written to it (absent: charged as `input`); `reasoning` for
 * reasoning tokens (absent: charged as `output`, which is how every provider here bills them).
 */

/** US dollars per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  cachedInput?: number;
  cacheWrite?: number;
  reasoning?: number;
}

export interface PriceTable {
  /** The day the prices were taken from the providers' price pages (YYYY-MM-DD). */
  date: string;
  currency: "USD";
  unit: "per million tokens";
  /** By model id as the provider reports it, without a date suffix (`gpt-4o`, `claude-sonnet-4`). */
  models: Readonly<Record<string, ModelPrice>>;
}

export const defaultPriceTable: PriceTable = {
  date: "2025-08-01",
  currency: "USD",
  unit: "per million tokens",
  models: {
    // OpenAI (standard tier; cached input as listed; no cache-write charge).
    "gpt-4o": { input: 2.5, output: 10, cachedInput: 1.25 },
    "gpt-4o-mini": { input: 0.15, output: 0.6, cachedInput: 0.075 },
    "gpt-4.1": { input: 2, output: 8, cachedInput: 0.5 },
    "gpt-4.1-mini": { input: 0.4, output: 1.6, cachedInput: 0.1 },
    "gpt-4.1-nano": { input: 0.1, output: 0.4, cachedInput: 0.025 },
    "gpt-5": { input: 1.25, output: 10, cachedInput: 0.125 },
    "gpt-5-mini": { input: 0.25, output: 2, cachedInput: 0.025 },
    "gpt-5-nano": { input: 0.05, output: 0.4, cachedInput: 0.005 },
    o1: { input: 15, output: 60, cachedInput: 7.5 },
    o3: { input: 2, output: 8, cachedInput: 0.5 },
    "o3-mini": { input: 1.1, output: 4.4, cachedInput: 0.55 },
    "o4-mini": { input: 1.1, output: 4.4, cachedInput: 0.275 },
    // Anthropic (cache reads at 0.1× input, 5-minute cache writes at 1.25× input).
    "claude-3-5-haiku": { input: 0.8, output: 4, cachedInput: 0.08, cacheWrite: 1 },
    "claude-3-5-sonnet": { input: 3, output: 15, cachedInput: 0.3, cacheWrite: 3.75 },
    "claude-3-7-sonnet": { input: 3, output: 15, cachedInput: 0.3, cacheWrite: 3.75 },
    "claude-sonnet-4": { input: 3, output: 15, cachedInput: 0.3, cacheWrite: 3.75 },
    "claude-opus-4": { input: 15, output: 75, cachedInput: 1.5, cacheWrite: 18.75 },
    "claude-opus-4-1": { input: 15, output: 75, cachedInput: 1.5, cacheWrite: 18.75 },
    // Google Gemini (prompts up to 200k tokens; thinking billed as output).
    "gemini-2.5-pro": { input: 1.25, output: 10, cachedInput: 0.31 },
    "gemini-2.5-flash": { input: 0.3, output: 2.5, cachedInput: 0.075 },
    "gemini-2.5-flash-lite": { input: 0.1, output: 0.4, cachedInput: 0.025 },
    "gemini-2.0-flash": { input: 0.1, output: 0.4, cachedInput: 0.025 },
    // DeepSeek (standard hours; cache hits as cached input).
    "deepseek-chat": { input: 0.27, output: 1.1, cachedInput: 0.07 },
    "deepseek-reasoner": { input: 0.55, output: 2.19, cachedInput: 0.14 },
  },
};
