import type { Type } from "../../../ir/index.js";
import type { CoerceContext } from "../../coerce/coerce-context.js";
import { type CoerceResult, exact, failure, repaired } from "../../coerce/coerce-result.js";
import { lastLineVerdict } from "../../coerce/last-line-verdict.js";
import { unwrapSingle } from "../../coerce/unwrap-single.js";
import type { JsonishNode } from "../../lenient/jsonish-node.js";
import { type MatchOption, matchText } from "./match-text.js";

/** Match text against options and turn the outcome into a result with the right flag. */
export function coerceByMatching(
  type: Type,
  node: JsonishNode,
  path: string,
  context: CoerceContext,
  options: MatchOption[],
): CoerceResult {
  const expected = context.describe(type);
  if (node.kind !== "string" && node.kind !== "number" && node.kind !== "bool") {
    return unwrapSingle(type, node, path, context) ?? failure("type-mismatch", path, expected, node);
  }
  const text = node.kind === "string" ? node.value : node.kind === "number" ? node.text : String(node.value);
  const outcome = matchText(text, options);
  if (outcome.kind !== "exact" && outcome.kind !== "caseFold") {
    // Reasoning that weighs several values, then a verdict line naming one: the verdict.
    const verdict = lastLineVerdict(text, (line) => {
      const named = matchText(line, options);
      return named.kind === "exact" || named.kind === "caseFold" ? named.value : undefined;
    });
    if (verdict !== undefined && verdict.value !== substringValue(outcome)) {
      const read = `${verdict.line} is the last line of ${preview(text)}, after the reasoning`;
      return repaired(verdict.value, "EnumSubstring", path, read, node);
    }
  }
  switch (outcome.kind) {
    case "exact":
      return exact(outcome.value);
    case "caseFold":
      return repaired(
        outcome.value,
        "EnumCaseFold",
        path,
        `${JSON.stringify(text)} read as ${outcome.matched}`,
        node,
      );
    case "description":
      return repaired(
        outcome.value,
        "EnumFromDescription",
        path,
        `${JSON.stringify(text)} is the description of ${outcome.value}`,
        node,
      );
    case "substring":
      return repaired(
        outcome.value,
        "EnumSubstring",
        path,
        `${outcome.matched} is named in ${preview(text)}`,
        node,
      );
    case "typo":
      return repaired(
        outcome.value,
        "EnumEditDistance",
        path,
        `${JSON.stringify(text)} read as ${outcome.matched} (a small typo)`,
        node,
      );
    case "ambiguous":
      return failure(
        "enum-ambiguous",
        path,
        expected,
        node,
        `It names ${outcome.values.join(" and ")}; picking one would be a guess.`,
      );
    case "negated":
      return failure(
        "enum-no-match",
        path,
        expected,
        node,
        `It names ${outcome.matched} only negated ("not …"), which does not say which value is meant.`,
      );
    case "none":
      return failure("enum-no-match", path, expected, node);
  }
}

/** The value a text names among other words, if that is how it was matched. */
function substringValue(outcome: ReturnType<typeof matchText>): string | undefined {
  return outcome.kind === "substring" ? outcome.value : undefined;
}

function preview(text: string): string {
  const json = JSON.stringify(text.trim());
  return json.length > 60 ? `${json.slice(0, 57)}…"` : json;
}
