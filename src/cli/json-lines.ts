import { CliError } from "./cli-context.js";

/**
 * The non-blank lines of a JSON-lines file, each parsed, with `where` (`file:line`) for messages. A line
 * that is not JSON is an error naming it, before anything runs.
 */
export function* jsonLines(
  text: string,
  source: string,
): Generator<{ value: unknown; where: string; line: number }> {
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    if (line.trim() === "") continue;
    const where = `${source}:${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new CliError(`${where}: not JSON (${(error as Error).message}). Each line is one JSON object.`);
    }
    yield { value, where, line: index + 1 };
  }
}
