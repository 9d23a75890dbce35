import type { GenerationContext } from "./generation-context.js";
import { banner, relativeModule } from "./module-text.js";

/**
 * `config.ts`: BAML's `baml_client/config` module — the log level functions (from `tracing.ts`) and
 * `resetBamlEnvVars` (from `globals.ts`) under the import path code written for BAML uses.
 */
export function emitConfig(generation: GenerationContext): string {
  const local = (name: string) => relativeModule(name, generation.importExtension);
  return `${banner()}export { getLogLevel, setLogLevel } from "${local("tracing")}";
export { resetBamlEnvVars } from "${local("globals")}";
`;
}
