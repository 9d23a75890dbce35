/**
 * Claude on Vertex AI: the Anthropic messages body (and its answers and stream events, unchanged), sent to a
 * project's `…/publishers/anthropic/models/{model}:rawPredict` (`:streamRawPredict` when streaming). Vertex
 * names the model in the URL, so the body has no `model`; the API version travels in the body as
 * `anthropic_version` instead of the `anthropic-version` header.
 */

import type { ClientOptions, ProviderAdapter, ProviderAdapterKit, ProviderRequest } from "../llm/index.js";
import { withQuery } from "../provider-helpers/index.js";
import type { ChatMessage } from "../util/index.js";

/** The version Anthropic documents for Vertex AI, used when the client gives no `anthropic_version`. */
export const vertexAnthropicVersion = "vertex-2023-10-16";

/** Where a Claude model is: `modelsUrl` ends at `…/publishers/anthropic/models`; `model` is appended to it. */
export interface VertexAnthropicTarget {
  model: string;
  modelsUrl: string;
  anthropicVersion: string;
}

export function createVertexAnthropicAdapter(
  kit: ProviderAdapterKit,
  options: ClientOptions,
  { model, modelsUrl, anthropicVersion }: VertexAnthropicTarget,
): ProviderAdapter {
  const anthropic = kit.createAnthropicMessagesAdapter(options, modelsUrl);
  const headerSet = new Set(Object.keys(options.headers).map((name) => name.toLowerCase()));
  return {
    ...anthropic,
    modelId: model,
    buildRequest(messages: readonly ChatMessage[], stream: boolean): ProviderRequest {
      const request = anthropic.buildRequest(messages, stream);
      const { model: _inUrl, ...body } = request.body;
      const headers = { ...request.headers };
      // Vertex reads the version from the body; keep the header only if the client set it on purpose.
      if (!headerSet.has("anthropic-version")) delete headers["anthropic-version"];
      const method = stream ? "streamRawPredict" : "rawPredict";
      return {
        ...request,
        url: withQuery(`${modelsUrl}/${pathSegment(model)}:${method}`, options.queryParams),
        headers,
        body: { anthropic_version: anthropicVersion, ...body },
      };
    },
  };
}

/** Claude's Vertex model names carry a dated `@` (`claude-sonnet-4@20250514`), which a path may hold as is. */
function pathSegment(model: string): string {
  return encodeURIComponent(model).replace(/%40/g, "@");
}
