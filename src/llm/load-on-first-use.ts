import { LlmLoadError } from "./llm-error.js";

/**
 * Runs `load` (an `import()` of code only some calls need) and turns its failure into an `LlmLoadError`
 * naming `part` and the provider, with the loader's error as the cause. A module that loaded stays loaded
 * (the host caches it); one that failed is tried again on the next call.
 */
export async function loadOnFirstUse<T>(part: string, provider: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw new LlmLoadError(part, { provider, cause: error });
  }
}
