/**
 * The providers BAML knows, and what each one needs in `options`. Legacy `baml-*` names are accepted as
 * BAML does. A requirement lists alternatives: `[["base_url"], ["resource_name", "deployment_id"]]` means
 * base_url, or both resource_name and deployment_id.
 */
export const knownProviders: readonly string[] = [
  "openai",
  "openai-generic",
  "openai-responses",
  "openai-transcriptions",
  "azure-openai",
  "anthropic",
  "google-ai",
  "vertex-ai",
  "aws-bedrock",
  "ollama",
  "openrouter",
  "fallback",
  "round-robin",
  "baml-openai-chat",
  "baml-azure-chat",
  "baml-ollama-chat",
  "baml-anthropic-chat",
  "baml-fallback",
  "baml-round-robin",
];

const legacyNames: Record<string, string> = {
  "baml-openai-chat": "openai",
  "baml-azure-chat": "azure-openai",
  "baml-ollama-chat": "ollama",
  "baml-anthropic-chat": "anthropic",
  "baml-fallback": "fallback",
  "baml-round-robin": "round-robin",
};

export function isKnownProvider(provider: string): boolean {
  return knownProviders.includes(provider);
}

/** The current name of a provider (legacy `baml-*` names mapped to their modern twin). */
export function canonicalProvider(provider: string): string {
  return legacyNames[provider] ?? provider;
}

export function isStrategyProvider(provider: string): boolean {
  const canonical = canonicalProvider(provider);
  return canonical === "fallback" || canonical === "round-robin";
}

export interface OptionRequirement {
  /** Alternatives; each alternative is a set of options that must all be present. */
  anyOf: string[][];
  why: string;
  /**
   * `warning` when BAML itself accepts the client without it (a model can still come from a client
   * registry at call time); `error` when no request could ever be built.
   */
  level: "error" | "warning";
}

export const requiredOptions: Record<string, OptionRequirement[]> = {
  openai: [{ anyOf: [["model"]], why: 'name the model, e.g. model "gpt-4o-mini"', level: "warning" }],
  "openai-responses": [
    { anyOf: [["model"]], why: 'name the model, e.g. model "gpt-4o-mini"', level: "warning" },
  ],
  "openai-transcriptions": [
    { anyOf: [["model"]], why: 'name the model, e.g. model "whisper-1"', level: "warning" },
  ],
  "openai-generic": [
    {
      anyOf: [["base_url"]],
      why: 'openai-generic talks to any OpenAI-compatible server, so it needs its address: base_url "http://localhost:8000/v1"',
      level: "error",
    },
  ],
  "azure-openai": [
    {
      anyOf: [["base_url"], ["resource_name", "deployment_id"]],
      why: "give resource_name and deployment_id, or the full base_url of the deployment",
      level: "error",
    },
  ],
  anthropic: [
    { anyOf: [["model"]], why: 'name the model, e.g. model "claude-3-5-sonnet-latest"', level: "warning" },
  ],
  "vertex-ai": [
    { anyOf: [["model"]], why: 'name the model, e.g. model "gemini-1.5-pro"', level: "warning" },
    {
      anyOf: [["location"], ["base_url"]],
      why: 'give the region, e.g. location "us-central1" (or the full base_url of the models)',
      level: "error",
    },
  ],
  "aws-bedrock": [
    { anyOf: [["model"], ["model_id"]], why: "name the model with model (or model_id)", level: "warning" },
  ],
  ollama: [{ anyOf: [["model"]], why: 'name the model, e.g. model "llama3"', level: "warning" }],
  openrouter: [
    { anyOf: [["model"]], why: 'name the model, e.g. model "openai/gpt-4o-mini"', level: "warning" },
  ],
  fallback: [
    {
      anyOf: [["strategy"]],
      why: "list the clients to try in order: strategy [Primary, Backup]",
      level: "error",
    },
  ],
  "round-robin": [
    {
      anyOf: [["strategy"]],
      why: "list the clients to rotate through: strategy [ClientA, ClientB]",
      level: "error",
    },
  ],
};
