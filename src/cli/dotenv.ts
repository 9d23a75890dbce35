/**
 * `--dotenv` / `--dotenv-path FILE` (as `baml-cli test` has them): variables from a `.env` file for the
 * commands that call models. The usual `.env` syntax: `NAME=value` lines, an optional `export ` prefix,
 * `#` comments (whole lines, or after a space in an unquoted value), single quotes taken literally,
 * double quotes with `\n`, `\t`, `\"` and `\\` escapes and values over several lines. A variable already
 * set in the environment wins over the file, as dotenv tools do.
 */
import { readFile } from "node:fs/promises";
import { relative, resolve } from "node:path";
import { type CliContext, CliError, UsageError } from "./cli-context.js";
import type { FlagSpec, ParsedFlags } from "./parse-flags.js";
import { booleanFlag, stringFlag } from "./parse-flags.js";

/** The two flags, for the commands' flag specs. */
export const dotenvFlags: FlagSpec = {
  dotenv: { type: "boolean" },
  "dotenv-path": { type: "string" },
};

/** The usage lines for the two flags, their descriptions starting after `flagWidth` columns. */
export function dotenvUsage(flagWidth: number): string {
  return [
    ["--dotenv", "read variables from ./.env (the environment wins over the file)"],
    ["--dotenv-path FILE", "read variables from FILE instead of ./.env"],
  ]
    .map(([flag, text]) => `  ${flag!.padEnd(flagWidth)}${text}`)
    .join("\n");
}

/**
 * The environment the command runs with: `context.env`, plus the `.env` file's variables when a flag asks
 * for it. A missing or malformed file is a `CliError` naming the file (and the line).
 */
export async function environmentFor(
  flags: ParsedFlags,
  context: CliContext,
): Promise<Record<string, string | undefined>> {
  const path = stringFlag(flags, "dotenv-path");
  if (path === "") throw new UsageError("--dotenv-path needs a file name");
  if (path === undefined && !booleanFlag(flags, "dotenv")) return context.env;
  const file = resolve(context.cwd, path ?? ".env");
  const shown = relative(context.cwd, file) || file;
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "it does not exist" : String(error);
    throw new CliError(`cannot read ${shown} for --dotenv: ${reason}.`);
  }
  const variables = parseDotenv(text, shown);
  const merged: Record<string, string | undefined> = { ...variables };
  for (const [name, value] of Object.entries(context.env)) if (value !== undefined) merged[name] = value;
  return merged;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const ESCAPES: Record<string, string> = { n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\" };

/** The variables a `.env` text sets, in order; `where` names the file in errors. */
export function parseDotenv(text: string, where: string): Record<string, string> {
  const variables: Record<string, string> = {};
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!.trim();
    if (line === "" || line.startsWith("#")) continue;
    const lineNumber = index + 1;
    const body = line.startsWith("export ") ? line.slice("export ".length).trimStart() : line;
    const equals = body.indexOf("=");
    const name = (equals < 0 ? body : body.slice(0, equals)).trim();
    if (equals < 0 || !NAME.test(name)) {
      throw new CliError(
        `${where}:${lineNumber}: expected NAME=value, found ${JSON.stringify(line.slice(0, 60))}.`,
      );
    }
    let rest = body.slice(equals + 1).trimStart();
    let value: string;
    if (rest.startsWith("'")) {
      const end = rest.indexOf("'", 1);
      if (end < 0) throw new CliError(`${where}:${lineNumber}: the value of ${name} has no closing '.`);
      value = rest.slice(1, end);
    } else if (rest.startsWith('"')) {
      // A double-quoted value may run over several lines, up to its closing quote.
      let decoded = "";
      let position = 1;
      for (;;) {
        if (position >= rest.length) {
          index++;
          if (index >= lines.length)
            throw new CliError(`${where}:${lineNumber}: the value of ${name} has no closing ".`);
          rest += `\n${lines[index]}`;
          continue;
        }
        const char = rest[position]!;
        if (char === '"') break;
        if (char === "\\" && position + 1 < rest.length) {
          const next = rest[position + 1]!;
          decoded += ESCAPES[next] ?? `\\${next}`;
          position += 2;
          continue;
        }
        decoded += char;
        position++;
      }
      value = decoded;
    } else {
      const comment = rest.search(/\s#/);
      value = (comment < 0 ? rest : rest.slice(0, comment)).trim();
    }
    variables[name] = value;
  }
  return variables;
}
