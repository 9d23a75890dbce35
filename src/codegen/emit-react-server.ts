import type { FunctionSignature } from "./function-signature.js";
import type { GenerationContext } from "./generation-context.js";
import { banner } from "./module-text.js";
import { parentModule, passedArguments, reactTypeImports, serverAction } from "./react-module-text.js";

/**
 * `react/server.ts` (`output_type "typescript/react"`): one Next.js server action per function, calling
 * `b.Fn(...)` on the server, as BAML generates them. The hooks call these for `stream: false`.
 */
export function emitReactServer(generation: GenerationContext, signatures: FunctionSignature[]): string {
  const imports = [
    ...(signatures.length > 0 ? [`import { b } from "${parentModule("index", generation)}";`] : []),
    ...reactTypeImports(
      generation,
      signatures.flatMap((signature) => [signature.parameters, signature.finalType]),
    ),
  ];
  const actions = signatures.map((signature) =>
    serverAction(
      signature,
      signature.finalType.text,
      `b.${signature.name}(${passedArguments(signature)})`,
      `Server action: runs ${signature.name} and resolves with its final value.`,
    ),
  );
  return `${banner()}"use server";

${imports.length > 0 ? `${imports.join("\n")}\n\n` : ""}${actions.join("\n")}${signatures.length === 0 ? "export {};\n" : ""}`;
}
