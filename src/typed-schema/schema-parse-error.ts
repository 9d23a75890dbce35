import type { SapErrorCode } from "../sap/index.js";
import { hasErrorMark, markError } from "../util/index.js";

/** One problem the schema's own validation found in the parsed value (a Zod issue, a JSON Schema rule). */
export interface SchemaIssue {
  /** Where in the value, as keys and indexes (`["items", 0, "total"]`). */
  path: readonly PropertyKey[];
  message: string;
  /** The validator's code when it has one (`too_small`, `minLength`, …). */
  code?: string | undefined;
}

/** Why a parse through a schema failed: the parser's code, or `validation-failed` for the schema's own rules. */
export type SchemaParseErrorCode = SapErrorCode | "validation-failed";

export interface SchemaParseErrorInit {
  code: SchemaParseErrorCode;
  message: string;
  raw: string;
  /** JSONPath-like location of the first problem (`$`, `$.items[0].total`). */
  path: string;
  issues?: readonly SchemaIssue[] | undefined;
  cause?: unknown;
}

/**
 * A model's answer could not be turned into a value of a Zod or JSON Schema: either the parser found no
 * value of the type in the text (`cause` is the `SapParseError`, `code` its code), or it found one and the
 * schema's own rules rejected it (`code: "validation-failed"`, `issues` lists them: Zod refinements,
 * `min`/`max`, JSON Schema `minLength`, …). The raw answer is always attached.
 */
export class SchemaParseError extends Error {
  readonly code: SchemaParseErrorCode;
  /** The model's raw answer. */
  readonly raw: string;
  readonly path: string;
  /** What the schema's validation reported (empty when the parser itself failed). */
  readonly issues: readonly SchemaIssue[];

  constructor(init: SchemaParseErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "SchemaParseError";
    markError(this, "SchemaParseError");
    this.code = init.code;
    this.raw = init.raw;
    this.path = init.path;
    this.issues = init.issues ?? [];
  }

  /** `instanceof` that also works across two copies of the package. */
  static isInstance(value: unknown): value is SchemaParseError {
    return hasErrorMark(value, "SchemaParseError");
  }
}

/** `["items", 0, "total"]` → `$.items[0].total`. */
export function issuePath(path: readonly PropertyKey[]): string {
  return `$${path.map((key) => (typeof key === "number" ? `[${key}]` : `.${String(key)}`)).join("")}`;
}
