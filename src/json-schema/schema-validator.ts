/**
 * The one seam to the JSON Schema validator (@cfworker/json-schema; why this one:
 * docs/decisions/0024-json-schema-validator.md). The parsed value is checked against the whole schema
 * as written — formats, bounds, `not`, `if`/`then`/`else`, every union arm — so what the parser reads
 * toward and what the schema allows can never drift apart.
 */
import { format, type OutputUnit, type SchemaDraft, Validator } from "@cfworker/json-schema";
import { type SchemaIssue, UnsupportedSchemaError } from "../typed-schema/index.js";
import { linearPattern } from "./linear-pattern.js";

/** Checks a value against the whole schema; an empty list when it is valid. */
export type SchemaValidator = (value: unknown) => SchemaIssue[];

/**
 * The draft the schema is written in: its `$schema`, else the keywords it uses (a boolean
 * `exclusiveMinimum` is draft-04, `$defs` or `prefixItems` are 2019-09 and later), else draft-07, the
 * draft most schemas without `$schema` are written in (tuples as `items: [...]`).
 */
export function draftOf(schema: Record<string, unknown>): SchemaDraft {
  const declared = typeof schema.$schema === "string" ? schema.$schema : "";
  if (/draft-0[34]/.test(declared)) return "4";
  if (/draft-0[67]/.test(declared)) return "7";
  if (declared.includes("2019-09")) return "2019-09";
  if (declared.includes("2020-12")) return "2020-12";
  const text = JSON.stringify(schema);
  if (/"exclusive(Min|Max)imum":(true|false)/.test(text)) return "4";
  if (/"(\$defs|prefixItems|dependentRequired|dependentSchemas|unevaluatedProperties)":/.test(text))
    return "2020-12";
  return "7";
}

/**
 * A validator for the schema. The schema is copied first: the validator annotates the schema objects it
 * is given, and a caller's schema must stay as it was. OpenAPI's `nullable: true` (not JSON Schema) is
 * rewritten to allow `null`, as OpenAPI means it.
 */
export function createSchemaValidator(schema: Record<string, unknown>): SchemaValidator {
  const copy = withNullable(structuredClone(schema)) as Record<string, unknown>;
  unicodePatterns(copy, "$");
  let validator: Validator;
  try {
    validator = new Validator(copy, draftOf(schema), false);
  } catch (error) {
    // Two sub-schemas with one `$id`, say: the validator cannot tell which a reference means.
    throw new UnsupportedSchemaError(
      `a schema the validator cannot load (${error instanceof Error ? error.message : String(error)})`,
      "$",
      "make every $id in the schema unique.",
    );
  }
  return (value) => {
    let result: ReturnType<Validator["validate"]>;
    try {
      result = validator.validate(value);
    } catch (error) {
      // The validator met something in the schema it cannot evaluate: the value is not known to be valid.
      return [
        { path: [], message: `the validator could not check the value: ${String(error)}`, code: "validator" },
      ];
    }
    return result.valid ? [] : issuesOf(result.errors, value);
  };
}

/**
 * Units that only say "a child failed" (the child's own unit says what) are left out, as are the
 * `false`-schema units an `additionalProperties: false` unit already explains.
 */
const WRAPPERS = new Set([
  "properties",
  "items",
  "prefixItems",
  "additionalItems",
  "patternProperties",
  "allOf",
  "$ref",
  "$recursiveRef",
  "$dynamicRef",
  "unevaluatedProperties",
  "unevaluatedItems",
  "dependentSchemas",
  "false",
]);

function issuesOf(units: readonly OutputUnit[], value: unknown): SchemaIssue[] {
  const leaves = units.filter((unit) => !WRAPPERS.has(unit.keyword));
  const shown = leaves.length > 0 ? leaves : units;
  return shown.map((unit) => {
    // A pattern the linear engine checks is a format to the validator: said as the pattern it is.
    const linear = unit.keyword === "format" && unit.error.includes(`"${LINEAR_FORMAT}`);
    const location = linear
      ? unit.keywordLocation.replace(/(\/allOf\/\d+)?\/format$/, "/pattern")
      : unit.keywordLocation;
    const error = linear ? "String does not match pattern" : unit.error.replace(/\.$/, "");
    return {
      path: pathOf(unit.instanceLocation, value),
      message: `${error} (schema ${location})`,
      code: linear ? "pattern" : unit.keyword,
    };
  });
}

/** The format names under which linear patterns are registered with the validator. */
const LINEAR_FORMAT = "sapling-linear-pattern:";

/**
 * The validator runs `pattern` with JavaScript's backtracking `RegExp`, where `^(a+)+$` against a
 * 30-character answer takes seconds. A pattern the linear engine can run (linear-pattern.ts) becomes a
 * format the validator calls instead (its format table is open to new names); any other pattern stays
 * the validator's (docs/json-schema.md says so).
 */
function linearOrRegExp(record: Record<string, unknown>, pattern: string): void {
  const linear = linearPattern(pattern);
  if (!linear) {
    record.pattern = pattern;
    return;
  }
  const name = `${LINEAR_FORMAT}${pattern}`;
  format[name] ??= (text: string) => linear.test(text);
  delete record.pattern;
  if (record.format === undefined) record.format = name;
  else record.allOf = [...(Array.isArray(record.allOf) ? record.allOf : []), { format: name }];
}

/** `#/items/0/name` → `["items", 0, "name"]` (an index is a number where the value is a list). */
function pathOf(location: string, value: unknown): PropertyKey[] {
  const path: PropertyKey[] = [];
  let at: unknown = value;
  for (const raw of location.replace(/^#\/?/, "").split("/")) {
    if (raw === "") continue;
    const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    const step: PropertyKey = Array.isArray(at) && /^\d+$/.test(key) ? Number(key) : key;
    path.push(step);
    at = typeof at === "object" && at !== null ? (at as Record<PropertyKey, unknown>)[step] : undefined;
  }
  return path;
}

/** OpenAPI 3.0's `nullable: true` as JSON Schema: `null` joins the types (or the enum, or an anyOf). */
function withNullable(node: unknown): unknown {
  if (Array.isArray(node)) {
    for (const item of node) withNullable(item);
    return node;
  }
  if (typeof node !== "object" || node === null) return node;
  const record = node as Record<string, unknown>;
  for (const child of Object.values(record)) withNullable(child);
  if (record.nullable !== true) return record;
  delete record.nullable;
  if (Array.isArray(record.enum) && !record.enum.includes(null)) record.enum.push(null);
  if (typeof record.type === "string") record.type = [record.type, "null"];
  else if (Array.isArray(record.type)) {
    if (!record.type.includes("null")) record.type.push("null");
  } else {
    const rest = { ...record };
    for (const key of Object.keys(record)) delete record[key];
    record.anyOf = [rest, { type: "null" }];
  }
  return record;
}

/**
 * The validator compiles `pattern`s with the `u` flag, as JSON Schema says (ECMA-262 with Unicode), where
 * an escape of a character that needs none (`\'`, `\"`, `\#`) is a syntax error although
 * plain JavaScript accepts it. Such escapes are dropped on the copy (the pattern means the same); a
 * pattern that is still no regular expression is refused, named, before any answer is read.
 */
function unicodePatterns(node: unknown, path: string): void {
  if (typeof node !== "object" || node === null) return;
  if (Array.isArray(node)) {
    for (const [index, item] of node.entries()) unicodePatterns(item, `${path}[${index}]`);
    return;
  }
  const record = node as Record<string, unknown>;
  for (const [key, child] of Object.entries(record)) {
    if (key === "enum" || key === "const" || key === "default" || key === "examples") continue;
    if (key === "pattern" && typeof child === "string") linearOrRegExp(record, unicodePattern(child, path));
    else if (key === "patternProperties" && typeof child === "object" && child !== null) {
      const renamed: Record<string, unknown> = {};
      for (const [pattern, schema] of Object.entries(child)) {
        renamed[unicodePattern(pattern, `${path}.patternProperties`)] = schema;
        unicodePatterns(schema, `${path}.patternProperties`);
      }
      record.patternProperties = renamed;
    } else unicodePatterns(child, `${path}.${key}`);
  }
}

function unicodePattern(pattern: string, path: string): string {
  if (compiles(pattern)) return pattern;
  // Outside a character class, `\` before a character with no meaning (not a letter, digit or syntax
  // character) only stands for that character.
  const unescaped = pattern.replace(
    /\\([^A-Za-z0-9^$\\.*+?()[\]{}|/-])/g,
    (_, character: string) => character,
  );
  if (compiles(unescaped)) return unescaped;
  throw new UnsupportedSchemaError(
    `the pattern ${JSON.stringify(pattern)}`,
    path,
    "it is not a regular expression in JSON Schema's dialect (ECMA-262 with the u flag); fix its escapes.",
  );
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
}
