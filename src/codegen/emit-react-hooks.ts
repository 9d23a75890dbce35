import type { FunctionSignature } from "./function-signature.js";
import type { GenerationContext } from "./generation-context.js";
import { banner } from "./module-text.js";
import { hookFunction, hookTypeExports, REACT_MODULE, siblingModule } from "./react-module-text.js";

/**
 * `react/hooks.tsx`: BAML's `use{Fn}()` per function, backed by the Next.js server actions of `server.ts`
 * and `server_streaming.ts` (for a Next.js app). The hook itself is `useSaplingAction` of
 * `sapling-llm/react`; this module only binds each function's actions and types to it.
 */
export function emitReactHooks(generation: GenerationContext, signatures: FunctionSignature[]): string {
  const imports =
    signatures.length === 0
      ? []
      : [
          `import * as SaplingReact from "${REACT_MODULE}";`,
          `import type { HookInput, HookOutput } from "${siblingModule("hook_types", generation)}";`,
          `import * as Actions from "${siblingModule("server", generation)}";`,
          `import * as StreamingActions from "${siblingModule("server_streaming", generation)}";`,
        ];
  const hooks = signatures.map((signature) => {
    const source = `${signature.name}Source`;
    return `const ${source} = SaplingReact.serverActionSource(Actions.${signature.name}, StreamingActions.${signature.name});

${hookFunction(signature, `  return SaplingReact.useSaplingAction(${source}, props as HookInput<${JSON.stringify(signature.name)}, { stream?: true }>);`)}`;
  });
  return `${banner()}"use client";

${imports.length > 0 ? `${imports.join("\n")}\n\n` : ""}${hookTypeExports(generation)}
${hooks.map((hook) => `\n${hook}`).join("")}`;
}
