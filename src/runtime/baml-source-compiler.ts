import type { Ir, TestTypeBuilder } from "../ir/index.js";

/** What compiling an `addBaml` text yields: the additions, or the problems found. */
export interface BamlSourceCompilation {
  /** New classes, enums and aliases, and the members `dynamic` blocks add; absent when there are errors. */
  additions?: TestTypeBuilder | undefined;
  /** The diagnostics, rendered with code frames (`""` when there are none). */
  problems: string;
}

/**
 * Compiles the BAML text of `TypeBuilder.addBaml` against an IR. The runtime does not bundle the BAML
 * compiler (it stays out of the call path), so the compiler is passed in: the `sapling-llm` package exports
 * one as `typeBuilderCompiler`; pass it to the TypeBuilder that calls `addBaml`.
 */
export type BamlSourceCompiler = (source: string, ir: Ir) => BamlSourceCompilation;
