import { Tiktoken } from "js-tiktoken/lite";

/** The encodings `sapling render` reports: GPT-4o family and GPT-4/3.5 family. */
export const ENCODINGS = ["o200k_base", "cl100k_base"] as const;
export type EncodingName = (typeof ENCODINGS)[number];
export type TokenCounts = Record<EncodingName, number>;

const encoders = new Map<EncodingName, Promise<Tiktoken>>();

/** Loads an encoding's ranks once (several MB of data, so only when a command needs it). */
function encoder(name: EncodingName): Promise<Tiktoken> {
  let loading = encoders.get(name);
  if (!loading) {
    loading = (
      name === "o200k_base" ? import("js-tiktoken/ranks/o200k_base") : import("js-tiktoken/ranks/cl100k_base")
    ).then((ranks) => new Tiktoken(ranks.default));
    encoders.set(name, loading);
  }
  return loading;
}

/** Token counts of `text` in every reported encoding, offline. */
export async function countTokens(text: string): Promise<TokenCounts> {
  const [o200k, cl100k] = await Promise.all(ENCODINGS.map(encoder));
  return { o200k_base: o200k?.encode(text).length ?? 0, cl100k_base: cl100k?.encode(text).length ?? 0 };
}
