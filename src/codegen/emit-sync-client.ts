import { clientImports } from "./client-imports.js";
import type { GenerationContext } from "./generation-context.js";
import { banner, relativeModule } from "./module-text.js";
import { runtimeApi } from "./runtime-api.js";

/**
 * `sync_client.ts`: what can honestly be synchronous. BAML's sync client blocks the thread on each LLM
 * call; JavaScript cannot wait for HTTP without blocking the event loop (or every other request on the
 * server), so Sapling has no synchronous calls. Parsing needs no I/O, so `b.parse.Fn(text)` and
 * `b.parseStream.Fn(text)` are synchronous here, as on the async client; so is building a request
 * (`b.request.Fn`, `b.streamRequest.Fn`) that needs no download or signature. Calls go through
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
      `import { SyncHttpRequest, SyncHttpStreamRequest } from "${local("sync_request")}";`,
    ],
  });
  return `${banner()}${imports}
/**
 * The synchronous part of the client: requests to send yourself, and parsing model answers you obtained
 * yourself. LLM calls are asynchronous only; use \`b\` from \`async_client\` (or the package index).
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

  /**
   * \`b.request.Fn(args)\`: the HTTP request a call would send, built synchronously; one that needs I/O to
   * build (a media URL to download, a signature) throws, saying to use the async client's.
   */
  get request(): SyncHttpRequest {
    return new SyncHttpRequest(this.runtime, this.options);
  }

  /** \`b.streamRequest.Fn(args)\`: the HTTP request a stream would send, built synchronously. */
  get streamRequest(): SyncHttpStreamRequest {
    return new SyncHttpStreamRequest(this.runtime, this.options);
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
