import { type IrIndex, typeToString } from "../../ir/index.js";
import { evaluateTestConstraint } from "../../prompt/index.js";
import { BamlError, BamlValidationError, type SaplingRuntime } from "../../runtime/index.js";
import { CliError } from "../cli-context.js";
import { toTestArguments } from "./test-arguments.js";
import type { TestCase } from "./test-cases.js";
import { testTypeExtension } from "./test-type-extension.js";

/** One evaluated `@@check` / `@@assert` of a test block. */
export interface ConstraintOutcome {
  level: "check" | "assert";
  label?: string;
  expression: string;
  passed: boolean;
}

/**
 * - `passed`: the function returned and every constraint held
 * - `failed`: an `@@assert` or `@@check` did not hold
 * - `error`: the function (or its arguments, or a constraint expression) failed
 * - `cancelled`: interrupted before it finished
 */
export type TestStatus = "passed" | "failed" | "error" | "cancelled";

export interface TestCaseResult {
  testCase: TestCase;
  status: TestStatus;
  durationMs: number;
  /** The function's value, when it returned one. */
  value?: unknown;
  constraints: ConstraintOutcome[];
  /** One line saying why it did not pass. */
  reason?: string;
  /** The model's answer, when parsing it failed. */
  rawOutput?: string;
}

/**
 * Runs one case against the function's configured clients (or `options.client`), then evaluates the test block's constraints
 * in order with `this` (and `_.result`) bound to the value and `_.checks.<label>` to earlier checks. A
 * failing `@@assert` ends the evaluation; a failing `@@check` is recorded and the rest still run. Unlike
 * BAML (which flags a failed check for human review), a failed check fails the test, so CI notices.
 */
export async function runTestCase(
  testCase: TestCase,
  runtime: SaplingRuntime,
  index: IrIndex,
  options: {
    projectDir: string;
    env: Record<string, string | undefined>;
    signal: AbortSignal;
    /** A client to use instead of the function's own (`sapling test --client`). */
    client?: string;
  },
): Promise<TestCaseResult> {
  const started = performance.now();
  const finish = (result: Omit<TestCaseResult, "testCase" | "durationMs">): TestCaseResult => ({
    testCase,
    durationMs: performance.now() - started,
    ...result,
  });
  let value: unknown;
  try {
    const args = await toTestArguments(testCase.test, testCase.fn.name, index, options);
    const typeBuilder = testCase.test.typeBuilder;
    value = await runtime.call(testCase.fn.name, args, {
      signal: options.signal,
      ...(options.client !== undefined ? { client: options.client } : {}),
      ...(typeBuilder ? { tb: testTypeExtension(typeBuilder) } : {}),
    });
  } catch (error) {
    if (options.signal.aborted)
      return finish({ status: "cancelled", constraints: [], reason: "interrupted" });
    const raw = BamlValidationError.isInstance(error) ? { rawOutput: error.rawOutput } : {};
    return finish({ status: "error", constraints: [], reason: describeError(error), ...raw });
  }
  const constraints: ConstraintOutcome[] = [];
  const checks: Record<string, boolean> = {};
  for (const constraint of testCase.test.constraints) {
    let passed: boolean;
    try {
      passed = evaluateTestConstraint(constraint.expression, { result: value, checks });
    } catch (error) {
      return finish({
        status: "error",
        value,
        constraints,
        reason: `{{ ${constraint.expression} }} cannot be evaluated: ${describeError(error)}`,
      });
    }
    constraints.push({
      level: constraint.level,
      ...(constraint.label !== undefined ? { label: constraint.label } : {}),
      expression: constraint.expression,
      passed,
    });
    if (constraint.level === "check" && constraint.label !== undefined) checks[constraint.label] = passed;
    if (!passed && constraint.level === "assert") break;
  }
  const failed = constraints.filter((outcome) => !outcome.passed);
  if (failed.length === 0) return finish({ status: "passed", value, constraints });
  const names = failed.map(
    (outcome) =>
      `${outcome.level === "assert" ? "@@assert" : "@@check"}(${outcome.label ? `${outcome.label}, ` : ""}{{ ${outcome.expression} }})`,
  );
  return finish({
    status: "failed",
    value,
    constraints,
    reason: `${names.join(", ")} failed for ${preview(value)} (${typeToString(testCase.fn.returnType)})`,
  });
}

function describeError(error: unknown): string {
  if (error instanceof CliError) return error.message;
  if (BamlError.isInstance(error)) return `${error.name}: ${error.message.replace(/\n\s*/g, " ")}`;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}
