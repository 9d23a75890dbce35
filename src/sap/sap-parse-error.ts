import { hasErrorMark, markError } from "../util/index.js";
/** Stable codes for why an answer could not be parsed; match on these, not on messages. */
export type SapErrorCode =
  /** The answer was empty (or only whitespace). */
  | "empty-answer"
  /** A value of another shape was found (a list for an object, words for a number). */
  | "type-mismatch"
  /** A required field was never written. */
  | "missing-field"
  /** The text names no value of the enum (or literal). */
  | "enum-no-match"
  /** The text names two or more different values of the enum; guessing would be silently wrong. */
  | "enum-ambiguous"
  /** Several different numbers where one was expected. */
  | "number-ambiguous"
  /** A number no JavaScript number holds: beyond a float's range, or an int beyond 2^53 (not exact). */
  | "number-out-of-range"
  /** Every item of a non-empty list (or entry of a map) failed. */
  | "all-items-failed"
  /** An `@assert` evaluated to false. */
  | "assert-failed"
  /** A value would have to contain itself (a single-field class wrapping itself). */
  | "circular"
  /** Nesting deeper than the parser follows. */
  | "too-deep"
  /** A type that text cannot produce (media). */
  | "unsupported-type";

export interface SapParseErrorInit {
  code: SapErrorCode;
  path: string;
  expected: string;
  found: string;
  raw: string;
  detail?: string;
}

/**
 * The model's answer does not hold a value of the target type. Carries where (`path`), what was expected
 * and found, and the raw answer, so a caller can log it, retry, or show it.
 */
export class SapParseError extends Error {
  readonly code: SapErrorCode;
  /** JSONPath-like location (`$`, `$.work_history[0].decision`). */
  readonly path: string;
  readonly expected: string;
  readonly found: string;
  /** The model's raw answer, always attached. */
  readonly raw: string;
  readonly detail: string | undefined;

  constructor(init: SapParseErrorInit) {
    super(formatMessage(init));
    this.name = "SapParseError";
    markError(this, "SapParseError");
    this.code = init.code;
    this.path = init.path;
    this.expected = init.expected;
    this.found = init.found;
    this.raw = init.raw;
    this.detail = init.detail;
  }

  /** `instanceof` that also works across two copies of the package. */
  static isInstance(value: unknown): value is SapParseError {
    return hasErrorMark(value, "SapParseError");
  }
}

/** How to act on each kind of failure (the default: the prompt or the type). */
const HINTS: Partial<Record<SapErrorCode, string>> = {
  "empty-answer": "The model returned nothing; check the client's max_tokens and the prompt.",
  "assert-failed": "Relax the @assert, or state the rule in the prompt.",
  "unsupported-type": "Media types are inputs; return a description of the media instead.",
  "number-out-of-range":
    "Ask for the number as a string (a `string` field) if values this large are expected.",
  "too-deep": "The answer nests far deeper than any schema; it is almost certainly garbage.",
};

function formatMessage(init: SapParseErrorInit): string {
  const where = init.path === "$" ? "" : ` at ${init.path}`;
  const detail = init.detail ? ` ${init.detail}` : "";
  const hint =
    HINTS[init.code] ??
    "Check that the prompt asks for this shape ({{ ctx.output_format }}), or relax the type.";
  return `Could not parse the model's answer${where}: expected ${init.expected}, found ${init.found}.${detail} ${hint} The raw answer is attached to this error.`;
}

/**
 * The parser was called in a way that cannot work whatever the answer is: a type with `@check`/`@assert`
 * but no `constraintEvaluator`, or a type naming a class/enum/alias the IR does not declare.
 */
export class SapConfigurationError extends Error {
  readonly code: "constraint-evaluator-missing" | "unknown-type";

  constructor(code: SapConfigurationError["code"], message: string) {
    super(message);
    this.name = "SapConfigurationError";
    markError(this, "SapConfigurationError");
    this.code = code;
  }

  static isInstance(value: unknown): value is SapConfigurationError {
    return hasErrorMark(value, "SapConfigurationError");
  }
}
