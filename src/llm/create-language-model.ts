/**
 * A model for one client, built synchronously from its options: the provider table says which adapter
 * (provider-table.ts), and the adapter, the HTTP model and every wire format come with this file. The
 * runtime entry never imports it statically: `loadLanguageModel` (load-language-model.ts) loads it with
 * `import()` on the first call, so a page that only parses never downloads the adapters
 * (docs/decisions/0043-lazy-call-path.md). Tests and hosts that bundle everything may import it directly.
 */

import { LlmOptionsError } from "../provider-helpers/index.js";
import {
  type ProviderDefinition,
  providerDefinitions,
  resolveProviderName,
} from "../provider-table/index.js";
import type { ClientOptions } from "./client-options.js";
import { type ReadOptionsSettings, readClientOptions } from "./client-options.js";
import { HttpLanguageModel } from "./http-language-model.js";
import type { LanguageModel, LanguageModelDependencies } from "./language-model.js";
import { type ExtensionProvider, findProviderExtension } from "./provider-extension.js";
import { createAnthropicMessagesAdapter } from "./providers/anthropic-messages-adapter.js";
import { createGoogleGenerateContentAdapter } from "./providers/google-generate-content-adapter.js";
import { createOpenAiChatAdapter } from "./providers/openai-chat-adapter.js";
import { createOpenAiResponsesAdapter } from "./providers/openai-responses-adapter.js";
import { createOpenAiTranscriptionsAdapter } from "./providers/openai-transcriptions-adapter.js";
import type { ProviderAdapter } from "./providers/provider-adapter.js";

/**
 * A model for one client. `options` are the client's `options { … }` with `env.*` already resolved; when
 * `api_key` is absent, the provider's default environment variable is read from `dependencies.env`.
 * Throws `LlmOptionsError` for an unknown provider or invalid options.
 */
export function createLanguageModel(
  provider: string,
  options: Record<string, unknown>,
  dependencies: LanguageModelDependencies,
): LanguageModel {
  const name = resolveProviderName(provider);
  if (name === undefined) {
    throw new LlmOptionsError(
      "provider",
      `unknown provider "${provider}". Use one of ${Object.keys(providerDefinitions).join(", ")} (or fallback / round-robin strategies).`,
      { provider },
    );
  }
  const definition = providerDefinitions[name] as ProviderDefinition;
  const settings: ReadOptionsSettings = {
    provider: name,
    extraKeys: definition.extraKeys,
    // Gemini and Bedrock name the model in the URL path. (Azure picks it by deployment but accepts `model`.)
    modelInBody: definition.wire !== "google-generate-content" && definition.wire !== "bedrock-converse",
    ...roleDefaults(definition, options.model),
    // BAML sends a streamed transcription call as one whole request.
    ...(definition.wire === "openai-transcriptions" ? { supportsStreamingByDefault: false } : {}),
  };
  const read = readClientOptions(options, settings);
  if (read.apiKey === undefined && definition.apiKeyEnv !== undefined) {
    const fromEnv = dependencies.env?.[definition.apiKeyEnv];
    if (fromEnv !== undefined && fromEnv !== "") read.apiKey = fromEnv;
  }
  const adapter = createAdapter(name, definition, read, dependencies);
  return new HttpLanguageModel(name, read, adapter, dependencies.fetch, dependencies.mediaUrls);
}

/**
 * BAML's role defaults: OpenAI-family clients send an unmarked prompt, and any role they do not allow, as
 * `system`; others (and Ollama) as `user`. OpenAI's o1 models (`o1`, `o1-mini`, `o1-preview`, dated
 * snapshots) take no system message, so there only `user` and `assistant` are allowed and a system turn
 * becomes a user turn (merged with its neighbours), as BAML sends it.
 */
function roleDefaults(
  definition: ProviderDefinition,
  model: unknown,
): Pick<ReadOptionsSettings, "defaultRole" | "defaultAllowedRoles"> {
  const openAiFamily = definition.wire === "openai-chat" || definition.wire === "openai-responses";
  if (openAiFamily && typeof model === "string" && /^o1(-|$)/.test(model)) {
    return { defaultRole: "user", defaultAllowedRoles: ["user", "assistant"] };
  }
  if (definition.defaultRole !== undefined) return { defaultRole: definition.defaultRole };
  return openAiFamily ? { defaultRole: "system" } : {};
}

function createAdapter(
  name: string,
  definition: ProviderDefinition,
  options: ClientOptions,
  { env, readTextFile, providers }: LanguageModelDependencies,
): ProviderAdapter {
  const fail = (option: string, detail: string): never => {
    throw new LlmOptionsError(option, detail, { provider: name });
  };
  // Adapters that live in entry points of their own (provider-extension.ts).
  const fromExtension = (provider: ExtensionProvider): ProviderAdapter =>
    findProviderExtension(provider, providers).createAdapter(options, {
      provider,
      kit: { createAnthropicMessagesAdapter, createGoogleGenerateContentAdapter },
      ...(env === undefined ? {} : { env }),
      ...(readTextFile === undefined ? {} : { readTextFile }),
    });
  switch (definition.wire) {
    case "bedrock-converse":
      return fromExtension("aws-bedrock");
    case "anthropic-messages":
      return createAnthropicMessagesAdapter(
        options,
        options.baseUrl ?? (definition.defaultBaseUrl as string),
      );
    case "google-generate-content":
      if (name === "vertex-ai") return fromExtension(name);
      return createGoogleGenerateContentAdapter(
        options,
        options.baseUrl ?? (definition.defaultBaseUrl as string),
      );
    case "openai-responses": {
      // BAML documents `client_response_type "openai-responses"` as this provider's default; nothing else fits.
      const responseType = options.extra.client_response_type ?? "openai-responses";
      if (responseType !== "openai-responses")
        fail("client_response_type", 'openai-responses answers only in "openai-responses" format.');
      const headers: Record<string, string> = {};
      if (options.apiKey !== undefined) headers.authorization = `Bearer ${options.apiKey}`;
      const baseUrl = options.baseUrl ?? (definition.defaultBaseUrl as string);
      return createOpenAiResponsesAdapter({ provider: name, url: `${baseUrl}/responses`, headers, options });
    }
    case "openai-transcriptions": {
      const headers: Record<string, string> = {};
      if (options.apiKey !== undefined) headers.authorization = `Bearer ${options.apiKey}`;
      const baseUrl = options.baseUrl ?? (definition.defaultBaseUrl as string);
      return createOpenAiTranscriptionsAdapter({
        provider: name,
        url: `${baseUrl}/audio/transcriptions`,
        headers,
        options,
      });
    }
    case "openai-chat": {
      const headers: Record<string, string> = {};
      const query: Record<string, string> = {};
      let baseUrl = options.baseUrl ?? definition.defaultBaseUrl;
      if (name === "azure-openai") {
        if (options.apiKey !== undefined) headers["api-key"] = options.apiKey;
        const apiVersion = options.extra.api_version;
        if (typeof apiVersion !== "string")
          fail("api_version", 'is required for azure-openai (e.g. "2024-10-21").');
        query["api-version"] = apiVersion as string;
        if (baseUrl === undefined) {
          const resource = options.extra.resource_name;
          const deployment = options.extra.deployment_id;
          if (typeof resource !== "string" || typeof deployment !== "string") {
            fail("resource_name", "azure-openai needs resource_name and deployment_id, or base_url.");
          }
          baseUrl = `https://${resource}.openai.azure.com/openai/deployments/${deployment}`;
        }
      } else if (options.apiKey !== undefined) {
        headers.authorization = `Bearer ${options.apiKey}`;
      }
      if (baseUrl === undefined)
        fail("base_url", `is required for ${name} (e.g. "http://localhost:8000/v1").`);
      const openAi = createOpenAiChatAdapter({
        provider: name,
        url: `${baseUrl}/chat/completions`,
        headers,
        query,
        options,
        // BAML sends Azure deployments max_tokens 4096 unless told otherwise (`max_tokens null` removes it);
        // a client that sets max_completion_tokens (reasoning models) must not get both.
        ...(name === "azure-openai" && options.passthrough.max_completion_tokens === undefined
          ? { defaults: { max_tokens: azureDefaultMaxTokens } }
          : {}),
      });
      return withResponseType(openAi, options, fail);
    }
  }
}

/**
 * `client_response_type` (openai-generic): an OpenAI-shaped request to a gateway that answers in another
 * provider's format. The request stays OpenAI's; answers and streams are read with that provider's reader.
 */
/** BAML's default `max_tokens` for `azure-openai`. */
const azureDefaultMaxTokens = 4096;

function withResponseType(
  openAi: ProviderAdapter,
  options: ClientOptions,
  fail: (option: string, detail: string) => never,
): ProviderAdapter {
  const responseType = options.extra.client_response_type ?? "openai";
  if (responseType === "openai") return openAi;
  let reader: ProviderAdapter;
  if (responseType === "anthropic") reader = createAnthropicMessagesAdapter(options, "");
  else if (responseType === "google" || responseType === "vertex")
    reader = createGoogleGenerateContentAdapter(options, "");
  else return fail("client_response_type", 'expected "openai", "anthropic", "google" or "vertex".');
  return {
    ...openAi,
    parseResponse: reader.parseResponse,
    createStreamReader: reader.createStreamReader,
    ...(openAi.toolCalls && reader.toolCalls
      ? { toolCalls: { ...reader.toolCalls, writeRequest: openAi.toolCalls.writeRequest } }
      : {}),
  };
}
