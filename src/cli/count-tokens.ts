/**
 * Offline token counts for `sapling render`, through js-tiktoken: an optional peer dependency (22 MB of
 * ranks that only this command uses; docs/decisions/0005-js-tiktoken-optional-peer.md). Where it is not
 * installed, `render` still renders and prints `TOKENIZER_MISSING` instead of the counts.
 */
import { isPackageMissing } from "./is-package-missing.js";

/** The encodings `sapling render` reports: GPT-4o family and GPT-4/3.5 family. */
export const ENCODINGS = ["o200k_base", "cl100k_base"] as const;
export type EncodingName = (typeof ENCODINGS)[number];
export type TokenCounts = Record<EncodingName, number>;

/** Counts tokens of a text in every reported encoding. */
export type TokenCounter = (text: string) => TokenCounts;

/** The parts of js-tiktoken the counts use: the encoder class and the ranks of each encoding. */
export interface TiktokenModules {
  Tiktoken: new (ranks: never) => { encode: (text: string) => number[] };
  ranks: Record<EncodingName, unknown>;
}

/** Loads js-tiktoken; rejects with a module-not-found error where it is not installed. */
export type TiktokenLoader = () => Promise<TiktokenModules>;

/** The peer dependency, and the line that says how to get counts without it. */
export const TOKENIZER_PACKAGE = "js-tiktoken";
export const TOKENIZER_MISSING = `token counts need the optional package ${TOKENIZER_PACKAGE}: npm install --save-dev ${TOKENIZER_PACKAGE}`;

/** js-tiktoken from the project's node_modules: the lite encoder and the two rank tables (several MB). */
export const importTiktoken: TiktokenLoader = async () => {
  const [{ Tiktoken }, o200k, cl100k] = await Promise.all([
    import("js-tiktoken/lite"),
    import("js-tiktoken/ranks/o200k_base"),
    import("js-tiktoken/ranks/cl100k_base"),
  ]);
  return { Tiktoken, ranks: { o200k_base: o200k.default, cl100k_base: cl100k.default } };
};

/**
 * A counter built from `load`, or `undefined` when js-tiktoken is not installed. Any other failure (a
 * broken install) is thrown, so it is not mistaken for an absent package.
 */
export function loadTokenCounter(load: TiktokenLoader = importTiktoken): Promise<TokenCounter | undefined> {
  if (load !== importTiktoken) return buildCounter(load);
  // The default counter is built once per process: the rank tables take a while to index.
  defaultCounter ??= buildCounter(load);
  return defaultCounter;
}

let defaultCounter: Promise<TokenCounter | undefined> | undefined;

async function buildCounter(load: TiktokenLoader): Promise<TokenCounter | undefined> {
  let modules: TiktokenModules;
  try {
    modules = await load();
  } catch (error) {
    if (isPackageMissing(error, TOKENIZER_PACKAGE)) return undefined;
    throw error;
  }
  const o200k = new modules.Tiktoken(modules.ranks.o200k_base as never);
  const cl100k = new modules.Tiktoken(modules.ranks.cl100k_base as never);
  return (text) => ({ o200k_base: o200k.encode(text).length, cl100k_base: cl100k.encode(text).length });
}
