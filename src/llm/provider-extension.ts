/**
 * A provider whose adapter ships in an entry point of its own rather than in `sapling-llm/runtime`
 * (docs/decisions/0020-aws-bedrock-entry-point.md): Bedrock's Converse format, SigV4 signing, AWS event
 * streams and credential files are a third of the provider code, and a web page that calls OpenAI should not
 * download them. The provider's name, options and defaults stay in the provider table, so `.baml` files
 * are checked the same; only building its adapter needs the extension, passed in `providers`.
 */
import type { ClientOptions } from "./client-options.js";
import type { ReadTextFile } from "./language-model.js";
import { LlmOptionsError } from "./llm-error.js";
import type { ProviderAdapter } from "./providers/provider-adapter.js";

/** What an extension's adapter gets besides the client's options. */
export interface ProviderExtensionSettings {
  /** The provider string, for error messages. */
  provider: string;
  env?: Readonly<Record<string, string | undefined>>;
  readTextFile?: ReadTextFile;
}

/** An adapter for one wire format, from an entry point of its own (`awsBedrock` of `sapling-llm/aws-bedrock`). */
export interface ProviderExtension {
  /** The wire format it speaks (a `ProviderDefinition`'s `wire`). */
  readonly wire: "bedrock-converse";
  createAdapter(options: ClientOptions, settings: ProviderExtensionSettings): ProviderAdapter;
}

/** Where each extension lives, for the message when a runtime was not given it. */
const extensionHomes: Readonly<Record<ProviderExtension["wire"], { name: string; module: string }>> = {
  "bedrock-converse": { name: "awsBedrock", module: "sapling-llm/aws-bedrock" },
};

/** The extension for `wire` among `providers`; throws `LlmOptionsError` saying how to pass it when absent. */
export function findProviderExtension(
  wire: ProviderExtension["wire"],
  provider: string,
  providers: readonly ProviderExtension[] | undefined,
): ProviderExtension {
  const extension = providers?.find((candidate) => candidate.wire === wire);
  if (extension !== undefined) return extension;
  const home = extensionHomes[wire];
  throw new LlmOptionsError(
    "provider",
    `${provider}'s adapter is in ${home.module}, which this runtime was not given. A generated client loads it itself when its .baml declares a client of this provider (regenerate it after adding one); otherwise pass it: import { ${home.name} } from "${home.module}", then SaplingRuntime.fromIr(ir, { providers: [${home.name}] }).`,
    { provider },
  );
}
