/**
 * The least a stream can spend on handing out partial values, whatever its parser: a partial handed out
 * never changes afterwards (a UI keeps it, compares it by identity, renders from it), so every list or
 * object on the way from the root to what a chunk changed is a new one. For a list of n items, the chunk
 * that grows its last item copies n references, so the copies alone grow with the square of the list's
 * length over a stream. This records, from a real stream, which containers each new partial had to build
 * (the ones not shared with the previous partial) and how large they were, then replays only those
 * copies (`slice` of arrays, a copy of objects of the same sizes, each the cheapest way) and times them.
 */
import { measureTime } from "./measure-time.js";

export interface CopyRecord {
  /** Length of every array built, in order. */
  arrays: number[];
  /** Key count of every object built, in order. */
  objects: number[];
}

export function emptyCopyRecord(): CopyRecord {
  return { arrays: [], objects: [] };
}

/** Records the containers of `next` that are not shared with `previous` (the copies building it took). */
export function recordCopies(next: unknown, previous: unknown, record: CopyRecord): void {
  if (next === previous || typeof next !== "object" || next === null) return;
  if (Array.isArray(next)) {
    record.arrays.push(next.length);
    const before: unknown[] = Array.isArray(previous) ? previous : [];
    // (Items shared with the previous partial are skipped here: a long list shares all but its last.)
    for (let index = 0; index < next.length; index++) {
      if (next[index] !== before[index]) recordCopies(next[index], before[index], record);
    }
    return;
  }
  const object = next as Record<string, unknown>;
  const before =
    typeof previous === "object" && previous !== null && !Array.isArray(previous)
      ? (previous as Record<string, unknown>)
      : {};
  let keys = 0;
  for (const key in object) {
    keys++;
    recordCopies(object[key], before[key], record);
  }
  record.objects.push(keys);
}

/** Objects with fewer keys are copied by a spread, larger ones key by key (see `copyObject`). */
const spreadBelow = 32;

/**
 * A copy of `template`, whose keys are `keys`, the cheapest way: a spread for a few keys; key by key for
 * more, where V8 keeps the object as a dictionary, which a spread copies at two to five times the cost.
 */
function copyObject(template: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  if (keys.length < spreadBelow) return { ...template };
  const copy: Record<string, unknown> = {};
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    copy[key] = template[key];
  }
  return copy;
}

/**
 * Median time of making exactly the recorded copies, in milliseconds. The objects are copied smallest
 * first from one template that grows between copies (a key added costs next to nothing beside a copy), so
 * a stream of maps of thousands of entries needs one template, not one per size; the sum of the copies
 * does not depend on their order.
 */
export async function timeCopies(record: CopyRecord): Promise<number> {
  const longest = Math.max(0, ...record.arrays);
  const source = Array.from({ length: longest }, (_, index) => ({ index }));
  const sizes = [...record.objects].sort((left, right) => left - right);
  let kept: unknown;
  const measurement = await measureTime(
    () => {
      for (const length of record.arrays) kept = source.slice(0, length);
      const template: Record<string, unknown> = {};
      const keys: string[] = [];
      for (const size of sizes) {
        while (keys.length < size) {
          const key = `field_${keys.length}`;
          template[key] = keys.length;
          keys.push(key);
        }
        kept = copyObject(template, keys);
      }
    },
    { budgetMs: 800, minSamples: 5 },
  );
  if (kept === undefined && (record.arrays.length > 0 || record.objects.length > 0))
    throw new Error("no copy was made");
  return measurement.medianMs;
}
