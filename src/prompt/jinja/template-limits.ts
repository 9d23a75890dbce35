import { JinjaError } from "./jinja-error.js";

/**
 * The longest string a template may build or print, in UTF-16 code units: 16 Mi characters, several times
 * the largest context window (about 2 M tokens, 8 M characters). `'x' * 10**9` or a loop that doubles a
 * string would otherwise take the process's memory before any model could refuse the prompt.
 * docs/decisions/0023-template-limits.md records why these limits and these numbers.
 */
export const MAX_TEMPLATE_TEXT = 16 * 1024 * 1024;

/** `length`, or an error saying what grew past the limit and what to do instead. */
export function checkTextLength(length: number, what: string): void {
  if (length > MAX_TEMPLATE_TEXT) {
    throw new JinjaError(
      "limit_exceeded",
      `${what} would be ${length} characters, more than a template may build (${MAX_TEMPLATE_TEXT}); ` +
        "no model takes a prompt that long. Shorten the input or the repetition.",
      undefined,
    );
  }
}

/** `table[name]` when `table` itself has it: never a method of Object.prototype (`constructor`, `toString`). */
export function ownEntry<T>(table: Readonly<Record<string, T>>, name: string): T | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}
