import { clientClass, mergedOptions, parameterList } from "./client-class.js";
import { clientImports } from "./client-imports.js";
import { SYNC_CALLS } from "./emit-sync-request.js";
import type { FunctionSignature } from "./function-signature.js";
import type { GenerationContext } from "./generation-context.js";
import { banner, relativeModule } from "./module-text.js";
import { runtimeApi } from "./runtime-api.js";

/**
 * `sync_client.ts`: BAML's synchronous client. `b.Fn(args)` blocks until the call ends and returns its
 * value (the call runs on a worker thread while this one waits: `sync_request.ts`), `b.request.Fn` /
 * `b.streamRequest.Fn` return the request a call or a stream would send, and `b.parse.Fn` /
 * `b.parseStream.Fn` parse, as on the async client. Node only; each call blocks the event loop, so servers
 * should use the async client. Calls go through `async_client.ts`'s `b` unless code imports this one,
 * whatever `default_client_mode` says.
 */
export function emitSyncClient(generation: GenerationContext, signatures: FunctionSignature[]): string {
  const local = (name: string) => relativeModule(name, generation.importExtension);
  const imports = clientImports(generation, {
    runtimeTypes: [runtimeApi.callOptions, runtimeApi.runtime],
    uses: signatures.flatMap((signature) => [signature.parameters.uses, signature.finalType.uses]),
    local: [
      `import { runtime } from "${local("globals")}";`,
      `import { LlmResponseParser, LlmStreamParser } from "${local("parser")}";`,
      // A project without functions makes no call, so it leaves the engine unimported (\`noUnusedLocals\`).
      `import { ${signatures.length > 0 ? `${SYNC_CALLS}, ` : ""}SyncHttpRequest, SyncHttpStreamRequest } from "${local("sync_request")}";`,
    ],
  });
  const members = `
  /** A client whose calls use \`options\` (merged over this client's), e.g. a TypeBuilder or a Collector. */
  withOptions(options: ${runtimeApi.callOptions}): BamlSyncClient {
    return new BamlSyncClient(this.runtime, { ...this.options, ...options });
  }

  /** \`b.request.Fn(args)\`: the HTTP request a call would send, without sending it. */
  get request(): SyncHttpRequest {
    return new SyncHttpRequest(this.runtime, this.options);
  }

  /** \`b.streamRequest.Fn(args)\`: the HTTP request a stream would send, without sending it. */
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
`;
  const client = clientClass({
    name: "BamlSyncClient",
    docs: "BAML's synchronous client: each call blocks until it ends (Node only; servers use the async client).",
    signatures,
    members,
    method: (signature) => ({
      head: `${signature.name}${parameterList(signature)}: ${signature.finalType.text}`,
      body: `return ${SYNC_CALLS}.call(${JSON.stringify(signature.name)}, ${signature.argumentsObject}, ${mergedOptions}) as ${signature.finalType.text};`,
    }),
  });
  return `${banner()}${imports}
${client}
/** The synchronous client. */
export const b: BamlSyncClient = new BamlSyncClient(runtime);
`;
}
