import { docsUrl } from "../util/index.js";
import { BamlInvalidArgumentError } from "./errors.js";

/** The call options Sapling reads (`CallOptions`). */
const supported = new Set([
  "client",
  "clientRegistry",
  "collector",
  "env",
  "onTick",
  "outputMode",
  "parseRecovery",
  "partialIntervalMs",
  "signal",
  "tags",
  "tb",
  "validateOutput",
]);

/**
 * BAML options that code written for BAML passes routinely and Sapling does not act on: accepted with a
 * one-time warning naming them, so a migrated project keeps running and is told what is ignored.
 */
export const ignoredBamlCallOptions: Readonly<Record<string, string>> = {
  watchers: "BAML's expression-function watchers (Sapling skips expression functions)",
};

/**
 * No option is ignored without a word: an option Sapling does not know is an error at the call, and a
 * routinely passed BAML option it does not act on is reported once (through `warnOnce`). Options set to
 * `undefined` are absent.
 */
export function checkCallOptions(options: object, warnOnce: (name: string, message: string) => void): void {
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined || supported.has(name)) continue;
    const ignored = ignoredBamlCallOptions[name];
    if (ignored !== undefined) {
      warnOnce(name, `The call option "${name}" (${ignored}) is ignored by Sapling.`);
      continue;
    }
    throw new BamlInvalidArgumentError(
      `Unknown call option "${name}". Sapling's call options are: ${[...supported].sort().join(", ")} ` +
        `(${docsUrl("runtime.md", "call-options")}); remove it or check its spelling.`,
    );
  }
}
