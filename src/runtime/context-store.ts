/**
 * Which trace span is current, carried across `await`s so that a traced function's LLM calls become its
 * children. On hosts with Node's `AsyncLocalStorage` (Node, Bun, Deno; found through
 * `process.getBuiltinModule` so the runtime stays free of `node:` imports) the context follows every async
 * continuation exactly. Elsewhere (browsers, edge workers without it) a plain stack is used: exact for
 * `traceSync` and for traced functions that run one at a time, but concurrent traced functions that
 * interleave their awaits may see each other's span there.
 */

export interface ContextStore<T> {
  get(): T | undefined;
  run<R>(value: T, body: () => R): R;
}

interface AsyncLocalStorageLike<T> {
  getStore(): T | undefined;
  run<R>(value: T, body: () => R): R;
}

type AsyncLocalStorageClass = new <T>() => AsyncLocalStorageLike<T>;

function findAsyncLocalStorage(): AsyncLocalStorageClass | undefined {
  const host = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  if (typeof host?.getBuiltinModule !== "function") return undefined;
  const hooks = host.getBuiltinModule("node:async_hooks") as { AsyncLocalStorage?: AsyncLocalStorageClass };
  return typeof hooks?.AsyncLocalStorage === "function" ? hooks.AsyncLocalStorage : undefined;
}

/** A store over `AsyncLocalStorage` when the host has one, else over a stack (see the file comment). */
export function createContextStore<T>(useAsyncLocalStorage = true): ContextStore<T> {
  const AsyncLocalStorage = useAsyncLocalStorage ? findAsyncLocalStorage() : undefined;
  if (AsyncLocalStorage !== undefined) {
    const storage = new AsyncLocalStorage<T>();
    return { get: () => storage.getStore(), run: (value, body) => storage.run(value, body) };
  }
  const stack: T[] = [];
  return {
    get: () => stack.at(-1),
    run<R>(value: T, body: () => R): R {
      stack.push(value);
      const pop = (): void => {
        const index = stack.lastIndexOf(value);
        if (index >= 0) stack.splice(index, 1);
      };
      let result: R;
      try {
        result = body();
      } catch (error) {
        pop();
        throw error;
      }
      if (result instanceof Promise) {
        result.then(pop, pop);
      } else {
        pop();
      }
      return result;
    },
  };
}
