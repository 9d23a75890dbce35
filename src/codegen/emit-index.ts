import type { GenerationContext } from "./generation-context.js";
import { banner, RUNTIME_MODULE, relativeModule } from "./module-text.js";
import { runtimeApi } from "./runtime-api.js";

/**
 * Runtime names the index re-exports, so application code written for BAML's client
 * (`import { b, ClientRegistry, Collector, Image, BamlValidationError } from "./baml_client"`) needs no
 * second import.
 */
export const reexportedRuntimeValues = [
  "Audio",
  "BamlAbortError",
  "BamlAllClientsFailedError",
  "BamlClientError",
  "BamlClientFinishReasonError",
  "BamlClientHttpError",
  "BamlClientOptionsError",
  "BamlError",
  "BamlInvalidArgumentError",
  "BamlMissingEnvVarError",
  "BamlTimeoutError",
  "BamlValidationError",
  "ClientRegistry",
  "Collector",
  "Image",
  "Pdf",
  "Video",
];

/**
 * `index.ts`: the client's front door — `b`, the types (flat, and as the `types` namespace), the
 * `partial_types` namespace, the generated `TypeBuilder`, and the runtime's registry, collector, media
 * and error classes. BAML's names for the stream and request types (`BamlStream`, `HTTPRequest`) are
 * aliases, so annotations written for BAML only need their import changed.
 */
export function emitIndex(generation: GenerationContext): string {
  const local = (name: string) => relativeModule(name, generation.importExtension);
  return `${banner()}export { type BamlCallOptions, BamlAsyncClient, BamlStreamClient, b } from "${local("async_client")}";
export type { partial_types, StreamState } from "${local("partial_types")}";
export { TypeBuilder } from "${local("type_builder")}";
export { resetBamlEnvVars } from "${local("globals")}";
export * from "${local("tracing")}";
export * from "${local("types")}";
export * as types from "${local("types")}";
export * as watchers from "${local("watchers")}";
export type {
  BamlLogEvent,
  FunctionLog,
  LlmCall,
  LogLevel,
  TickReason,
  ${runtimeApi.callOptions},
  ${runtimeApi.httpRequest},
  ${runtimeApi.httpRequest} as HTTPRequest,
  ${runtimeApi.stream},
  ${runtimeApi.stream} as BamlStream,
} from "${RUNTIME_MODULE}";
export {
${reexportedRuntimeValues.map((name) => `  ${name},`).join("\n")}
} from "${RUNTIME_MODULE}";
`;
}
