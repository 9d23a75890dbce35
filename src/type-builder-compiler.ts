import { renderDiagnostics } from "./diagnostics/index.js";
import { compileTypeBuilderSource, typeBuilderSourceFile } from "./language/index.js";
import type { BamlSourceCompiler } from "./runtime/index.js";

/**
 * The BAML compiler `TypeBuilder.addBaml` needs, which `sapling-llm/runtime` does not include: compiles the
 * text against the IR and renders any diagnostics with code frames. Pass it to the builder that calls
 * `addBaml`: `new TypeBuilder({ compileBaml: typeBuilderCompiler })` with the generated client's class,
 * `new TypeBuilder(ir, { compileBaml: typeBuilderCompiler })` with the runtime's.
 */
export const typeBuilderCompiler: BamlSourceCompiler = (source, ir) => {
  const { additions, diagnostics } = compileTypeBuilderSource(source, ir);
  return { additions, problems: renderDiagnostics(diagnostics, { [typeBuilderSourceFile]: source }) };
};
