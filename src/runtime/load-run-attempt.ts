import type { Client } from "../ir/index.js";
import { loadOnFirstUse, prefetchLanguageModels } from "../llm/index.js";
import { mapLlmError } from "./map-llm-error.js";
import type { runAttempt } from "./run-attempt.js";

/**
 * `runAttempt` (run-attempt.ts: one client's request, its answer read and parsed, re-asks), loaded with
 * `import()` on a call's first attempt, so that the runtime entry does not ship the call path to a page that
 * only parses (docs/decisions/0043-lazy-call-path.md). A module that cannot be loaded fails the attempt as
 * a client error naming what was not loaded (`BamlClientError`, the `LlmLoadError` its cause). The
 * attempt needs the provider adapters next, so their chunk starts downloading now too.
 */
export async function loadRunAttempt(client: Client): Promise<typeof runAttempt> {
  prefetchLanguageModels();
  try {
    return (await loadOnFirstUse("the call path", client.provider, () => import("./run-attempt.js")))
      .runAttempt;
  } catch (error) {
    throw mapLlmError(error, client.name, client.provider, []);
  }
}
