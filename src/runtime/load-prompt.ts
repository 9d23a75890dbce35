import { loadOnFirstUse } from "../llm/index.js";

/** The prompt room's door, as a call loads it. */
export type PromptRoom = typeof import("../prompt/index.js");

/**
 * The prompt room (the Jinja engine, the prompt renderer, `ctx.output_format`, constraint evaluation),
 * loaded with `import()` when a call first renders a prompt, so that the runtime entry does not ship it to
 * a page that only parses (docs/decisions/0048-lazy-prompt-renderer.md). A parse of a type with `@check`
 * or `@assert` needs the evaluator synchronously: the runtime gets it in `RuntimeOptions.constraintEvaluator`.
 * A room that cannot be loaded rejects with `LlmLoadError`, which a call reports as a client error.
 */
export function loadPrompt(provider: string): Promise<PromptRoom> {
  return loadOnFirstUse("the prompt renderer", provider, () => import("../prompt/index.js"));
}
