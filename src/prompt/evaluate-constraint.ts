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

/** Runs `use` on the parsed expression; a Jinja error becomes a `TemplateError` that quotes it. */
function withTree<Result>(expression: string, use: (tree: Expression) => Result): Result {
  try {
    let tree = parsed.get(expression);
    if (!tree) {
      tree = parseExpression(expression);
      if (parsed.size > 1000) parsed.clear();
      parsed.set(expression, tree);
    }
    return use(tree);
  } catch (error) {
    if (!(error instanceof JinjaError)) throw error;
    const column = (error.offset ?? 0) + 1;
    throw new TemplateError(error.code, `${error.message} (in \`{{ ${expression} }}\`)`, 1, column);
  }
}

function evaluateTree(tree: Expression, variables: Record<string, unknown>): unknown {
  const scope = new Scope();
  for (const [name, value] of Object.entries({ ...builtinGlobals(), ...variables })) scope.set(name, value);
  return evaluator.evaluate(tree, scope);
}

function evaluate(expression: string, variables: Record<string, unknown>): boolean {
  return withTree(expression, (tree) => isTruthy(evaluateTree(tree, variables)));
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

/**
 * When a constraint is the comparison `this == VALUE` (or `VALUE == this`), the value of VALUE, evaluated
 * with no variables: a test block's `@@check(expected, {{ this == {…} }})` names the value the function
 * should return (`sapling eval --tests`). `undefined` for any other expression; a VALUE that reads a
 * variable throws `TemplateError`.
 */
export function comparedValue(expression: string): { value: unknown } | undefined {
  return withTree(expression, (tree) => {
    if (tree.kind !== "binary" || tree.operator !== "==") return undefined;
    const isThis = (side: Expression) => side.kind === "name" && side.name === "this";
    const other = isThis(tree.left) ? tree.right : isThis(tree.right) ? tree.left : undefined;
    return other === undefined ? undefined : { value: evaluateTree(other, {}) };
  });
}
