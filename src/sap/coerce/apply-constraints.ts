import type { Constraint } from "../../ir/index.js";
import type { JsonishNode } from "../lenient/jsonish-node.js";
import { SapConfigurationError } from "../sap-parse-error.js";
import type { CoerceContext } from "./coerce-context.js";
import { addFlag, type CheckResult, type CoerceResult, type CoerceSuccess } from "./coerce-result.js";

/**
 * Evaluate `@check`s (recorded, the value is kept) and `@assert`s (a false one rejects the value; in
 * prefix mode it is flagged `WillFail` and kept, so a partial never goes back) through the injected
 * evaluator. An evaluator that throws counts as false, with its message in the detail.
 */
export function applyConstraints(
  constraints: readonly Constraint[],
  result: CoerceSuccess,
  path: string,
  context: CoerceContext,
  expected: string,
  node?: JsonishNode,
): CoerceResult {
  const evaluate = context.constraintEvaluator;
  if (!evaluate) {
    throw new SapConfigurationError(
      "constraint-evaluator-missing",
      `The type at ${path} has @check/@assert constraints but no constraintEvaluator was given. ` +
        "Pass { constraintEvaluator } (the prompt room's evaluateConstraint) to parseValue.",
    );
  }
  const checks: CheckResult[] = [...result.checks];
  let current = result;
  for (const constraint of constraints) {
    let passed: boolean;
    let problem = "";
    try {
      passed = evaluate(constraint.expression, result.value) === true;
    } catch (error) {
      passed = false;
      problem = ` (evaluating it failed: ${error instanceof Error ? error.message : String(error)})`;
    }
    const name = constraint.label ? `${constraint.label} ` : "";
    const record: CheckResult = { path, level: constraint.level, expression: constraint.expression, passed };
    if (constraint.label !== undefined) record.label = constraint.label;
    checks.push(record);
    if (passed) continue;
    if (constraint.level === "assert" && context.partial) {
      // A partial value never turns into nothing because of an assert: it stays, and the final parse
      // (which runs the same assert) fails.
      current = addFlag(
        current,
        "WillFail",
        path,
        `@assert ${name}{{ ${constraint.expression} }} is false${problem}; the final parse will fail`,
      );
      continue;
    }
    if (constraint.level === "assert") {
      const found = JSON.stringify(result.value) ?? String(result.value);
      return {
        ok: false,
        issue: {
          code: "assert-failed",
          path,
          expected,
          found: found.length > 80 ? `${found.slice(0, 77)}…` : found,
          detail: `@assert ${name}{{ ${constraint.expression} }} is false for this value${problem}.`,
        },
      };
    }
    current = addFlag(
      current,
      "CheckFailed",
      path,
      `@check ${name}{{ ${constraint.expression} }} is false${problem}`,
      node,
    );
  }
  return { ...current, checks };
}
