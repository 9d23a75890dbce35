import { renderDiagnostics } from "./diagnostics/index.js";
import { compileTypeBuilderSource, typeBuilderSourceFile } from "./language/index.js";
import type { BamlSourceCompiler } from "./runtime/index.js";

/**
 * The BAML compiler `TypeBuilder.addBaml` needs, which `sapling/runtime` does not include: compiles the
 * text against the IR and renders any diagnostics with code frames. The generated client's TypeBuilder
 * passes it; a hand-made one takes it as `new TypeBuilder(ir, { compileBaml: typeBuilderCompiler })`.
 */
export const typeBuilderCompiler: BamlSourceCompiler = (source, ir) => {
  const { additions, diagnostics } = compileTypeBuilderSource(source, ir);
  return { additions, problems: renderDiagnostics(diagnostics, { [typeBuilderSourceFile]: source }) };
};
