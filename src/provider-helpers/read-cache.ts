import type { ReadTextFile } from "../llm/index.js";

/**
 * What was made of files read through one reader, by key (usually the path), for the whole process: the
 * callers of one key share a single read, also while it is in flight, and a failed read is forgotten so
 * the next call reads the file again (fixing the file fixes the next call). Per reader, so a test's fake
 * reader never sees what the real one cached.
 */
export class ReadCache<T> {
  readonly #byReader = new WeakMap<ReadTextFile, Map<string, Promise<T>>>();

  get(readTextFile: ReadTextFile, key: string, load: () => Promise<T>): Promise<T> {
    let entries = this.#byReader.get(readTextFile);
    if (entries === undefined) {
      entries = new Map();
      this.#byReader.set(readTextFile, entries);
    }
    const cached = entries.get(key);
    if (cached !== undefined) return cached;
    const loading = load();
    entries.set(key, loading);
    const known = entries;
    loading.catch(() => {
      if (known.get(key) === loading) known.delete(key);
    });
    return loading;
  }
}
