import type { Ir, IrIndex, LlmFunction } from "../ir/index.js";
import { evaluateConstraint, renderPrompt } from "../prompt/index.js";
import { createStreamParser, parsePartial, parseValue, SapParseError } from "../sap/index.js";
import type { ChatMessage } from "../util/index.js";
import { BamlValidationError } from "./errors.js";
import { type FunctionPipeline, promptToText } from "./function-pipeline.js";
import { hasChecks, type WrapMemo, wrapChecked } from "./wrap-checked.js";

/**
 * The real pipeline of one function: prompts from the prompt room (rendered per client, since templates
 * may read `ctx.client`), answers parsed by the Schema-Aligned Parser against the return type, `@check`
 * results wrapped as `Checked` values. Streamed answers go through the parser's incremental stream parser.
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
  const options = { constraintEvaluator: evaluateConstraint };

  return {
    render: (client) => renderPrompt(ir, fn.name, args, { client, tags }),
    parseFinal: (text: string, messages: readonly ChatMessage[]) => {
      try {
        const result = parseValue(text, type, index, options);
        return { value: finish(result.value), repairs: result.flags };
      } catch (error) {
        if (!SapParseError.isInstance(error)) throw error;
        throw new BamlValidationError(`${fn.name}: ${error.message}`, promptToText(messages), text, error);
      }
    },
    parsePartial: (text) => finish(parsePartial(text, type, index, options).value),
    createPartialParser: () => {
      // Incremental: each chunk resumes where the last stopped, so a whole stream costs linear time.
      const parser = createStreamParser(type, index, options);
      // Consecutive partials share their unchanged subtrees; so do their wrappings (see `WrapMemo`).
      const memo: WrapMemo = new WeakMap();
      return {
        push: (chunk: string) => {
          const step = parser.push(chunk);
          if (!step.changed) return undefined;
          return checked ? wrapChecked(step.value, type, index, evaluateConstraint, memo) : step.value;
        },
      };
    },
  };
}
