import { clientClass, mergedOptions } from "./client-class.js";
import { clientImports } from "./client-imports.js";
import type { FunctionSignature } from "./function-signature.js";
import type { GenerationContext } from "./generation-context.js";
import { banner } from "./module-text.js";
import { OPTIONS_PARAMETER, runtimeApi } from "./runtime-api.js";

/**
 * `parser.ts`: `b.parse.Fn(text)` (a complete answer → the return type, or a `BamlValidationError`) and
 * `b.parseStream.Fn(text)` (a prefix of an answer → the partial type). Both are synchronous: parsing needs
 * no I/O.
 */
export function emitParser(generation: GenerationContext, signatures: FunctionSignature[]): string {
  const parameters = `(llmResponse: string, ${OPTIONS_PARAMETER}?: ${runtimeApi.callOptions})`;
  const responseParser = clientClass({
    name: "LlmResponseParser",
    docs: "`b.parse.Fn(text)`: a model's complete answer parsed into the function's return type.",
    signatures,
    method: (signature) => ({
      head: `${signature.name}${parameters}: ${signature.finalType.text}`,
      body: `return this.runtime.parse(${JSON.stringify(signature.name)}, llmResponse, ${mergedOptions}) as ${signature.finalType.text};`,
    }),
  });
  const streamParser = clientClass({
    name: "LlmStreamParser",
    docs: "`b.parseStream.Fn(text)`: a partial answer parsed into the function's partial type.",
    signatures,
    method: (signature) => ({
      head: `${signature.name}${parameters}: ${signature.partialType.text}`,
      body: `return this.runtime.parseStream(${JSON.stringify(signature.name)}, llmResponse, ${mergedOptions}) as ${signature.partialType.text};`,
    }),
  });
  const imports = clientImports(generation, {
    runtimeTypes: [runtimeApi.callOptions, runtimeApi.runtime],
    uses: signatures.flatMap((signature) => [signature.finalType.uses, signature.partialType.uses]),
  });
  return `${banner()}${imports}
${responseParser}
${streamParser}`;
}
