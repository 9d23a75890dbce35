import type { FunctionSignature } from "./function-signature.js";
import type { GenerationContext } from "./generation-context.js";
import { banner } from "./module-text.js";
import { hookFunction, hookTypeExports, REACT_MODULE, siblingModule } from "./react-module-text.js";

/**
 * `react/http_hooks.tsx` (Sapling's): the same `use{Fn}()` hooks as `hooks.tsx`, reaching the functions
 * over HTTP — `sapling serve`'s `/call` and `/stream` routes, or the same routes of the application's server —
 * for React apps without server actions (Vite, Remix, a plain SPA). It imports no server code, so the
 * page's bundle holds neither the runtime nor the prompts.
 */
export function emitReactHttpHooks(generation: GenerationContext, signatures: FunctionSignature[]): string {
  const imports =
    signatures.length === 0
      ? []
      : [
          `import * as SaplingReact from "${REACT_MODULE}";`,
          `import type { FinalServerTypes, HookInput, HookOutput, ServerArguments } from "${siblingModule("hook_types", generation)}";`,
        ];
  const hooks = signatures.map((signature) => {
    const name = JSON.stringify(signature.name);
    const parameters = `[${signature.parameterNames.map((parameter) => JSON.stringify(parameter)).join(", ")}]`;
    return hookFunction(
      signature,
      `  const source = SaplingReact.useHttpSource<ServerArguments[${name}], FinalServerTypes[${name}]>(${name}, ${parameters});
  return SaplingReact.useSaplingAction(source, props as HookInput<${name}, { stream?: true }>);`,
    );
  });
  return `${banner()}"use client";

${imports.length > 0 ? `${imports.join("\n")}\n\n` : ""}${hookTypeExports(generation)}
${hooks.map((hook) => `\n${hook}`).join("")}`;
}
