import { clientImports } from "./client-imports.js";
import type { GenerationContext } from "./generation-context.js";
import { banner, relativeModule } from "./module-text.js";
import { runtimeApi } from "./runtime-api.js";

/**
 * `sync_client.ts`: what can honestly be synchronous. BAML's sync client blocks the thread on each LLM
 * call; JavaScript cannot wait for HTTP without blocking the event loop (or every other request on the
 * server), so Sapling has no synchronous calls. Parsing needs no I/O, so `b.parse.Fn(text)` and
 * `b.parseStream.Fn(text)` are synchronous here, as on the async client. Calls go through
 * `async_client.ts`'s `b`, whatever `default_client_mode` says.
 */
export function emitSyncClient(generation: GenerationContext): string {
  const local = (name: string) => relativeModule(name, generation.importExtension);
  const imports = clientImports(generation, {
    runtimeTypes: [runtimeApi.callOptions, runtimeApi.runtime],
    uses: [],
    local: [
      `import { runtime } from "${local("globals")}";`,
      `import { LlmResponseParser, LlmStreamParser } from "${local("parser")}";`,
    ],
  });
  return `${banner()}${imports}
/**
 * The synchronous part of the client: parsing model answers you obtained yourself. LLM calls are
 * asynchronous only; use \`b\` from \`async_client\` (or the package index) for them.
 */
export class BamlSyncClient {
  protected readonly runtime: ${runtimeApi.runtime};
  protected readonly options: ${runtimeApi.callOptions};

  constructor(runtime: ${runtimeApi.runtime}, options: ${runtimeApi.callOptions} = {}) {
    this.runtime = runtime;
    this.options = options;
  }

  /** A client whose parses use \`options\` (merged over this client's), e.g. a TypeBuilder. */
  withOptions(options: ${runtimeApi.callOptions}): BamlSyncClient {
    return new BamlSyncClient(this.runtime, { ...this.options, ...options });
  }

  /** \`b.parse.Fn(text)\`: a model's complete answer parsed into the function's return type. */
  get parse(): LlmResponseParser {
    return new LlmResponseParser(this.runtime, this.options);
  }

  /** \`b.parseStream.Fn(text)\`: a partial answer parsed into the function's partial type. */
  get parseStream(): LlmStreamParser {
    return new LlmStreamParser(this.runtime, this.options);
  }
}

/** The synchronous client (parsing only). */
export const b: BamlSyncClient = new BamlSyncClient(runtime);
`;
}
