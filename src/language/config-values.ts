import type { ConfigBlock, ConfigEntry, ConfigValue } from "./ast.js";
import type { Reporter } from "./reporter.js";

/**
 * The entries of a block by key. A repeated key is an error (the first one wins), except in a test's
 * arguments (`"last-wins"`), where BAML silently keeps the last: there it is a warning and the last wins.
 */
export function entriesByKey(
  block: ConfigBlock,
  report: Reporter,
  repeated: "error" | "last-wins" = "error",
): Map<string, ConfigEntry> {
  const entries = new Map<string, ConfigEntry>();
  for (const entry of block.entries) {
    const earlier = entries.get(entry.key.name);
    if (earlier) {
      const note = [{ message: "first given here", span: earlier.key.span }];
      if (repeated === "error") {
        report("duplicate-key", { name: entry.key.name }, entry.key.span, note);
        continue;
      }
      report("repeated-test-argument", { name: entry.key.name }, entry.key.span, note);
    }
    entries.set(entry.key.name, entry);
  }
  return entries;
}

/** The text of a string-like value (quoted, raw or unquoted), or `undefined`. */
export function textOf(value: ConfigValue): string | undefined {
  switch (value.kind) {
    case "string":
    case "unquoted":
      return value.value;
    case "raw-string":
      return dedentAndTrim(value.value);
    default:
      return undefined;
  }
}

/** How a value reads in a message ("a list", "the number 3"). */
export function describeValue(value: ConfigValue): string {
  switch (value.kind) {
    case "string":
    case "raw-string":
      return "a string";
    case "unquoted":
      return `"${value.value}"`;
    case "number":
      return `the number ${value.text}`;
    case "bool":
      return `${value.value}`;
    case "null":
      return "null";
    case "env":
      return `env.${value.name}`;
    case "array":
      return "a list";
    case "map":
      return "a map";
    case "error":
      return "nothing";
  }
}

/** Report that `entry` needed another kind of value. */
export function reportInvalidValue(entry: ConfigEntry, expected: string, report: Reporter): void {
  if (entry.value.kind === "error") return; // the parser already reported it
  report(
    "invalid-value",
    { key: entry.key.name, expected, found: describeValue(entry.value) },
    entry.value.span,
  );
}

/**
 * Raw strings in configuration values (test arguments, option text) are dedented and trimmed, as BAML
 * does, so indentation that follows the surrounding code is not part of the value.
 */
export function dedentAndTrim(text: string): string {
  const lines = text.split(/\r\n|\n|\r/);
  let indent = Number.POSITIVE_INFINITY;
  for (const line of lines) {
    if (line.trim() === "") continue;
    const leading = line.length - line.trimStart().length;
    indent = Math.min(indent, leading);
  }
  if (!Number.isFinite(indent)) return "";
  return lines
    .map((line) => line.slice(Math.min(indent, line.length - line.trimStart().length)))
    .join("\n")
    .trim();
}
