/**
 * How a parser turns a stream of chunks into partial values, and what that costs for one whole stream.
 * `reparseEveryPrefix` is what BAML's runtime and the AI SDK's `streamObject` do: parse the whole buffer
 * again after each chunk (when that would take too long here, every k-th prefix is timed and the sum is
 * scaled by k, an estimate the report flags). An incremental parser keeps state between chunks and is
 * timed on every chunk, several times over.
 */
import { measureTime } from "./measure-time.js";
import type { ParserUnderTest, ParseTarget } from "./parser-under-test.js";

export interface StreamCost {
  /** CPU time to produce a partial after every chunk of one stream (estimated when `stride > 1`). */
  totalMs: number;
  /** The cost of the partial after the last chunk: what every tick costs once the answer is long. */
  lastChunkMs: number;
  /** 1 when every prefix was timed; k when every k-th was and the sum scaled by k. */
  stride: number;
  /** Share of the (timed) chunks after which the parser had a value to show. */
  valueShare: number;
}

export interface StreamStrategy {
  name: string;
  /** Whether partials come from keeping state (true) or from re-parsing the whole buffer (false). */
  incremental: boolean;
  cost(target: ParseTarget, chunks: readonly string[], budgetMs: number): Promise<StreamCost>;
}

/** Splits text into chunks of `size` characters (code points, so no surrogate pair is cut). */
export function splitIntoChunks(text: string, size: number): string[] {
  const characters = Array.from(text);
  const chunks: string[] = [];
  for (let start = 0; start < characters.length; start += size)
    chunks.push(characters.slice(start, start + size).join(""));
  return chunks;
}

/**
 * Parses a prefix; true when there was a value to show. A prefix that does not parse yet costs its time all
 * the same (BAML's runtime swallows those errors too: no event is emitted).
 */
async function attempt(parser: ParserUnderTest, target: ParseTarget, text: string): Promise<boolean> {
  try {
    const value = await parser.parse(target, text, "partial");
    return value !== null && value !== undefined;
  } catch {
    return false;
  }
}

/** Re-parses the whole buffer in partial mode after every chunk; `name` defaults to the parser's. */
export function reparseEveryPrefix(parser: ParserUnderTest, name = parser.name): StreamStrategy {
  return {
    name,
    incremental: false,
    cost: async (target, chunks, budgetMs) => {
      const prefixes: string[] = [];
      let buffer = "";
      for (const chunk of chunks) {
        buffer += chunk;
        prefixes.push(buffer);
      }
      const last = prefixes.at(-1) ?? "";
      const lastChunkMs = (
        await measureTime(() => attempt(parser, target, last), { budgetMs: 20, minSamples: 3 })
      ).medianMs;
      // Prefix cost grows with length, so all prefixes together cost about half of n × the last one.
      const estimated = (prefixes.length * lastChunkMs) / 2;
      const stride = Math.max(1, Math.ceil(estimated / budgetMs));
      const sampled = prefixes.filter((_, index) => (prefixes.length - 1 - index) % stride === 0);
      // Cheap parsers get one untimed pass first, so the JIT has compiled them (a native parser needs none).
      if (stride === 1) for (const prefix of sampled) await attempt(parser, target, prefix);
      let sampledMs = 0;
      let withValue = 0;
      for (const prefix of sampled) {
        const started = performance.now();
        if (await attempt(parser, target, prefix)) withValue += 1;
        sampledMs += performance.now() - started;
      }
      return { totalMs: sampledMs * stride, lastChunkMs, stride, valueShare: withValue / sampled.length };
    },
  };
}
