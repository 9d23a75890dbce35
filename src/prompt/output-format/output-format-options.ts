import { OutputFormatError } from "../../output-schema/index.js";

/**
 * Options of `ctx.output_format(...)`, BAML's names in camelCase. Leaving an option out means BAML's
 * default; `null` (for `prefix`, `enumValuePrefix`, `hoistedClassPrefix`) means "none".
 */
export interface OutputFormatOptions {
  /** Text before the schema; `null` drops it. Default depends on the target type. */
  prefix?: string | null;
  /** Joins union arms and inline enum values. Default `" or "`. */
  orSplitter?: string;
  /** Starts each line of a hoisted enum. Default `"- "`; `null` = nothing. */
  enumValuePrefix?: string | null;
  /** Hoist every enum above the prefix, not only long or described ones. */
  alwaysHoistEnums?: boolean;
  /** Word before hoisted class names (`interface Node { … }`); also replaces "schema" in the prefix. */
  hoistedClassPrefix?: string | null;
  /** `true` hoists every class, `false`/`"auto"` only recursive ones, a list hoists those named. */
  hoistClasses?: boolean | "auto" | string[];
  /** `"angle"` → `map<K, V>` (default), `"object"` → `{K: V}`. */
  mapStyle?: "angle" | "object";
  /** Print class fields as `"name": type`. */
  quoteClassFields?: boolean;
  /** The word printed for `null` in types (`string or None`). Default `"null"`. */
  renderNullAs?: string | null;
}

/** The Jinja keyword names, in the order BAML documents them. */
export const OUTPUT_FORMAT_OPTION_NAMES = [
  "prefix",
  "or_splitter",
  "enum_value_prefix",
  "always_hoist_enums",
  "hoisted_class_prefix",
  "hoist_classes",
  "map_style",
  "quote_class_fields",
  "render_null_as",
] as const;

/**
 * Reads options written with BAML's snake_case keyword names (`ctx.output_format(or_splitter=" | ")`, the
 * `options` of a `--jsonl` line). Unknown names and wrongly typed values throw `OutputFormatError`.
 */
export function parseOutputFormatOptions(raw: Record<string, unknown>): OutputFormatOptions {
  const options: OutputFormatOptions = {};
  for (const [name, value] of Object.entries(raw)) {
    switch (name) {
      case "prefix":
        options.prefix = stringOrNull(name, value);
        break;
      case "or_splitter":
        if (typeof value !== "string") throw invalid(name, "a string", value);
        options.orSplitter = value;
        break;
      case "enum_value_prefix":
        options.enumValuePrefix = stringOrNull(name, value);
        break;
      case "always_hoist_enums":
        if (typeof value !== "boolean") throw invalid(name, "a bool", value);
        options.alwaysHoistEnums = value;
        break;
      case "hoisted_class_prefix":
        options.hoistedClassPrefix = stringOrNull(name, value);
        break;
      case "hoist_classes":
        if (typeof value === "boolean" || value === "auto") options.hoistClasses = value;
        else if (Array.isArray(value) && value.every((item) => typeof item === "string"))
          options.hoistClasses = value as string[];
        else throw invalid(name, 'one of true, false, "auto" or a list of class names', value);
        break;
      case "map_style":
        if (value !== "angle" && value !== "object") throw invalid(name, '"angle" or "object"', value);
        options.mapStyle = value;
        break;
      case "quote_class_fields":
        if (typeof value !== "boolean") throw invalid(name, "a bool", value);
        options.quoteClassFields = value;
        break;
      case "render_null_as":
        options.renderNullAs = stringOrNull(name, value);
        break;
      default:
        throw new OutputFormatError(
          "unknown_option",
          `ctx.output_format() got an unknown option "${name}". Allowed options: ${OUTPUT_FORMAT_OPTION_NAMES.join(", ")}.`,
        );
    }
  }
  return options;
}

function stringOrNull(name: string, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== "string") throw invalid(name, "a string or null", value);
  return value;
}

function invalid(name: string, expected: string, value: unknown): OutputFormatError {
  const found = value === undefined ? "nothing" : JSON.stringify(value);
  return new OutputFormatError(
    "invalid_option",
    `ctx.output_format() option "${name}" must be ${expected}, but got ${found}.`,
  );
}
