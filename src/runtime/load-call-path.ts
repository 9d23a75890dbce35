import { loadOnFirstUse, prefetchLanguageModels } from "../llm/index.js";
import { clientPrefix } from "./client-prefix.js";
import { BamlClientError } from "./errors.js";

/**
 * The call path (run-call.ts: a call's attempts with retries and fallback, its deadline, its record for the
 * Collector, and run-attempt.ts: one client's request, its answer read and parsed, re-asks), loaded with
 * `import()` when a call starts, so that the runtime entry does not ship it to a page that only parses
 * (docs/decisions/0043-lazy-call-path.md, 0048-lazy-prompt-renderer.md). A module that cannot be loaded
 * fails the call as a client error naming what was not loaded (`BamlClientError`, the `LlmLoadError` its
 * cause). The call needs the provider adapters next, so their chunk starts downloading now too.
 */
export async function loadCallPath(client: {
  name: string;
  provider: string;
}): Promise<typeof import("./run-call.js")> {
  prefetchLanguageModels();
  try {
    return await loadOnFirstUse("the call path", client.provider, () => import("./run-call.js"));
  } catch (error) {
    // An `LlmLoadError`; the message holds no secret (it names the part and the loader's error).
    const message = error instanceof Error ? error.message : String(error);
    throw new BamlClientError(
      clientPrefix(client.name, client.provider) + message,
      client.name,
      client.provider,
    );
  }
}
