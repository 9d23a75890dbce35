import type { PrimitiveType } from "../../../ir/index.js";
import type { CoerceContext } from "../../coerce/coerce-context.js";
import { type CoerceResult, exact, failure, repaired } from "../../coerce/coerce-result.js";
import { isStructuredText } from "../../coerce/is-structured-text.js";
import { lastLineVerdict } from "../../coerce/last-line-verdict.js";
import { unwrapSingle } from "../../coerce/unwrap-single.js";
import type { JsonishNode } from "../../lenient/jsonish-node.js";
import { normalizeWords } from "../enum/normalize-words.js";

const TRUE_WORDS = new Set(["yes", "y", "on", "1"]);
const FALSE_WORDS = new Set(["no", "n", "off", "0"]);

/**
 * `bool`: JSON bools; `"true"`/`"False"` (any case); `yes/no`, `y/n`, `on/off`, `1/0`; a last line that
 * is one of these after lines of reasoning (`Step 1: …⏎Y`: the verdict, whatever the steps say);
 * `true` or `false` named once among other words. Both named, or neither, is an error.
 */
export function coerceBool(
  type: PrimitiveType,
  node: JsonishNode,
  path: string,
  context: CoerceContext,
): CoerceResult {
  if (node.kind === "bool") return exact(node.value);
  if (node.kind === "number" && (node.value === 0 || node.value === 1)) {
    return repaired(node.value === 1, "BoolFromWord", path, `${node.text} read as ${node.value === 1}`, node);
  }
  if (node.kind !== "string")
    return unwrapSingle(type, node, path, context) ?? failure("type-mismatch", path, "bool", node);
  // JSON written as text names no bool, not even as its only word (`[["on"]]`): as for numbers, its
  // values are read from its structure (a one-element list once, `unwrapSingle`), never from its words.
  if (isStructuredText(node.value)) return failure("type-mismatch", path, "bool", node);
  const verdict = lastLineVerdict(node.value, boolWord);
  if (verdict !== undefined) {
    const read = `the last line ${JSON.stringify(verdict.line)} read as ${verdict.value}`;
    return repaired(verdict.value, "BoolFromWord", path, read, node);
  }
  const words = normalizeWords(node.value);
  const only = words.length === 1 ? words[0]! : undefined;
  if (only === "true" || only === "false") {
    return repaired(
      only === "true",
      "StringToBool",
      path,
      `${JSON.stringify(node.value)} read as ${only}`,
      node,
    );
  }
  if (only !== undefined && (TRUE_WORDS.has(only) || FALSE_WORDS.has(only))) {
    const value = TRUE_WORDS.has(only);
    return repaired(value, "BoolFromWord", path, `${JSON.stringify(node.value)} read as ${value}`, node);
  }
  const saysTrue = words.includes("true");
  const saysFalse = words.includes("false");
  if (saysTrue !== saysFalse) {
    return repaired(saysTrue, "BoolFromText", path, `"${saysTrue}" named in ${preview(node.value)}`, node);
  }
  const first = words[0];
  if (!saysTrue && first !== undefined && (first === "yes" || first === "no")) {
    // (A later line that is the other answer alone, `yes⏎no`, names both: not the first one's.)
    const value = first === "yes";
    if (!otherLineSays(node.value, !value))
      return repaired(value, "BoolFromWord", path, `the answer starts with "${first}"`, node);
    return failure("type-mismatch", path, "bool", node, "It answers both yes and no.");
  }
  return failure("type-mismatch", path, "bool", node, saysTrue ? "It names both true and false." : undefined);
}

/** Whether a line after the first is one word naming `value` (`no` alone on a line of its own). */
function otherLineSays(text: string, value: boolean): boolean {
  const lines = text.split("\n");
  for (let at = 1; at < lines.length; at++) if (boolWord(lines[at]!) === value) return true;
  return false;
}

/** The bool one word names (`true`, `Y`, `no`, `off`, `1`), else undefined. */
function boolWord(text: string): boolean | undefined {
  // (Every word below has at most 5 letters: a longer text is none, without splitting it into words.)
  if (text.length > 8) return undefined;
  const words = normalizeWords(text);
  if (words.length !== 1) return undefined;
  const word = words[0]!;
  if (word === "true" || TRUE_WORDS.has(word)) return true;
  if (word === "false" || FALSE_WORDS.has(word)) return false;
  return undefined;
}

function preview(text: string): string {
  const json = JSON.stringify(text);
  return json.length > 60 ? `${json.slice(0, 57)}…"` : json;
}
