import { parseArgs } from "node:util";
import { UsageError } from "./cli-context.js";
import { didYouMean } from "./did-you-mean.js";

export type FlagSpec = Record<
  string,
  { type: "string" | "boolean"; short?: string; multiple?: boolean; default?: string | boolean }
>;

/**
 * Strict flag parsing: unknown flags and missing values become a `UsageError` with one clear line,
 * never a stack trace.
 */
export interface ParsedFlags {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
}

export function parseFlags(
  argv: string[],
  spec: FlagSpec,
  maxPositionals = Number.POSITIVE_INFINITY,
): ParsedFlags {
  try {
    const parsed = parseArgs({ args: argv, options: spec, strict: true, allowPositionals: true });
    if (parsed.positionals.length > maxPositionals) {
      throw new UsageError(`unexpected argument "${parsed.positionals[maxPositionals]}"`);
    }
    return parsed;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    // Node's messages carry a long suffix ("To specify a positional argument…"); keep the first sentence.
    const first = message.split(". ")[0]?.replace(/^Unknown option/, "unknown option") ?? message;
    const unknown = /^unknown option '--([^'=]+)'/.exec(first)?.[1];
    const suggestion = unknown === undefined ? undefined : didYouMean(unknown, Object.keys(spec));
    throw new UsageError(suggestion ? `${first}. Did you mean --${suggestion}?` : first);
  }
}

/** The value of a string flag, or `undefined`. */
export function stringFlag(flags: ParsedFlags, name: string): string | undefined {
  const value = flags.values[name];
  return typeof value === "string" ? value : undefined;
}

/** Whether a boolean flag was given. */
export function booleanFlag(flags: ParsedFlags, name: string): boolean {
  return flags.values[name] === true;
}

/** A whole-number flag (digits only: no sign, no fraction), or `fallback` when it is not given. */
export function wholeNumberFlag(flags: ParsedFlags, name: string, fallback: number): number {
  return optionalWholeNumberFlag(flags, name) ?? fallback;
}

/** A TCP port flag (0 to 65535; 0 asks for any free port), or `fallback` when it is not given. */
export function portFlag(flags: ParsedFlags, name: string, fallback: number): number {
  const value = stringFlag(flags, name);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) > 65535)
    throw new UsageError(`--${name} must be a port number from 0 to 65535, got "${value}"`);
  return Number(value);
}

/** A whole-number flag of at least `min` (digits only), or `undefined` when it is not given. */
export function optionalWholeNumberFlag(flags: ParsedFlags, name: string, min = 0): number | undefined {
  const value = stringFlag(flags, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value)))
    throw new UsageError(
      `--${name} must be a whole number${min > 0 ? ` of at least ${min}` : ""}, got "${value}"`,
    );
  return Number(value);
}
