import type { Ir, Type } from "../../ir/index.js";
import { collectOutputSchema } from "./collect-output-schema.js";
import type { OutputFormatOptions } from "./output-format-options.js";
import { renderOutputSchema } from "./render-output-schema.js";

/**
 * The text `{{ ctx.output_format(...) }}` renders for `type`, identical to BAML's for the same schema and
 * options. Throws `OutputFormatError` for media types in the output, unknown hoisted classes and bad options.
 */
export function renderOutputFormat(ir: Ir, type: Type, options: OutputFormatOptions = {}): string {
  return renderOutputSchema(collectOutputSchema(ir, type), options);
}
