import type { Generator, Ir } from "../ir/index.js";

/** A generator block this package can run, or one it skips and why. */
export interface ResolvedGenerator {
  generator: Generator;
  /** `null` when the generator runs; otherwise one line for the user. */
  skipReason: string | null;
}

const otherLanguages = new Set([
  "python/pydantic",
  "python/pydantic/v1",
  "ruby/sorbet",
  "go",
  "rust",
  "rest/openapi",
]);

/**
 * The project's generator blocks in name order, each marked runnable (`output_type "typescript"`, and
 * `"typescript/react"`, which adds the React hooks) or skipped with a reason: other languages are BAML's
 * generators, not Sapling's.
 */
export function resolveGenerators(ir: Ir): ResolvedGenerator[] {
  return [...ir.generators]
    .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0))
    .map((generator) => ({ generator, skipReason: skipReason(generator) }));
}

function skipReason(generator: Generator): string | null {
  if (generator.outputType === "typescript" || generator.outputType === "typescript/react") return null;
  if (otherLanguages.has(generator.outputType)) {
    return `generator ${generator.name}: output_type "${generator.outputType}" is for BAML's own generator; Sapling generates "typescript" and "typescript/react" only.`;
  }
  return `generator ${generator.name}: unknown output_type "${generator.outputType}"; Sapling generates "typescript" and "typescript/react".`;
}
