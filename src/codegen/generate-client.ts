import type { Generator, Ir } from "../ir/index.js";
import { emitAsyncClient } from "./emit-async-client.js";
import { emitAsyncRequest } from "./emit-async-request.js";
import { emitConfig } from "./emit-config.js";
import { emitGlobals } from "./emit-globals.js";
import { emitIndex } from "./emit-index.js";
import { emitIr } from "./emit-ir.js";
import { emitParser } from "./emit-parser.js";
import { emitPartialTypes } from "./emit-partial-types.js";
import { emitReactHookTypes } from "./emit-react-hook-types.js";
import { emitReactHooks } from "./emit-react-hooks.js";
import { emitReactHttpHooks } from "./emit-react-http-hooks.js";
import { emitReactServer } from "./emit-react-server.js";
import { emitReactServerStreaming } from "./emit-react-server-streaming.js";
import { emitReactStreamingTypes } from "./emit-react-streaming-types.js";
import { emitSyncClient } from "./emit-sync-client.js";
import { emitSyncRequest } from "./emit-sync-request.js";
import { emitTracing } from "./emit-tracing.js";
import { emitTypeBuilder } from "./emit-type-builder.js";
import { emitTypes } from "./emit-types.js";
import { emitWatchers } from "./emit-watchers.js";
import { functionSignature } from "./function-signature.js";
import { createGenerationContext } from "./generation-context.js";
import { byName } from "./module-text.js";

/**
 * The TypeScript client for a project: file name (relative to `baml_client/`) → text. Pure and
 * deterministic — the same IR and generator give the same bytes — so callers decide where to write, and
 * golden tests compare strings. Throws `CodegenError` when a declared name would break the generated code.
 * `output_type "typescript/react"` adds BAML's React files under `react/` (hooks, server actions) and
 * Sapling's HTTP hooks for apps without server actions.
 */
export function generateClient(ir: Ir, generator: Generator): Record<string, string> {
  const generation = createGenerationContext(ir, generator);
  const signatures = byName(ir.functions).map((declaration) =>
    functionSignature(declaration, generation.index),
  );
  const react: Record<string, string> =
    generator.outputType === "typescript/react"
      ? {
          "react/hook_types.ts": emitReactHookTypes(generation, signatures),
          "react/hooks.tsx": emitReactHooks(generation, signatures),
          "react/http_hooks.tsx": emitReactHttpHooks(generation, signatures),
          "react/server.ts": emitReactServer(generation, signatures),
          "react/server_streaming.ts": emitReactServerStreaming(generation, signatures),
          "react/server_streaming_types.ts": emitReactStreamingTypes(generation, signatures),
        }
      : {};
  return {
    "async_client.ts": emitAsyncClient(generation, signatures),
    "async_request.ts": emitAsyncRequest(generation, signatures),
    "config.ts": emitConfig(generation),
    "globals.ts": emitGlobals(generation),
    "index.ts": emitIndex(generation),
    "ir.ts": emitIr(generation),
    "parser.ts": emitParser(generation, signatures),
    "partial_types.ts": emitPartialTypes(generation),
    "sync_client.ts": emitSyncClient(generation, signatures),
    "sync_request.ts": emitSyncRequest(generation, signatures),
    "tracing.ts": emitTracing(generation),
    "type_builder.ts": emitTypeBuilder(generation),
    "types.ts": emitTypes(generation),
    "watchers.ts": emitWatchers(),
    ...react,
  };
}
