/**
 * The provider table: each provider string names a wire format plus its URL, auth and defaults (BAML's
 * `clientspec.rs`). Presets (`ollama`, `openrouter`) are OpenAI chat with a different base URL and key.
 */

/** The options every provider reads (client-options.ts); never forwarded into the body. */
export const commonKeys: readonly string[] = [
  "base_url",
  "api_key",
  "headers",
  "query_params",
  "allowed_roles",
  "default_role",
  "remap_roles",
  "allowed_role_metadata",
  "supports_streaming",
  "finish_reason_allow_list",
  "finish_reason_deny_list",
  "http",
  "media_url_handler",
  "output_mode",
];

/** The `aws-bedrock` options its adapter consumes (everything else passes into the body). */
const awsBedrockOptionKeys = [
  "model_id",
  "region",
  "access_key_id",
  "secret_access_key",
  "session_token",
  "profile",
  "endpoint_url",
  "inference_configuration",
  "additional_model_request_fields",
] as const;

/** The `vertex-ai` options its adapter consumes (everything else passes into the body, as in BAML). */
const vertexAiOptionKeys = [
  "project_id",
  "location",
  "credentials",
  "credentials_content",
  "authorization",
  "anthropic_version",
] as const;

/** What a provider string means. */
export interface ProviderDefinition {
  /** The wire format. */
  wire:
    | "openai-chat"
    | "openai-responses"
    | "openai-transcriptions"
    | "anthropic-messages"
    | "google-generate-content"
    | "bedrock-converse";
  defaultBaseUrl?: string;
  /** The environment variable holding the default `api_key`. */
  apiKeyEnv?: string;
  /** Keys consumed by this provider (not forwarded into the body). */
  extraKeys: readonly string[];
  defaultRole?: string;
}

/** Every leaf provider Sapling speaks, by provider string (strategies live in the runtime). */
export const providerDefinitions: Readonly<Record<string, ProviderDefinition>> = {
  openai: {
    wire: "openai-chat",
    defaultBaseUrl: "https://api.openai.com/v1",
    apiKeyEnv: "OPENAI_API_KEY",
    extraKeys: [],
  },
  "openai-responses": {
    wire: "openai-responses",
    defaultBaseUrl: "https://api.openai.com/v1",
    apiKeyEnv: "OPENAI_API_KEY",
    extraKeys: ["client_response_type"],
  },
  // Speech to text: the audio the prompt renders, uploaded as a multipart form (BAML 0.226).
  "openai-transcriptions": {
    wire: "openai-transcriptions",
    defaultBaseUrl: "https://api.openai.com/v1",
    apiKeyEnv: "OPENAI_API_KEY",
    extraKeys: [],
  },
  "openai-generic": { wire: "openai-chat", extraKeys: ["client_response_type"] },
  "azure-openai": {
    wire: "openai-chat",
    apiKeyEnv: "AZURE_OPENAI_API_KEY",
    extraKeys: ["resource_name", "deployment_id", "api_version"],
  },
  ollama: {
    wire: "openai-chat",
    defaultBaseUrl: "http://localhost:11434/v1",
    extraKeys: [],
    defaultRole: "user",
  },
  openrouter: {
    wire: "openai-chat",
    defaultBaseUrl: "https://openrouter.ai/api/v1",
    apiKeyEnv: "OPENROUTER_API_KEY",
    extraKeys: [],
  },
  anthropic: {
    wire: "anthropic-messages",
    defaultBaseUrl: "https://api.anthropic.com",
    apiKeyEnv: "ANTHROPIC_API_KEY",
    extraKeys: [],
  },
  "google-ai": {
    wire: "google-generate-content",
    defaultBaseUrl: "https://generativelanguage.googleapis.com/v1beta",
    apiKeyEnv: "GOOGLE_API_KEY",
    extraKeys: [],
  },
  // Gemini (and Claude) on Vertex AI: the URL comes from project_id and location, auth from a
  // service-account key. Its adapter is in sapling-llm/vertex-ai, passed in `providers`.
  "vertex-ai": { wire: "google-generate-content", extraKeys: vertexAiOptionKeys },
  // Bedrock's Converse API, SigV4-signed with keys and region from the options or the environment. Its
  // adapter is in sapling-llm/aws-bedrock, passed in `providers` (provider-extension.ts).
  "aws-bedrock": { wire: "bedrock-converse", extraKeys: awsBedrockOptionKeys },
};

/** BAML's legacy provider names. */
const aliases: Readonly<Record<string, string>> = {
  "baml-openai-chat": "openai",
  "baml-azure-chat": "azure-openai",
  "baml-ollama-chat": "ollama",
  "baml-anthropic-chat": "anthropic",
};

/** The canonical provider string (`baml-openai-chat` → `openai`), or `undefined` if Sapling has no adapter. */
export function resolveProviderName(provider: string): string | undefined {
  const name = aliases[provider] ?? provider;
  return providerDefinitions[name] === undefined ? undefined : name;
}

/**
 * The options a provider reads itself (`model`, the common keys, its own keys), or `undefined` for a
 * provider Sapling has no adapter for. Any other option is forwarded into the request body unchanged.
 */
export function providerOptionNames(provider: string): string[] | undefined {
  const name = resolveProviderName(provider);
  if (name === undefined) return undefined;
  return ["model", ...commonKeys, ...(providerDefinitions[name] as ProviderDefinition).extraKeys];
}
