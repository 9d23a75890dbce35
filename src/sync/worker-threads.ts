/**
 * Node's `node:worker_threads`, asked of the running process (`process.getBuiltinModule`, Node ≥ 20.16)
 * rather than imported: a bundle for the browser that includes the generated `sync_client` still builds,
 * and its first call says why it cannot run there.
 */
type WorkerThreadsModule = typeof import("node:worker_threads");

export function workerThreads(): WorkerThreadsModule {
  const host = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const threads = host?.getBuiltinModule?.("node:worker_threads") as WorkerThreadsModule | undefined;
  if (threads === undefined) {
    throw new Error(
      "The sync client needs Node's worker threads (Node 20.16 or later) to wait for a call; " +
        "here there are none. Use the async client (`b` from baml_client).",
    );
  }
  return threads;
}
