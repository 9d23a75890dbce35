/**
 * The output-schema room: a return type as the model is asked for it. The lowering that `ctx.output_format`
 * (the prompt room) and JSON Schema share (aliases resolved, recursive classes and aliases found), and
 * `toJsonSchema`, which the runtime needs synchronously for the tools and native output modes while the
 * prompt renderer loads only with a call (docs/decisions/0048-lazy-prompt-renderer.md).
 */
export type { OutputFormatErrorCode } from "./output-format-error.js";
export { OutputFormatError } from "./output-format-error.js";
export type { RecursionInfo } from "./recursion-info.js";
export { recursionInfo } from "./recursion-info.js";
export type { SchemaType } from "./schema-type.js";
export { schemaTypeKey, toSchemaType, unionArms } from "./schema-type.js";
export type { JsonSchema } from "./to-json-schema.js";
export { toJsonSchema } from "./to-json-schema.js";
