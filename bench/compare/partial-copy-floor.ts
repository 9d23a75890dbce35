/**
 * The least a stream can spend on handing out partial values, whatever its parser: a partial handed out
 * never changes afterwards (a UI keeps it, compares it by identity, renders from it), so every list or
 * object on the way from the root to what a chunk changed is a new one. For a list of n items, the chunk
 * that grows its last item copies n references, so the copies alone grow with the square of the list's
 * length over a stream. This records, from a real stream, which containers each new partial had to build
 * (the ones not shared with the previous partial) and how large they were, then replays only those
 * copies (`slice` of arrays, spread of objects, of the same sizes) and times them.
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
    for (let index = 0; index < next.length; index++) recordCopies(next[index], before[index], record);
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

/** Median time of making exactly the recorded copies, in milliseconds. */
export async function timeCopies(record: CopyRecord): Promise<number> {
  const longest = Math.max(0, ...record.arrays);
  const source = Array.from({ length: longest }, (_, index) => ({ index }));
  const templates = new Map<number, Record<string, unknown>>();
  for (const size of record.objects) {
    if (!templates.has(size)) {
      const template: Record<string, unknown> = {};
      for (let key = 0; key < size; key++) template[`field_${key}`] = key;
      templates.set(size, template);
    }
  }
  const objects = record.objects.map((size) => templates.get(size)!);
  let kept: unknown;
  const measurement = await measureTime(
    () => {
      for (const length of record.arrays) kept = source.slice(0, length);
      for (const template of objects) kept = { ...template };
    },
    { budgetMs: 800, minSamples: 5 },
  );
  if (kept === undefined && (record.arrays.length > 0 || record.objects.length > 0))
    throw new Error("no copy was made");
  return measurement.medianMs;
}
