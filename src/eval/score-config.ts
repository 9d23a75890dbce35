import { hasErrorMark, markError } from "../util/index.js";
/**
 * The per-field scoring overrides of `sapling eval --score FILE`: a small JSON file keyed by field path.
 * Paths name fields from the return value down: `skills`, `work_history[].role` (`[]` steps into list
 * items, `{}` into map values); `$` is the value itself.
 */

/** How one field is compared; every option is optional and the type decides the default. */
export interface FieldRule {
  /** `exact` (deep equality), `number` (within `tolerance`), `text` (normalised), `ignore` (not scored). */
  scorer?: "exact" | "number" | "text" | "ignore";
  /** Numbers: the largest absolute difference still counted as equal (default 1e-6 for floats, 0 for ints). */
  tolerance?: number;
  /** Text: the smallest similarity in (0, 1] (1 − edit distance / length, after normalising) counted as equal. */
  similarity?: number;
  /** Text: compare case, spaces and punctuation as written (default false: normalised). */
  caseSensitive?: boolean;
  /** Lists: `ordered` (item by item, default) or `set` (any order; each expected item matched once). */
  list?: "ordered" | "set";
}

export interface ScoreConfig {
  fields: Record<string, FieldRule>;
}

/** A scoring file that cannot be used; the message names the file, the path and the fix. */
export class EvalConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EvalConfigError";
    markError(this, "EvalConfigError");
  }

  /** `instanceof` that also works across two copies of the package. */
  static isInstance(value: unknown): value is EvalConfigError {
    return hasErrorMark(value, "EvalConfigError");
  }
}

const ruleKeys = new Set(["scorer", "tolerance", "similarity", "caseSensitive", "list"]);
const scorers = new Set(["exact", "number", "text", "ignore"]);

/** Reads a scoring file's JSON value (already parsed), checking every rule; `source` names it in errors. */
export function parseScoreConfig(value: unknown, source: string): ScoreConfig {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new EvalConfigError(
      `${source}: expected a JSON object like {"fields": {"skills": {"list": "set"}}}`,
    );
  const unknown = Object.keys(value).filter((key) => key !== "fields");
  if (unknown.length > 0)
    throw new EvalConfigError(
      `${source}: unknown key ${JSON.stringify(unknown[0])}; the file has one key, "fields"`,
    );
  const fields = (value as { fields?: unknown }).fields ?? {};
  if (fields === null || typeof fields !== "object" || Array.isArray(fields))
    throw new EvalConfigError(`${source}: "fields" must be an object keyed by field path`);
  const result: Record<string, FieldRule> = {};
  for (const [path, rule] of Object.entries(fields))
    result[path] = parseRule(rule, `${source}: fields.${path}`);
  return { fields: result };
}

function parseRule(rule: unknown, where: string): FieldRule {
  if (rule === null || typeof rule !== "object" || Array.isArray(rule))
    throw new EvalConfigError(`${where}: expected an object such as {"scorer": "text", "similarity": 0.9}`);
  for (const key of Object.keys(rule))
    if (!ruleKeys.has(key))
      throw new EvalConfigError(
        `${where}: unknown option ${JSON.stringify(key)}; the options are ${[...ruleKeys].join(", ")}`,
      );
  const { scorer, tolerance, similarity, caseSensitive, list } = rule as Record<string, unknown>;
  const parsed: FieldRule = {};
  if (scorer !== undefined) {
    if (typeof scorer !== "string" || !scorers.has(scorer))
      throw new EvalConfigError(
        `${where}.scorer: must be "exact", "number", "text" or "ignore", got ${JSON.stringify(scorer)}`,
      );
    parsed.scorer = scorer as FieldRule["scorer"] & string;
  }
  if (tolerance !== undefined) {
    if (typeof tolerance !== "number" || !(tolerance >= 0))
      throw new EvalConfigError(
        `${where}.tolerance: must be a number of at least 0, got ${JSON.stringify(tolerance)}`,
      );
    parsed.tolerance = tolerance;
  }
  if (similarity !== undefined) {
    if (typeof similarity !== "number" || !(similarity > 0 && similarity <= 1))
      throw new EvalConfigError(
        `${where}.similarity: must be a number in (0, 1], got ${JSON.stringify(similarity)}`,
      );
    parsed.similarity = similarity;
  }
  if (caseSensitive !== undefined) {
    if (typeof caseSensitive !== "boolean")
      throw new EvalConfigError(`${where}.caseSensitive: must be true or false`);
    parsed.caseSensitive = caseSensitive;
  }
  if (list !== undefined) {
    if (list !== "ordered" && list !== "set")
      throw new EvalConfigError(`${where}.list: must be "ordered" or "set", got ${JSON.stringify(list)}`);
    parsed.list = list;
  }
  return parsed;
}
