/**
 * `sapling-llm/sync`: what the generated `sync_client.ts` calls, BAML's blocking `b_sync.Fn(...)` and
 * `b_sync.request.Fn(...)`. Each call runs on a worker thread while the calling thread waits
 * (docs/decisions/0036-sync-client-worker-thread.md). Node only, and only for code written for BAML's sync
 * client: it blocks the event loop for the whole call.
 */
import type { SaplingRuntime } from "../runtime/index.js";
import { SyncClient, type SyncClientOptions } from "./sync-client.js";

export { type SyncWorkerData, serveSyncCalls } from "./serve-sync-calls.js";
export { SyncClient, type SyncClientOptions } from "./sync-client.js";

/**
 * A sync client over `runtime`'s IR. The worker thread loads this module (its own URL, so a bundled
 * `dist/` loads itself and a test run from source loads the source through the same loader).
 */
export function createSyncClient(runtime: SaplingRuntime, options: SyncClientOptions = {}): SyncClient {
  const url = import.meta.url;
  // From TypeScript source (this repository's tests run through tsx), the worker needs tsx's loader too.
  const loader = url.endsWith(".ts") ? import.meta.resolve?.("tsx/esm/api") : undefined;
  return new SyncClient(runtime, { url, loader }, options);
}
