import { type SchemaIssue, UnsupportedSchemaError } from "../typed-schema/index.js";

/** Checks one value against a sub-schema's rules, adding what is wrong to `issues`. */
export type Validator = (value: unknown, at: PropertyKey[], issues: SchemaIssue[]) => void;

type Rule = {
  keyword: string;
  applies: (value: unknown) => boolean;
  fails: (value: never) => boolean;
  says: string;
};

/**
 * The bounds of a sub-schema (`minimum`, `maxLength`, `pattern`, `minItems`, …), checked after parsing:
 * the parser reads toward the type; these say which values of the type the schema allows. A rule applies
 * only to values of its kind (a `minLength` ignores numbers), as JSON Schema defines.
 */
export function boundsValidator(node: Record<string, unknown>, path: string): Validator | undefined {
  const rules: Rule[] = [];
  const number = (keyword: string): number | undefined => {
    const value = node[keyword];
    if (value === undefined) return undefined;
    if (typeof value !== "number")
      throw new UnsupportedSchemaError(
        `"${keyword}": ${JSON.stringify(value)}`,
        path,
        `${keyword} must be a number.`,
      );
    return value;
  };
  const isNumber = (value: unknown): boolean => typeof value === "number";
  const isString = (value: unknown): boolean => typeof value === "string";
  const minimum = number("minimum");
  if (minimum !== undefined)
    rules.push({
      keyword: "minimum",
      applies: isNumber,
      fails: (value: number) => value < minimum,
      says: `must be ≥ ${minimum}`,
    });
  const maximum = number("maximum");
  if (maximum !== undefined)
    rules.push({
      keyword: "maximum",
      applies: isNumber,
      fails: (value: number) => value > maximum,
      says: `must be ≤ ${maximum}`,
    });
  const exclusiveMinimum = number("exclusiveMinimum");
  if (exclusiveMinimum !== undefined)
    rules.push({
      keyword: "exclusiveMinimum",
      applies: isNumber,
      fails: (value: number) => value <= exclusiveMinimum,
      says: `must be > ${exclusiveMinimum}`,
    });
  const exclusiveMaximum = number("exclusiveMaximum");
  if (exclusiveMaximum !== undefined)
    rules.push({
      keyword: "exclusiveMaximum",
      applies: isNumber,
      fails: (value: number) => value >= exclusiveMaximum,
      says: `must be < ${exclusiveMaximum}`,
    });
  const multipleOf = number("multipleOf");
  if (multipleOf !== undefined)
    rules.push({
      keyword: "multipleOf",
      applies: isNumber,
      fails: (value: number) => !Number.isInteger(Number((value / multipleOf).toPrecision(12))),
      says: `must be a multiple of ${multipleOf}`,
    });
  const minLength = number("minLength");
  if (minLength !== undefined)
    rules.push({
      keyword: "minLength",
      applies: isString,
      fails: (value: string) => [...value].length < minLength,
      says: `must have at least ${minLength} characters`,
    });
  const maxLength = number("maxLength");
  if (maxLength !== undefined)
    rules.push({
      keyword: "maxLength",
      applies: isString,
      fails: (value: string) => [...value].length > maxLength,
      says: `must have at most ${maxLength} characters`,
    });
  if (node.pattern !== undefined) {
    if (typeof node.pattern !== "string")
      throw new UnsupportedSchemaError(
        `"pattern": ${JSON.stringify(node.pattern)}`,
        path,
        "pattern must be a string.",
      );
    let expression: RegExp;
    try {
      expression = new RegExp(node.pattern, "u");
    } catch {
      throw new UnsupportedSchemaError(
        `the pattern ${JSON.stringify(node.pattern)}`,
        path,
        "it is not a valid regular expression.",
      );
    }
    rules.push({
      keyword: "pattern",
      applies: isString,
      fails: (value: string) => !expression.test(value),
      says: `must match ${node.pattern}`,
    });
  }
  const minItems = number("minItems");
  if (minItems !== undefined)
    rules.push({
      keyword: "minItems",
      applies: Array.isArray,
      fails: (value: unknown[]) => value.length < minItems,
      says: `must have at least ${minItems} items`,
    });
  const maxItems = number("maxItems");
  if (maxItems !== undefined)
    rules.push({
      keyword: "maxItems",
      applies: Array.isArray,
      fails: (value: unknown[]) => value.length > maxItems,
      says: `must have at most ${maxItems} items`,
    });
  if (rules.length === 0) return undefined;
  return (value, at, issues) => {
    for (const rule of rules) {
      if (rule.applies(value) && rule.fails(value as never))
        issues.push({ path: at, message: `${JSON.stringify(value)} ${rule.says}`, code: rule.keyword });
    }
  };
}
