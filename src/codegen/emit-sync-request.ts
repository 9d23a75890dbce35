import { requestClass as requestClassOf } from "./client-class.js";
import { clientImports } from "./client-imports.js";
import type { FunctionSignature } from "./function-signature.js";
import type { GenerationContext } from "./generation-context.js";
import { banner, relativeModule, SYNC_MODULE } from "./module-text.js";
import { runtimeApi } from "./runtime-api.js";
import { providerExtensionsOf } from "./uses-provider.js";

/** The module-level sync client the generated sync classes call (one worker thread per project). */
export const SYNC_CALLS = "syncCalls";

/**
 * `sync_request.ts`: the sync client's engine (`createSyncClient` of `sapling-llm/sync`: each call on a
 * worker thread while this one waits) and BAML's `b_sync.request.Fn(args)` / `b_sync.streamRequest.Fn(args)`,
 * the HTTP request a call or a stream would send, returned rather than awaited. Calls read `process.env`
 * and the call's `env`, as BAML's sync client does.
 */
export function emitSyncRequest(generation: GenerationContext, signatures: FunctionSignature[]): string {
  const requestClass = (name: string, stream: boolean, docs: string) =>
    requestClassOf({ name, docs, signatures, stream, engine: SYNC_CALLS, asynchronous: false });
  const imports = clientImports(generation, {
    runtimeTypes: [
      runtimeApi.callOptions,
      runtimeApi.runtime,
      ...(signatures.length > 0 ? [runtimeApi.httpRequest] : []),
    ],
    uses: signatures.map((signature) => signature.parameters.uses),
    local: [
      `import { createSyncClient, type SyncClient } from "${SYNC_MODULE}";`,
      `import { runtime } from "${relativeModule("globals", generation.importExtension)}";`,
    ],
  });
  const providers = providerExtensionsOf(generation.ir).map(({ provider }) => JSON.stringify(provider));
  return `${banner()}${imports}
const processEnv = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;

/** Runs the sync client's calls on a worker thread (started on the first call) while the caller waits. */
export const ${SYNC_CALLS}: SyncClient = createSyncClient(runtime, {
  providers: [${providers.join(", ")}],
  env: processEnv ?? {},
  jsonLogs: /^(true|1)$/i.test(processEnv?.["BAML_LOG_JSON"] ?? ""),
});

${requestClass("SyncHttpRequest", false, "`b_sync.request.Fn(args)`: the HTTP request a call would send, without sending it.")}
${requestClass("SyncHttpStreamRequest", true, "`b_sync.streamRequest.Fn(args)`: the HTTP request a stream would send, without sending it.")}`;
}
