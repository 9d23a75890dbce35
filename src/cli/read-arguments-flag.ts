import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { type CliContext, CliError, UsageError } from "./cli-context.js";

/**
 * `--args` of `sapling call` and `sapling render`: inline JSON, `@FILE`, or `-` for standard input; must be
 * a JSON object keyed by parameter name. Absent, the arguments are `{}`. A file that cannot be read is a
 * `CliError`; text that is not a JSON object is a `UsageError` naming where it came from.
 */
export async function readArgumentsFlag(
  option: string | undefined,
  context: CliContext,
): Promise<Record<string, unknown>> {
  if (option === undefined) return {};
  let text = option;
  let source = "--args";
  if (option === "-") {
    text = await context.readStdin();
    source = "standard input";
  } else if (option.startsWith("@")) {
    const path = resolve(context.cwd, option.slice(1));
    source = option.slice(1);
    text = await readFile(path, "utf8").catch(() => {
      throw new CliError(`cannot read the arguments file ${source}.`);
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`${source} is not valid JSON (${reason}); pass an object like '{"text": "…"}'`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`${source} must be a JSON object keyed by parameter name, like '{"text": "…"}'`);
  }
  return parsed as Record<string, unknown>;
}
