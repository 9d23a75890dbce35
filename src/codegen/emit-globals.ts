import type { GenerationContext } from "./generation-context.js";
import { banner, RUNTIME_MODULE, relativeModule } from "./module-text.js";

/**
 * `globals.ts`: the one runtime every generated client shares, built from the embedded IR. Environment
 * variables come from `process.env` where a `process` exists (Node, Bun, Deno); in browsers and edge
 * workers there is none, so calls pass `env` in their options instead. `process.env` is passed as the live
 * object, so variables set after import (dotenv) are seen at call time.
 */
export function emitGlobals(generation: GenerationContext): string {
  return `${banner()}import { SaplingRuntime } from "${RUNTIME_MODULE}";
import { ir } from "${relativeModule("ir", generation.moduleFormat)}";

const processEnv = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;

/** The runtime behind \`b\`; application code normally uses \`b\` instead. */
export const runtime: SaplingRuntime = SaplingRuntime.fromIr(ir, { env: processEnv ?? {} });

/**
 * Replaces the environment every later call of \`b\` reads (BAML's \`resetBamlEnvVars\`), e.g. after loading
 * a \`.env\` file; variables set to \`undefined\` are removed. Calls already running keep theirs.
 */
export function resetBamlEnvVars(envVars: Record<string, string | undefined>): void {
  runtime.resetEnv(envVars);
}
`;
}
