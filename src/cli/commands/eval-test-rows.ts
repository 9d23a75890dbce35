import type { Ir, LlmFunction } from "../../ir/index.js";
import { IrIndex } from "../../ir/index.js";
import { comparedValue, TemplateError } from "../../prompt/index.js";
import { CliError } from "../cli-context.js";
import type { EvalRow } from "./eval-data.js";
import { toTestArguments } from "./test-arguments.js";

/** The label of the test-block check (or assert) whose `this == VALUE` names the expected value. */
export const EXPECTED_LABEL = "expected";

/**
 * `sapling eval Fn --tests`: the function's `test` blocks as rows. A block is a row when it carries
 * `@@check(expected, {{ this == VALUE }})` (or an `@@assert` with that label): VALUE, a Jinja literal, is
 * the expected value; its `args` are the row's arguments and its name the row's id. Blocks without one are
 * listed in `skipped`, so the command can say which.
 */
export async function readTestRows(
  ir: Ir,
  fn: LlmFunction,
  options: { projectDir: string; env: Record<string, string | undefined> },
): Promise<{ rows: EvalRow[]; skipped: string[] }> {
  const index = new IrIndex(ir);
  const rows: EvalRow[] = [];
  const skipped: string[] = [];
  for (const test of ir.tests) {
    if (!test.functions.includes(fn.name)) continue;
    const labelled = test.constraints.filter((constraint) => constraint.label === EXPECTED_LABEL);
    if (labelled.length === 0) {
      skipped.push(test.name);
      continue;
    }
    const where = `test ${test.name}${test.source ? ` (${test.source.file})` : ""}`;
    if (labelled.length > 1)
      throw new CliError(
        `${where}: ${labelled.length} constraints are labelled "${EXPECTED_LABEL}"; keep one`,
      );
    const [constraint] = labelled as [(typeof labelled)[number]];
    let compared: { value: unknown } | undefined;
    try {
      compared = comparedValue(constraint.expression);
    } catch (error) {
      if (!TemplateError.isInstance(error)) throw error;
      throw new CliError(
        `${where}: the expected value of @@${constraint.level}(${EXPECTED_LABEL}, …) must be a literal (no variables): ${error.message}`,
      );
    }
    if (!compared)
      throw new CliError(
        `${where}: @@${constraint.level}(${EXPECTED_LABEL}, {{ ${constraint.expression} }}) names no value; write it as {{ this == VALUE }}, e.g. {{ this == {"name": "Ada", "tags": ["x"], "boss": none} }}`,
      );
    rows.push({
      id: test.name,
      args: await toTestArguments(test, fn.name, index, options),
      expected: compared.value,
    });
  }
  return { rows, skipped };
}
