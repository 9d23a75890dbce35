import type { FunctionSignature } from "./function-signature.js";
import type { GenerationContext } from "./generation-context.js";
import { banner } from "./module-text.js";
import { reactTypeImports } from "./react-module-text.js";

/** `react/server_streaming_types.ts`: BAML's `StreamingServerTypes`, each function's partial type. */
export function emitReactStreamingTypes(
  generation: GenerationContext,
  signatures: FunctionSignature[],
): string {
  const imports = reactTypeImports(
    generation,
    signatures.map((signature) => signature.partialType),
  );
  const rows = signatures.map((signature) => `  ${signature.name}: ${signature.partialType.text};`);
  return `${banner()}${imports.length > 0 ? `${imports.join("\n")}\n\n` : ""}/** Each function's partial type: what \`streamData\` holds while it streams. */
export type StreamingServerTypes = {
${rows.join("\n")}
};
`;
}
