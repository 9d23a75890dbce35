import type { FunctionSignature } from "./function-signature.js";
import type { GenerationContext } from "./generation-context.js";
import { banner } from "./module-text.js";
import { REACT_MODULE, reactTypeImports, siblingModule } from "./react-module-text.js";

/**
 * `react/hook_types.ts` (Sapling's): each function's final type and argument list, and BAML's
 * `HookInput`, `HookOutput`, `HookData` and `FunctionNames` keyed by function name, shared by `hooks.tsx`
 * and `http_hooks.tsx` (both re-export them, as BAML's `hooks.tsx` exports them).
 */
export function emitReactHookTypes(generation: GenerationContext, signatures: FunctionSignature[]): string {
  const imports = [
    `import type { ActionHookInput, ActionHookOutput, StreamChoice } from "${REACT_MODULE}";`,
    ...reactTypeImports(
      generation,
      signatures.flatMap((signature) => [signature.parameters, signature.finalType]),
    ),
    `import type { StreamingServerTypes } from "${siblingModule("server_streaming_types", generation)}";`,
  ];
  const finals = signatures.map((signature) => `  ${signature.name}: ${signature.finalType.text};`);
  const argumentLists = signatures.map((signature) => `  ${signature.name}: [${signature.parameters.text}];`);
  return `${banner()}${imports.join("\n")}

export type { HookStatus, NonStreamingHookStatus, StreamingHookStatus } from "${REACT_MODULE}";

/** Each function's final type: what \`finalData\` holds, and what \`mutate\` resolves with. */
export type FinalServerTypes = {
${finals.join("\n")}
};

/** Each function's parameters, as \`mutate\` takes them. */
export type ServerArguments = {
${argumentLists.join("\n")}
};

/** The names of the functions that have a hook. */
export type FunctionNames = keyof FinalServerTypes;

/** The options of \`use{Fn}()\`: \`stream\`, \`onStreamData\`, \`onFinalData\`, \`onData\`, \`onError\`. */
export type HookInput<
  FunctionName extends FunctionNames = FunctionNames,
  Options extends StreamChoice = { stream?: true },
> = ActionHookInput<StreamingServerTypes[FunctionName], FinalServerTypes[FunctionName], Options>;

/** What \`use{Fn}()\` returns: \`data\`, \`streamData\`, \`finalData\`, the status flags, \`error\`, \`mutate\`, \`reset\`. */
export type HookOutput<
  FunctionName extends FunctionNames = FunctionNames,
  Options extends StreamChoice = { stream?: true },
> = ActionHookOutput<
  ServerArguments[FunctionName],
  StreamingServerTypes[FunctionName],
  FinalServerTypes[FunctionName],
  Options
>;

/** The type of \`data\` once it holds a value. */
export type HookData<
  FunctionName extends FunctionNames,
  Options extends StreamChoice = { stream?: true },
> = NonNullable<HookOutput<FunctionName, Options>["data"]>;
`;
}
