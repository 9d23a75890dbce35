import { hasErrorMark, markError } from "../util/index.js";
import { IR_VERSION, type Ir } from "./types.js";

/** Thrown when serialized IR cannot be used by this version of Sapling. */
export class IrVersionError extends Error {
  readonly code = "IR_VERSION";
  constructor(readonly found: unknown) {
    super(
      `This IR has version ${JSON.stringify(found)}, but this Sapling reads version ${IR_VERSION}. ` +
        "Regenerate the client with the installed Sapling (`sapling generate`).",
    );
    this.name = "IrVersionError";
    markError(this, "IrVersionError");
  }

  /** `instanceof` that also works across two copies of the package. */
  static isInstance(value: unknown): value is IrVersionError {
    return hasErrorMark(value, "IrVersionError");
  }
}

const sections = [
  "classes",
  "enums",
  "aliases",
  "functions",
  "clients",
  "retryPolicies",
  "templateStrings",
  "generators",
  "tests",
] as const;

/**
 * Load IR from data (parsed JSON or a JSON string), checking the version and the top-level shape.
 * Returns the same object when it is already an `Ir`.
 */
export function loadIr(data: unknown): Ir {
  const value = typeof data === "string" ? (JSON.parse(data) as unknown) : data;
  if (typeof value !== "object" || value === null) {
    throw new TypeError(`IR must be an object; got ${value === null ? "null" : typeof value}.`);
  }
  const record = value as Record<string, unknown>;
  if (record.version !== IR_VERSION) throw new IrVersionError(record.version);
  for (const section of sections) {
    if (!Array.isArray(record[section])) {
      throw new TypeError(`IR is missing the "${section}" list; it was not produced by Sapling's compiler.`);
    }
  }
  return value as Ir;
}

/** An empty IR, for building projects in code (TypeBuilder, tests). */
export function emptyIr(): Ir {
  return {
    version: IR_VERSION,
    classes: [],
    enums: [],
    aliases: [],
    functions: [],
    clients: [],
    retryPolicies: [],
    templateStrings: [],
    generators: [],
    tests: [],
  };
}
