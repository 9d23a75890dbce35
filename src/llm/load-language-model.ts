import type { LanguageModel, LanguageModelDependencies } from "./language-model.js";
import { loadOnFirstUse } from "./load-on-first-use.js";

/**
 * A model for one client, as `createLanguageModel` builds it (create-language-model.ts), whose module (the
 * adapters of every provider, the HTTP model, SSE and tool-call reading) this loads with `import()` on first
 * use: the runtime entry stays without them until a call is made (docs/decisions/0043-lazy-call-path.md).
 * `options` are the client's `options { … }` with `env.*` resolved. Rejects with `LlmOptionsError` for an
 * unknown provider or invalid options, as soon as the client is built, and with `LlmLoadError` when the
 * module cannot be loaded.
 */
export async function loadLanguageModel(
  provider: string,
  options: Record<string, unknown>,
  dependencies: LanguageModelDependencies,
): Promise<LanguageModel> {
  const { createLanguageModel } = await loadOnFirstUse(
    "the provider adapters",
    provider,
    () => import("./create-language-model.js"),
  );
  return createLanguageModel(provider, options, dependencies);
}

/**
 * Starts loading the module `loadLanguageModel` needs, without waiting for it: a call's first attempt does
 * this while its own code loads, so that the two chunks download side by side rather than one after the
 * other. A failure is left to `loadLanguageModel`, which imports the module again and reports it.
 */
export function prefetchLanguageModels(): void {
  import("./create-language-model.js").catch(() => undefined);
}
