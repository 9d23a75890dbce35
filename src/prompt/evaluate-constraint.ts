import { TemplateError } from "./errors.js";
import type { Expression } from "./jinja/ast.js";
import { Evaluator } from "./jinja/evaluator.js";
import { JinjaError } from "./jinja/jinja-error.js";
import { parseExpression } from "./jinja/parser.js";
import { Scope } from "./jinja/scope.js";
import { isTruthy } from "./jinja/values.js";
import { builtinGlobals } from "./template-globals.js";

const parsed = new Map<string, Expression>();
const evaluator = new Evaluator(() => "");

function evaluate(expression: string, variables: Record<string, unknown>): boolean {
  try {
    let tree = parsed.get(expression);
    if (!tree) {
      tree = parseExpression(expression);
      if (parsed.size > 1000) parsed.clear();
      parsed.set(expression, tree);
    }
    const scope = new Scope();
    for (const [name, value] of Object.entries({ ...builtinGlobals(), ...variables })) scope.set(name, value);
    return isTruthy(evaluator.evaluate(tree, scope));
  } catch (error) {
    if (!(error instanceof JinjaError)) throw error;
    const column = (error.offset ?? 0) + 1;
    throw new TemplateError(error.code, `${error.message} (in \`{{ ${expression} }}\`)`, 1, column);
  }
}

/**
 * Evaluates a `@check`/`@assert` expression with `this` bound to `value` (the SAP room injects this as its
 * constraint evaluator). Jinja truthiness decides. A broken expression throws `TemplateError`.
 */
export function evaluateConstraint(expression: string, value: unknown): boolean {
  return evaluate(expression, { this: value });
}

/**
 * Evaluates a test block's `@@check`/`@@assert`: `this` and `_.result` are the function's result,
 * `_.checks.<label>` the results of the checks before it.
 */
export function evaluateTestConstraint(
  expression: string,
  scope: { result: unknown; checks?: Record<string, unknown> },
): boolean {
  return evaluate(expression, {
    this: scope.result,
    _: { result: scope.result, checks: scope.checks ?? {} },
  });
}
