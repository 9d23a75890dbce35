import { clientClass, mergedOptions, parameterList } from "./client-class.js";
import { clientImports } from "./client-imports.js";
import type { FunctionSignature } from "./function-signature.js";
import type { GenerationContext } from "./generation-context.js";
import { banner } from "./module-text.js";
import { runtimeApi } from "./runtime-api.js";

/**
 * `async_request.ts`: `b.request.Fn(args)` and `b.streamRequest.Fn(args)` — the provider HTTP request a
 * call or a stream would send (URL, headers, JSON body), for sending it yourself (batch APIs, other SDKs).
 */
export function emitAsyncRequest(generation: GenerationContext, signatures: FunctionSignature[]): string {
  return emitRequestModule(generation, signatures, "async");
}

/**
 * `sync_request.ts`: the same requests built synchronously, for the sync client (as BAML's). A request
 * that needs I/O to build (a media URL to download, a Bedrock signature, a Vertex AI token) throws
 * `BamlInvalidArgumentError`, saying to use the async client's.
 */
export function emitSyncRequest(generation: GenerationContext, signatures: FunctionSignature[]): string {
  return emitRequestModule(generation, signatures, "sync");
}

function emitRequestModule(
  generation: GenerationContext,
  signatures: FunctionSignature[],
  mode: "async" | "sync",
): string {
  const prefix = mode === "async" ? "Async" : "Sync";
  const requestClass = (name: string, stream: boolean, docs: string) =>
    clientClass({
      name,
      docs,
      signatures,
      method: (signature) => ({
        head:
          mode === "async"
            ? `async ${signature.name}${parameterList(signature)}: Promise<${runtimeApi.httpRequest}>`
            : `${signature.name}${parameterList(signature)}: ${runtimeApi.httpRequest}`,
        body: `return this.runtime.${mode === "async" ? "buildRequest" : "buildRequestSync"}(${JSON.stringify(signature.name)}, ${signature.argumentsObject}, { stream: ${stream} }, ${mergedOptions});`,
      }),
    });
  const imports = clientImports(generation, {
    runtimeTypes: [
      runtimeApi.callOptions,
      runtimeApi.runtime,
      ...(signatures.length > 0 ? [runtimeApi.httpRequest] : []),
    ],
    uses: signatures.map((signature) => signature.parameters.uses),
  });
  return `${banner()}${imports}
${requestClass(`${prefix}HttpRequest`, false, "`b.request.Fn(args)`: the HTTP request a call would send, without sending it.")}
${requestClass(`${prefix}HttpStreamRequest`, true, "`b.streamRequest.Fn(args)`: the HTTP request a stream would send, without sending it.")}`;
}
