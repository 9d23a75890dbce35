/**
 * `sapling-llm/vertex-ai`: the `vertex-ai` provider's adapter (Gemini on Google Cloud Vertex AI, and Claude
 * there for `anthropic_version` or a `claude…` model; OAuth tokens minted from a service-account key with a
 * JWT signed by WebCrypto; key files read through the host's `readTextFile`). It lives
 * outside `sapling-llm/runtime` so that a web page calling other providers does not download it
 * (docs/decisions/0021-vertex-ai-entry-point.md). A generated client whose .baml declares a `vertex-ai`
 * client passes it to its runtime itself, and so does the CLI; code that builds a runtime by hand passes it
 * too: `SaplingRuntime.fromIr(ir, { providers: [vertexAi] })`. Browser-safe.
 */
import type { ProviderExtension } from "../llm/index.js";
import { createVertexAiAdapter } from "./vertex-ai-adapter.js";

/** The `vertex-ai` provider, for `RuntimeOptions.providers`. */
export const vertexAi: ProviderExtension = {
  provider: "vertex-ai",
  createAdapter: (options, settings) => createVertexAiAdapter(options, settings),
};
