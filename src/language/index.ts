/**
 * The BAML language front end: `.baml` text → checked IR, with diagnostics as data.
 */

export { renderDiagnostics } from "../diagnostics/index.js";
export type * as ast from "./ast.js";
export { type AttributePlace, attributesAllowedIn } from "./check-attributes.js";
export type { Located, ProjectSymbols } from "./check-context.js";
export {
  type CheckedProject,
  type CompileResult,
  checkParsedFiles,
  compile,
  lowerChecked,
  type ParsedFile,
} from "./compile.js";
export {
  compileTypeBuilderSource,
  type TypeBuilderSourceResult,
  typeBuilderSourceFile,
} from "./compile-type-builder-source.js";
export { textOf } from "./config-values.js";
export type { FormattedBaml } from "./format-baml.js";
export { formatBaml, formatBamlFile } from "./format-baml.js";
export { IncrementalChecker } from "./incremental-checker.js";
export { type JinjaNames, jinjaNames } from "./jinja-names.js";
export { parseTypeExpression, typeExpressionFile } from "./parse-type-expression.js";
export { parseSource } from "./parser.js";
export { canonicalProvider, isStrategyProvider, knownProviders } from "./providers.js";
export { builtinTypeNames } from "./resolve-type.js";
