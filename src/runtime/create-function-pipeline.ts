import type { Ir, IrIndex, LlmFunction } from "../ir/index.js";
import { evaluateConstraint, renderPrompt } from "../prompt/index.js";
import { parseValue, SapParseError } from "../sap/index.js";
import type { ChatMessage } from "../util/index.js";
import { BamlValidationError } from "./errors.js";
import { type FunctionPipeline, promptToText } from "./function-pipeline.js";
import { hasChecks, wrapChecked } from "./wrap-checked.js";

/**
 * The real pipeline of one function: prompts from the prompt room (rendered per client, since templates
 * may read `ctx.client`), answers parsed by the Schema-Aligned Parser against the return type, `@check`
 * results wrapped as `Checked` values. Partials re-parse the text so far in prefix mode.
 */
export function createFunctionPipeline(
  ir: Ir,
  index: IrIndex,
  fn: LlmFunction,
  args: Record<string, unknown>,
  tags: Record<string, string> = {},
): FunctionPipeline {
  const type = fn.returnType;
  const checked = hasChecks(type, index);
  const finish = (value: unknown): unknown =>
    checked ? wrapChecked(value, type, index, evaluateConstraint) : value;
  const parse = (text: string, partial: boolean): unknown =>
    finish(parseValue(text, type, index, { partial, constraintEvaluator: evaluateConstraint }).value);

  return {
    render: (client) => renderPrompt(ir, fn.name, args, { client, tags }),
    parseFinal: (text: string, messages: readonly ChatMessage[]) => {
      try {
        return parse(text, false);
      } catch (error) {
        if (!SapParseError.isInstance(error)) throw error;
        throw new BamlValidationError(`${fn.name}: ${error.message}`, promptToText(messages), text, error);
      }
    },
    parsePartial: (text) => parse(text, true),
    createPartialParser: () => {
      let buffer = "";
      return {
        push: (chunk: string) => {
          buffer += chunk;
          try {
            return parse(buffer, true);
          } catch {
            // As in BAML, a prefix that cannot be read yet produces no partial; the final parse decides.
            return undefined;
          }
        },
      };
    },
  };
}
