/**
 * The provider adapters that live outside `sapling-llm/runtime` (docs/decisions/0020-aws-bedrock-entry-point.md,
 * 0021-vertex-ai-entry-point.md), and the constraint evaluator, which the runtime entry loads only with a
 * call's prompt (0048-lazy-prompt-renderer.md).
 * Every runtime the CLI builds gets all of them, so `sapling call`, `test`, `serve`, `dev`, `batch` and
 * `worker` reach every provider a .baml file can name and parse `@check`/`@assert` types without a call.
 */
import { awsBedrock } from "../aws-bedrock/index.js";
import type { ProviderExtension } from "../llm/index.js";
import { evaluateConstraint } from "../prompt/index.js";
import type { RuntimeOptions } from "../runtime/index.js";
import { vertexAi } from "../vertex-ai/index.js";

export const providerExtensions: readonly ProviderExtension[] = [awsBedrock, vertexAi];

/** What every runtime the CLI builds is given besides its environment: the extensions and the evaluator. */
export const cliRuntimeExtensions: Pick<RuntimeOptions, "providers" | "constraintEvaluator"> = {
  providers: providerExtensions,
  constraintEvaluator: evaluateConstraint,
};
