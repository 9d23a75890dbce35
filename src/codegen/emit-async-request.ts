import { requestClass as requestClassOf } from "./client-class.js";
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
  const requestClass = (name: string, stream: boolean, docs: string) =>
    requestClassOf({ name, docs, signatures, stream, engine: "this.runtime", asynchronous: true });
  const imports = clientImports(generation, {
    runtimeTypes: [
      runtimeApi.callOptions,
      runtimeApi.runtime,
      ...(signatures.length > 0 ? [runtimeApi.httpRequest] : []),
    ],
    uses: signatures.map((signature) => signature.parameters.uses),
  });
  return `${banner()}${imports}
${requestClass("AsyncHttpRequest", false, "`b.request.Fn(args)`: the HTTP request a call would send, without sending it.")}
${requestClass("AsyncHttpStreamRequest", true, "`b.streamRequest.Fn(args)`: the HTTP request a stream would send, without sending it.")}`;
}
