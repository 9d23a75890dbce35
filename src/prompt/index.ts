/**
 * The prompt room: renders BAML prompt templates into chat messages, `ctx.output_format` schema text
 * (byte-identical to BAML's), JSON Schema for the same types, and `@check`/`@assert` constraint expressions.
 */
export type { JsonSchema, OutputFormatErrorCode } from "../output-schema/index.js";
export { OutputFormatError, toJsonSchema } from "../output-schema/index.js";
export type { TemplateErrorCode } from "./errors.js";
export { TemplateError } from "./errors.js";
export { comparedValue, evaluateConstraint, evaluateTestConstraint } from "./evaluate-constraint.js";
export { LinearRegex } from "./jinja/linear-regex.js";
export type { OutputFormatOptions } from "./output-format/output-format-options.js";
export {
  OUTPUT_FORMAT_OPTION_NAMES,
  parseOutputFormatOptions,
} from "./output-format/output-format-options.js";
export { renderOutputFormat } from "./output-format/render-output-format.js";
export type { PromptClient, RenderPromptContext } from "./render-prompt.js";
export { renderPrompt } from "./render-prompt.js";
