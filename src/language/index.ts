/**
 * The BAML language front end: `.baml` text → checked IR, with diagnostics as data.
 */

export { renderDiagnostics } from "../diagnostics/index.js";
export type * as ast from "./ast.js";
export { type CompileResult, compile } from "./compile.js";
export {
  compileTypeBuilderSource,
  type TypeBuilderSourceResult,
  typeBuilderSourceFile,
} from "./compile-type-builder-source.js";
export type { FormattedBaml } from "./format-baml.js";
export { formatBaml, formatBamlFile } from "./format-baml.js";
export { parseTypeExpression, typeExpressionFile } from "./parse-type-expression.js";
export { parseSource } from "./parser.js";
