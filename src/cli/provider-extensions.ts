/**
 * The provider adapters that live outside `sapling-llm/runtime` (docs/decisions/0020-aws-bedrock-entry-point.md,
 * 0021-vertex-ai-entry-point.md).
 * Every runtime the CLI builds gets all of them, so `sapling call`, `test`, `serve`, `dev`, `batch` and
 * `worker` reach every provider a .baml file can name.
 */
import { awsBedrock } from "../aws-bedrock/index.js";
import type { ProviderExtension } from "../llm/index.js";
import { vertexAi } from "../vertex-ai/index.js";

export const providerExtensions: readonly ProviderExtension[] = [awsBedrock, vertexAi];
