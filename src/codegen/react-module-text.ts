import type { FunctionSignature, Printed } from "./function-signature.js";
import type { GenerationContext } from "./generation-context.js";
import { RUNTIME_MODULE } from "./module-text.js";

/** The entry point the generated hooks import: the only room of the package that loads `react`. */
export const REACT_MODULE = "sapling-llm/react";

const mediaNames = ["Audio", "Image", "Pdf", "Video"];

/** `../types` with the generator's import extension: the client's modules, seen from `react/`. */
export function parentModule(name: string, generation: GenerationContext): string {
  return `../${name}${generation.importExtension}`;
}

/** `./server` with the generator's import extension, for the modules inside `react/`. */
export function siblingModule(name: string, generation: GenerationContext): string {
  return `./${name}${generation.importExtension}`;
}

/**
 * Type imports for a `react/` module: `types`, `partial_types` and media classes, exactly those the
 * printed pieces use (an unused import fails `noUnusedLocals` in an application's build).
 */
export function reactTypeImports(generation: GenerationContext, printed: Printed[]): string[] {
  const uses = new Set(printed.flatMap((piece) => [...piece.uses]));
  const lines: string[] = [];
  const media = mediaNames.filter((name) => uses.has(name));
  if (media.length > 0) lines.push(`import type { ${media.join(", ")} } from "${RUNTIME_MODULE}";`);
  const partialNames = ["partial_types", "StreamState"].filter((name) => uses.has(name));
  if (partialNames.length > 0) {
    lines.push(
      `import type { ${partialNames.join(", ")} } from "${parentModule("partial_types", generation)}";`,
    );
  }
  if (uses.has("types")) lines.push(`import type * as types from "${parentModule("types", generation)}";`);
  return lines;
}

/** `async (text: string, hint?: string | null): Promise<R> => { return body; }` as an exported server action. */
export function serverAction(
  signature: FunctionSignature,
  returnType: string,
  body: string,
  docs: string,
): string {
  return `/** ${docs} */
export const ${signature.name} = async (${signature.parameters.text}): Promise<${returnType}> => {
  return ${body};
};
`;
}

/** `text, hint`: the parameters passed on in order. */
export function passedArguments(signature: FunctionSignature): string {
  return signature.parameterLocals.join(", ");
}

/**
 * One `use{Fn}` hook with BAML's overloads (`stream: false` gives the final value only; otherwise partials
 * stream), its body given.
 */
export function hookFunction(signature: FunctionSignature, body: string): string {
  const name = JSON.stringify(signature.name);
  const doc = signature.docs
    ? `${signature.docs
        .trim()
        .replace(/\*\//g, "*\\/")
        .split(/\r?\n/)
        .map((line) => ` * ${line.trim()}`.trimEnd())
        .join("\n")}\n *\n`
    : "";
  return `/**
${doc} * Runs ${signature.name}: \`mutate(${signature.parameterNames.join(", ")})\` starts it; \`data\` shows each partial while it
 * streams, then the final value (\`stream: false\`: the final value only).
 */
export function use${signature.name}(props: HookInput<${name}, { stream: false }>): HookOutput<${name}, { stream: false }>;
export function use${signature.name}(props?: HookInput<${name}, { stream?: true }>): HookOutput<${name}, { stream: true }>;
export function use${signature.name}(
  props: HookInput<${name}, { stream?: boolean }> = {},
): HookOutput<${name}, { stream: true }> | HookOutput<${name}, { stream: false }> {
${body}
}
`;
}

/** The re-exports every hooks module starts with: BAML's hook types, keyed by function name. */
export function hookTypeExports(generation: GenerationContext): string {
  return `export type {
  FunctionNames,
  HookData,
  HookInput,
  HookOutput,
  HookStatus,
  NonStreamingHookStatus,
  StreamingHookStatus,
} from "${siblingModule("hook_types", generation)}";`;
}
