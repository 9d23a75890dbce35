import type { ConfigValue, Ir } from "../ir/index.js";

/**
 * Whether a project can call `provider`: a declared client uses it, or a function's client or a strategy's
 * entry is its `"provider/model"` shorthand. The generated client loads the `aws-bedrock` and `vertex-ai`
 * adapters only then (they live in `sapling-llm/aws-bedrock` and `sapling-llm/vertex-ai`, outside the
 * runtime entry).
 */
export function usesProvider(ir: Ir, provider: string): boolean {
  const isShorthand = (reference: string): boolean => reference.startsWith(`${provider}/`);
  const strategyEntries = (value: ConfigValue | undefined): string[] =>
    value?.kind === "array"
      ? value.items.flatMap((item) => (item.kind === "string" ? [item.value] : []))
      : [];
  return (
    ir.clients.some(
      (client) => client.provider === provider || strategyEntries(client.options.strategy).some(isShorthand),
    ) || ir.functions.some((fn) => isShorthand(fn.client))
  );
}

/**
 * The adapters of other entry points a project needs (each provider it can call that the runtime entry
 * does not hold), in a fixed order: what `globals.ts` imports and the sync client's worker loads.
 */
export function providerExtensionsOf(ir: Ir): { provider: string; name: string }[] {
  return [
    { provider: "aws-bedrock", name: "awsBedrock" },
    { provider: "vertex-ai", name: "vertexAi" },
  ].filter(({ provider }) => usesProvider(ir, provider));
}
