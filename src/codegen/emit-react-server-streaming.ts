import type { FunctionSignature } from "./function-signature.js";
import type { GenerationContext } from "./generation-context.js";
import { banner } from "./module-text.js";
import { parentModule, passedArguments, reactTypeImports, serverAction } from "./react-module-text.js";

/**
 * `react/server_streaming.ts`: one Next.js server action per function returning
 * `b.stream.Fn(...).toStreamable()` (NDJSON partial lines, then the final value or the error with the
 * model's raw text), as BAML generates them. The hooks read these with `readStream`.
 */
export function emitReactServerStreaming(
  generation: GenerationContext,
  signatures: FunctionSignature[],
): string {
  const imports = [
    ...(signatures.length > 0 ? [`import { b } from "${parentModule("index", generation)}";`] : []),
    ...reactTypeImports(
      generation,
      signatures.map((signature) => signature.parameters),
    ),
  ];
  const actions = signatures.map((signature) =>
    serverAction(
      signature,
      "ReadableStream<Uint8Array>",
      `b.stream.${signature.name}(${passedArguments(signature)}).toStreamable()`,
      `Server action: streams ${signature.name} as NDJSON lines (\`{"partial":…}\`, then \`{"final":…}\` or \`{"error":…}\`).`,
    ),
  );
  return `${banner()}"use server";

${imports.length > 0 ? `${imports.join("\n")}\n\n` : ""}${actions.join("\n")}${signatures.length === 0 ? "export {};\n" : ""}`;
}
