/**
 * The `sapling-llm` package root: the compile API (BAML text → IR), diagnostics rendering, and the IR types.
 * Runtime code lives behind `sapling-llm/runtime`, which generated clients import. This entry point stays
 * browser-safe: an application may pass its `typeBuilderCompiler` to a TypeBuilder for `addBaml`.
 */

export { CodegenError, generateClient, type ResolvedGenerator, resolveGenerators } from "./codegen/index.js";
export type { Diagnostic, DiagnosticNote, Severity, Span } from "./diagnostics/index.js";
export { renderDiagnostics } from "./diagnostics/index.js";
export type * from "./ir/index.js";
export {
  type CompileResult,
  compile,
  compileTypeBuilderSource,
  formatBaml,
  parseTypeExpression,
  type TypeBuilderSourceResult,
} from "./language/index.js";
export { type CompiledSchema, compileSchema, parseWithSchema, SchemaError } from "./parse-with-schema.js";
export {
  type JsonSchema,
  OutputFormatError,
  type OutputFormatOptions,
  type PromptClient,
  type RenderPromptContext,
  renderOutputFormat,
  renderPrompt,
  TemplateError,
  toJsonSchema,
} from "./prompt/index.js";
export {
  type CheckResult,
  type ConstraintEvaluator,
  checkPartialValue,
  createStreamParser,
  explainFlags,
  type Flag,
  type FlagKind,
  type ParseOptions,
  type ParseResult,
  type PartialField,
  type PartialParseOptions,
  type PartialType,
  parsePartial,
  parseValue,
  partialClassFields,
  partialType,
  partialTypeToString,
  SapConfigurationError,
  type SapErrorCode,
  SapParseError,
  type StreamParser,
  type StreamParserOptions,
  type StreamPush,
} from "./sap/index.js";
export { typeBuilderCompiler } from "./type-builder-compiler.js";
