/**
 * A provider whose adapter ships in an entry point of its own rather than in `sapling-llm/runtime`
 * (docs/decisions/0020-aws-bedrock-entry-point.md, 0021-vertex-ai-entry-point.md): Bedrock's Converse
 * format, SigV4 signing, AWS event streams and credential files, and Vertex AI's service-account signing, are
 * large and used by few applications, and a web page that calls OpenAI should not download them. The
 * provider's name, options and defaults stay in the provider table, so `.baml` files are checked the same;
 * only building its adapter needs the extension, passed in `providers`.
 */

import { LlmOptionsError } from "../provider-helpers/index.js";
import type { ClientOptions } from "./client-options.js";
import type { ReadTextFile } from "./language-model.js";
import type { createAnthropicMessagesAdapter } from "./providers/anthropic-messages-adapter.js";
import type { createGoogleGenerateContentAdapter } from "./providers/google-generate-content-adapter.js";
import type { ProviderAdapter } from "./providers/provider-adapter.js";

/**
 * The wire formats an extension may build on (Vertex AI speaks Gemini's and, for Claude, Anthropic's). They
 * are handed over rather than imported from the `llm` door, so that the runtime entry, which imports that
 * door, does not ship them: they load with the adapters, on the first call (docs/decisions/0043-lazy-call-path.md).
 */
export interface ProviderAdapterKit {
  createAnthropicMessagesAdapter: typeof createAnthropicMessagesAdapter;
  createGoogleGenerateContentAdapter: typeof createGoogleGenerateContentAdapter;
}

/** What an extension's adapter gets besides the client's options. */
export interface ProviderExtensionSettings {
  /** The provider string, for error messages. */
  provider: string;
  env?: Readonly<Record<string, string | undefined>>;
  readTextFile?: ReadTextFile;
  /** The wire formats of the `llm` room it may wrap. */
  kit: ProviderAdapterKit;
}

/** Where each extension lives, by the provider it builds, for the message when a runtime was not given it. */
const extensionHomes = {
  "aws-bedrock": { name: "awsBedrock", module: "sapling-llm/aws-bedrock" },
  "vertex-ai": { name: "vertexAi", module: "sapling-llm/vertex-ai" },
} as const;

/** The providers whose adapters are extensions. */
export type ExtensionProvider = keyof typeof extensionHomes;

/**
 * The adapter of one provider, from an entry point of its own (`awsBedrock` of `sapling-llm/aws-bedrock`,
 * `vertexAi` of `sapling-llm/vertex-ai`).
 */
export interface ProviderExtension {
  /** The provider string it builds adapters for (a key of the provider table). */
  readonly provider: ExtensionProvider;
  createAdapter(options: ClientOptions, settings: ProviderExtensionSettings): ProviderAdapter;
}

/** The extension for `provider` among `providers`; throws `LlmOptionsError` saying how to pass it when absent. */
export function findProviderExtension(
  provider: ExtensionProvider,
  providers: readonly ProviderExtension[] | undefined,
): ProviderExtension {
  const extension = providers?.find((candidate) => candidate.provider === provider);
  if (extension !== undefined) return extension;
  const home = extensionHomes[provider];
  throw new LlmOptionsError(
    "provider",
    `${provider}'s adapter is in ${home.module}, which this runtime was not given. A generated client loads it itself when its .baml declares a client of this provider (regenerate it after adding one); otherwise pass it: import { ${home.name} } from "${home.module}", then SaplingRuntime.fromIr(ir, { providers: [${home.name}] }).`,
    { provider },
  );
}
