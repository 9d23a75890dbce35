import type { Generator, Ir } from "../ir/index.js";
import { emitAsyncClient } from "./emit-async-client.js";
import { emitAsyncRequest } from "./emit-async-request.js";
import { emitConfig } from "./emit-config.js";
import { emitGlobals } from "./emit-globals.js";
import { emitIndex } from "./emit-index.js";
import { emitIr } from "./emit-ir.js";
import { emitParser } from "./emit-parser.js";
import { emitPartialTypes } from "./emit-partial-types.js";
import { emitSyncClient } from "./emit-sync-client.js";
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
 */
export function generateClient(ir: Ir, generator: Generator): Record<string, string> {
  const generation = createGenerationContext(ir, generator);
  const signatures = byName(ir.functions).map((declaration) =>
    functionSignature(declaration, generation.index),
  );
  return {
    "async_client.ts": emitAsyncClient(generation, signatures),
    "async_request.ts": emitAsyncRequest(generation, signatures),
    "config.ts": emitConfig(generation),
    "globals.ts": emitGlobals(generation),
    "index.ts": emitIndex(generation),
    "ir.ts": emitIr(generation),
    "parser.ts": emitParser(generation, signatures),
    "partial_types.ts": emitPartialTypes(generation),
    "sync_client.ts": emitSyncClient(generation),
    "tracing.ts": emitTracing(generation),
    "type_builder.ts": emitTypeBuilder(generation),
    "types.ts": emitTypes(generation),
    "watchers.ts": emitWatchers(),
  };
}
