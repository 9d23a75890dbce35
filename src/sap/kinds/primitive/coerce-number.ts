import type { PrimitiveType } from "../../../ir/index.js";
import type { CoerceContext } from "../../coerce/coerce-context.js";
import { addFlag, type CoerceResult, exact, failure, repaired } from "../../coerce/coerce-result.js";
import { lastLineVerdict } from "../../coerce/last-line-verdict.js";
import { unwrapSingle } from "../../coerce/unwrap-single.js";
import type { JsonishNode } from "../../lenient/jsonish-node.js";
import { readNumberText, roundHalfAwayFromZero } from "./read-number-text.js";

/**
 * `int`: JSON integers as is; floats rounded half away from zero; numbers read out of strings. A fraction
 * that is not whole (`"8/10"`) is ambiguous for an int — a score of 8, or 0.8 rounded to 1? — so it fails
 * rather than guess.
 */
export function coerceInt(
  type: PrimitiveType,
  node: JsonishNode,
  path: string,
  context: CoerceContext,
): CoerceResult {
  const number = readNumber(node, path, "int");
  if (!number.ok) return unwrapSingle(type, node, path, context) ?? number;
  const value = number.value as number;
  if (Number.isSafeInteger(value)) return number;
  if (Number.isInteger(value)) {
    // Beyond 2^53 only some integers have a double of their own: one written with exactly those digits
    // is that number (`9876543210123456`); any other would change its digits, so it is refused.
    const written = writtenInteger(node);
    if (written !== undefined && BigInt(written) === BigInt(value)) return number;
    return failure(
      "number-out-of-range",
      path,
      "int",
      node,
      `It is beyond 2^53, where not every integer has a JavaScript number: ${written ?? "it"} would become ` +
        `${BigInt(value)}, a different integer.`,
    );
  }
  if (node.kind === "string" && isFraction(node.value)) {
    return failure(
      "number-ambiguous",
      path,
      "int",
      node,
      `${JSON.stringify(node.value.trim())} is a fraction: as an int it could mean its numerator or ${value} rounded.`,
    );
  }
  const rounded = roundHalfAwayFromZero(value);
  if (!Number.isSafeInteger(rounded)) {
    return failure(
      "number-out-of-range",
      path,
      "int",
      node,
      "Rounded, it is beyond 2^53, where JavaScript integers stop being exact.",
    );
  }
  return addFlag(
    { ...number, value: rounded },
    "FloatToInt",
    path,
    `${displayOf(node)} rounded to ${rounded}`,
    node,
  );
}

/** `float`: JSON numbers as is; numbers read out of strings. */
export function coerceFloat(
  type: PrimitiveType,
  node: JsonishNode,
  path: string,
  context: CoerceContext,
): CoerceResult {
  const number = readNumber(node, path, "float");
  return number.ok ? number : (unwrapSingle(type, node, path, context) ?? number);
}

function readNumber(node: JsonishNode, path: string, expected: "int" | "float"): CoerceResult {
  const result = readNumberOf(node, path, expected);
  if (!result.ok || Number.isFinite(result.value)) return result;
  return failure(
    "number-out-of-range",
    path,
    expected,
    node,
    `It is beyond the range of a float (about ±1.8e308), so it would be ${result.value}.`,
  );
}

function readNumberOf(node: JsonishNode, path: string, expected: "int" | "float"): CoerceResult {
  if (node.kind === "number") return exact(node.value);
  if (node.kind !== "string") return failure("type-mismatch", path, expected, node);
  const reading = readNumberText(node.value);
  if (!reading.ok && reading.reason === "several") {
    // Steps of working, then the result alone on the last line: the result.
    const verdict = lastLineVerdict(node.value, (line) => {
      const number = readNumberText(line);
      return number.ok && number.plain ? number.value : undefined;
    });
    if (verdict !== undefined) {
      const read = `${verdict.line} is the last line of the working in ${preview(node.value)}`;
      return repaired(verdict.value, "NumberFromText", path, read, node);
    }
  }
  if (!reading.ok) {
    return reading.reason === "several"
      ? failure(
          "number-ambiguous",
          path,
          expected,
          node,
          `It contains several different numbers (${reading.numbers!.join(", ")}); which one is meant is unclear.`,
        )
      : failure("type-mismatch", path, expected, node);
  }
  if (reading.plain) {
    const kind = expected === "int" ? "StringToInt" : "StringToFloat";
    return repaired(reading.value, kind, path, `${JSON.stringify(node.value)} read as a number`, node);
  }
  return repaired(
    reading.value,
    "NumberFromText",
    path,
    `${reading.value} is ${reading.note} in ${JSON.stringify(node.value)}`,
    node,
  );
}

function preview(text: string): string {
  const json = JSON.stringify(text.trim());
  return json.length > 60 ? `${json.slice(0, 57)}…"` : json;
}

function isFraction(text: string): boolean {
  return /^\s*[+-]?\d+(?:\.\d+)?\s*\/\s*\d+(?:\.\d+)?\s*$/.test(text);
}

function displayOf(node: JsonishNode): string {
  return node.kind === "string" ? JSON.stringify(node.value) : node.kind === "number" ? node.text : node.kind;
}

/** The integer as written (sign and digits only), or undefined when it was not written as one. */
function writtenInteger(node: JsonishNode): string | undefined {
  const text = node.kind === "number" ? node.text : node.kind === "string" ? node.value.trim() : undefined;
  return text !== undefined && /^[+-]?\d+$/.test(text) ? text.replace(/^\+/, "") : undefined;
}
