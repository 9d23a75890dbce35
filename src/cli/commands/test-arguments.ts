import { dirname, resolve } from "node:path";
import { configValueToPlain, type IrIndex, type Test } from "../../ir/index.js";
import { CliError } from "../cli-context.js";
import { toMediaArguments } from "./media-arguments.js";

/**
 * A test block's `args { … }` as call arguments: config values become JSON values (`env.NAME` read from the
 * environment), and media parameters written as `{ file "…" }` (relative to the `.baml` file),
 * `{ url "…" }` or `{ base64 "…" media_type "…" }` become media values — also inside lists, maps,
 * classes and unions.
 */
export async function toTestArguments(
  test: Test,
  functionName: string,
  index: IrIndex,
  options: { projectDir: string; env: Record<string, string | undefined> },
): Promise<Record<string, unknown>> {
  const where = `test ${test.name}`;
  const fn = index.getFunction(functionName);
  const baseDir = dirname(resolve(options.projectDir, test.source?.file ?? "."));
  const args: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(test.args))
    args[name] = configValueToPlain(value, (variable) => readEnv(variable, options.env, where));
  return toMediaArguments(args, fn, index, { baseDir, where, relativeTo: "the .baml file" });
}

function readEnv(name: string, env: Record<string, string | undefined>, where: string): string {
  const found = env[name];
  if (found === undefined)
    throw new CliError(`${where} reads env.${name}, which is not set; set it and run again.`);
  return found;
}
