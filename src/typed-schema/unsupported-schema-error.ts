import { hasErrorMark, markError } from "../util/index.js";

/**
 * A schema uses a feature that has no counterpart in Sapling's types (a Zod `z.date()`, a JSON Schema
 * `patternProperties`, …). Names the feature and where it is, and says what to write instead. Thrown when
 * the schema is converted, before any answer is read, so it shows up on the first call.
 */
export class UnsupportedSchemaError extends Error {
  /** The feature, as its library names it (`z.date()`, `patternProperties`). */
  readonly feature: string;
  /** Where in the schema (`$.items[].created_at`). */
  readonly path: string;

  constructor(feature: string, path: string, hint: string) {
    super(`${feature} at ${path} is not supported: ${hint}`);
    this.name = "UnsupportedSchemaError";
    markError(this, "UnsupportedSchemaError");
    this.feature = feature;
    this.path = path;
  }

  /** `instanceof` that also works across two copies of the package. */
  static isInstance(value: unknown): value is UnsupportedSchemaError {
    return hasErrorMark(value, "UnsupportedSchemaError");
  }
}
