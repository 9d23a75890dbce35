/**
 * A small seeded generator (mulberry32): the same sequence for the same seed, so that a "random" kill
 * point in a test or a benchmark is the same on every run and a failure can be replayed.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** `text` in chunks of 1–24 characters, their sizes drawn from `random`: a stream's random split. */
export function randomChunks(text: string, random: () => number): string[] {
  const chunks: string[] = [];
  for (let at = 0; at < text.length; ) {
    const size = 1 + Math.floor(random() * 24);
    chunks.push(text.slice(at, at + size));
    at += size;
  }
  return chunks;
}
