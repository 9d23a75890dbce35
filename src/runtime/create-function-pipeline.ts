import type { Ir, IrIndex, LlmFunction } from "../ir/index.js";
import type { OutputMode } from "../llm/index.js";
import { evaluateConstraint, renderPrompt } from "../prompt/index.js";
import { createStreamParser, parsePartial } from "../sap/index.js";
import type { ChatMessage } from "../util/index.js";
import { BamlInvalidArgumentError, BamlValidationError } from "./errors.js";
import { type FunctionPipeline, type PartialParser, promptToText } from "./function-pipeline.js";
import { createOutputPlan, type OutputPlan, OutputPlanError, unwrapValue } from "./output-plan.js";
import { AnswerReadError, readAnswer, ToolCallPartials } from "./read-answer.js";
import { viewReads } from "./view-reads.js";
import { hasChecks, type WrapMemo, wrapChecked } from "./wrap-checked.js";

/**
 * The real pipeline of one function: prompts from the prompt room (rendered per client, since templates
 * may read `ctx.client`), answers parsed by the Schema-Aligned Parser against the return type (text, or
 * native tool calls by the output plan: read-answer.ts), `@check` results wrapped as `Checked` values.
 * Streamed answers go through the parser's incremental stream parser.
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
  const finish = (value: unknown, memo?: WrapMemo): unknown =>
    checked ? wrapChecked(value, type, index, evaluateConstraint, memo) : value;
  const options = { constraintEvaluator: evaluateConstraint };
  const plans = new Map<OutputMode, OutputPlan>();
  const outputPlan = (mode: OutputMode): OutputPlan => {
    let plan = plans.get(mode);
    if (plan === undefined) {
      try {
        plan = createOutputPlan(ir, index, fn.name, type, mode);
      } catch (error) {
        if (error instanceof OutputPlanError) throw new BamlInvalidArgumentError(error.message);
        throw error;
      }
      plans.set(mode, plan);
    }
    return plan;
  };

  return {
    render: (client, plan) =>
      renderPrompt(ir, fn.name, args, {
        client,
        tags,
        ...(plan?.schemaEnforced ? { omitOutputFormat: true } : {}),
      }),
    outputPlan,
    parseFinal: (answer, messages: readonly ChatMessage[], plan = outputPlan("prompt")) => {
      const { text, toolCalls } = typeof answer === "string" ? { text: answer, toolCalls: [] } : answer;
      try {
        const read = readAnswer(text, toolCalls, plan, options);
        return { value: finish(read.value), repairs: read.flags, toolCalls: read.toolCalls };
      } catch (error) {
        if (!(error instanceof AnswerReadError)) throw error;
        throw new BamlValidationError(
          `${fn.name}: ${error.message}`,
          promptToText(messages),
          error.raw,
          error.detail,
        );
      }
    },
    parsePartial: (text) => finish(parsePartial(text, type, index, options).value),
    createPartialParser: (plan = outputPlan("prompt")): PartialParser => {
      // Incremental: each chunk resumes where the last stopped, so a whole stream costs linear time.
      const target = plan.text;
      const parser = createStreamParser(target.type, target.index, options);
      const tools = new ToolCallPartials(plan, options);
      // Consecutive partials share their unchanged subtrees; so do their wrappings (see `WrapMemo`).
      const memo: WrapMemo = new WeakMap();
      const readText = () => parser.read();
      // The parser's push itself when the value needs no other shape (no wrapper, no `@check`).
      const text =
        target.wrapped || checked
          ? viewReads(readText, (value) => finish(target.wrapped ? unwrapValue(value) : value, memo))
          : readText;
      const readTools = () => tools.read();
      const toolCalls = checked ? viewReads(readTools, (value) => finish(value, memo)) : readTools;
      return {
        append: (chunk: string) => {
          if (!tools.started) parser.append(chunk);
        },
        pushToolCall: (delta) => tools.push(delta),
        get read() {
          return tools.started ? toolCalls : text;
        },
      };
    },
  };
}
