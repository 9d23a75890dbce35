import type { Ir, IrIndex, LlmFunction } from "../ir/index.js";
import type { OutputMode } from "../llm/index.js";
import { type ConstraintEvaluator, createStreamParser, findConstraint, parsePartial } from "../sap/index.js";
import type { ChatMessage } from "../util/index.js";
import { BamlInvalidArgumentError, BamlValidationError } from "./errors.js";
import { type FunctionPipeline, type PartialParser, promptToText } from "./function-pipeline.js";
import { loadPrompt } from "./load-prompt.js";
import { createOutputPlan, type OutputPlan, OutputPlanError, unwrapValue } from "./output-plan.js";
import { AnswerReadError, readAnswer, ToolCallPartials } from "./read-answer.js";
import { viewReads } from "./view-reads.js";
import { hasChecks, type WrapMemo, wrapChecked } from "./wrap-checked.js";

/** What one use of a function brings to its pipeline. */
export interface PipelineCall {
  /** The call's arguments (none for a parse). */
  args?: Record<string, unknown>;
  tags?: Record<string, string>;
  /** `RuntimeOptions.constraintEvaluator`: how a parse evaluates `@check`/`@assert` before any prompt. */
  constraintEvaluator?: ConstraintEvaluator | undefined;
}

/**
 * The real pipeline of one function: prompts from the prompt room (rendered per client, since templates
 * may read `ctx.client`), answers parsed by the Schema-Aligned Parser against the return type (text, or
 * native tool calls by the output plan: read-answer.ts), `@check` results wrapped as `Checked` values.
 * Streamed answers go through the parser's incremental stream parser.
 *
 * The prompt room loads with the first render (docs/decisions/0048-lazy-prompt-renderer.md). Constraints
 * are evaluated by the evaluator the runtime was given, else by the prompt room's once a render has loaded
 * it: a call renders before it parses, so only a parse with no prompt (`b.parse`, `b.parseStream`) needs the
 * given one, and without it a return type with constraints fails at once, saying what to pass.
 */
export function createFunctionPipeline(
  ir: Ir,
  index: IrIndex,
  fn: LlmFunction,
  call: PipelineCall = {},
): FunctionPipeline {
  const type = fn.returnType;
  const checked = hasChecks(type, index);
  let evaluator = call.constraintEvaluator;
  /** The evaluator, or an error saying what to pass when the return type has constraints and none is here. */
  const evaluatorIfNeeded = (): ConstraintEvaluator | undefined => {
    const where = evaluator === undefined ? findConstraint(type, index) : undefined;
    if (where !== undefined) {
      throw new BamlInvalidArgumentError(
        `${fn.name} returns a type with @check/@assert constraints (${where}), and this runtime has no ` +
          "constraint evaluator to parse it without a call: pass { constraintEvaluator: evaluateConstraint } " +
          'from "sapling-llm/constraints" to SaplingRuntime.fromIr (a generated client does when its .baml ' +
          "declares constraints).",
      );
    }
    return evaluator;
  };
  const parseOptions = (): { constraintEvaluator?: ConstraintEvaluator } => {
    const constraintEvaluator = evaluatorIfNeeded();
    return constraintEvaluator === undefined ? {} : { constraintEvaluator };
  };
  const finish = (value: unknown, memo?: WrapMemo): unknown => {
    if (!checked) return value;
    // A labelled check is a constraint, so `evaluatorIfNeeded` throws rather than leave it unevaluated.
    const evaluate = evaluatorIfNeeded();
    return evaluate === undefined ? value : wrapChecked(value, type, index, evaluate, memo);
  };
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
    render: async (client, plan) => {
      const prompt = await loadPrompt(client.provider);
      evaluator ??= prompt.evaluateConstraint;
      return prompt.renderPrompt(ir, fn.name, call.args ?? {}, {
        client,
        tags: call.tags ?? {},
        ...(plan?.schemaEnforced ? { omitOutputFormat: true } : {}),
      });
    },
    outputPlan,
    parseFinal: (answer, messages: readonly ChatMessage[], plan = outputPlan("prompt")) => {
      const { text, toolCalls } = typeof answer === "string" ? { text: answer, toolCalls: [] } : answer;
      try {
        const read = readAnswer(text, toolCalls, plan, parseOptions());
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
    parsePartial: (text) => finish(parsePartial(text, type, index, parseOptions()).value),
    createPartialParser: (plan = outputPlan("prompt")): PartialParser => {
      // Incremental: each chunk resumes where the last stopped, so a whole stream costs linear time.
      const target = plan.text;
      const options = parseOptions();
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
