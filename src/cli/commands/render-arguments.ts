import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { type CliContext, CliError } from "../cli-context.js";

/** `--args`: inline JSON, `@FILE`, or `-` for standard input; must be a JSON object. */
export async function readRenderArguments(
  option: string | undefined,
  context: CliContext,
): Promise<Record<string, unknown>> {
  if (option === undefined) return {};
  let text = option;
  if (option === "-") text = await context.readStdin();
  else if (option.startsWith("@")) {
    const path = resolve(context.cwd, option.slice(1));
    text = await readFile(path, "utf8").catch(() => {
      throw new CliError(`cannot read --args file ${option.slice(1)}.`);
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CliError(`--args is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new CliError('--args must be a JSON object keyed by parameter name, e.g. {"resume": "…"}.');
  }
  return parsed as Record<string, unknown>;
}
