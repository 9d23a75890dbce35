/**
 * A small seeded pseudo-random generator (mulberry32), so the corpus is the same on every machine and every
 * run: regenerating it must reproduce the committed files byte for byte.
 */
export interface SeededRandom {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both inclusive. */
  integer(min: number, max: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** `count` distinct elements (fewer if the list is shorter), in random order. */
  sample<T>(items: readonly T[], count: number): T[];
  /** True with the given probability. */
  chance(probability: number): boolean;
}

/** Creates a generator whose sequence depends only on `seed`. */
export function createSeededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
  const integer = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    integer,
    pick: <T>(items: readonly T[]): T => {
      const item = items[integer(0, items.length - 1)];
      if (item === undefined) throw new Error("pick() needs a non-empty list");
      return item;
    },
    sample: <T>(items: readonly T[], count: number): T[] => {
      const pool = [...items];
      const chosen: T[] = [];
      while (chosen.length < count && pool.length > 0) {
        chosen.push(pool.splice(integer(0, pool.length - 1), 1)[0] as T);
      }
      return chosen;
    },
    chance: (probability: number): boolean => next() < probability,
  };
}
