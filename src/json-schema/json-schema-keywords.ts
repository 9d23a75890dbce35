/**
 * What each JSON Schema keyword does in Sapling, in one table (docs/json-schema.md lists the same):
 * - `type`: shapes the type the parser reads toward (and is enforced by the validator too);
 * - `validation`: has no parse-time meaning; the validator enforces it on the parsed value;
 * - `prompt`: validation only, and also written into `outputFormat` as a comment (formats, bounds);
 * - `annotation`: read for names and descriptions, or ignored on purpose (it constrains nothing).
 * A keyword not in the table (`x-kubernetes-*`, `javaType`, a typo) is ignored with a warning.
 */
export type KeywordRole = "type" | "validation" | "prompt" | "annotation";

export const KEYWORD_ROLES: Readonly<Record<string, KeywordRole>> = {
  type: "type",
  properties: "type",
  required: "type",
  additionalProperties: "type",
  patternProperties: "type",
  items: "type",
  prefixItems: "type",
  additionalItems: "type",
  enum: "type",
  const: "type",
  anyOf: "type",
  oneOf: "type",
  allOf: "type",
  $ref: "type",
  $recursiveRef: "type",
  nullable: "type",
  default: "type",
  $defs: "type",
  definitions: "type",
  format: "prompt",
  minimum: "prompt",
  maximum: "prompt",
  exclusiveMinimum: "prompt",
  exclusiveMaximum: "prompt",
  multipleOf: "prompt",
  minLength: "prompt",
  maxLength: "prompt",
  pattern: "prompt",
  minItems: "prompt",
  maxItems: "prompt",
  uniqueItems: "prompt",
  not: "validation",
  if: "validation",
  // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, in a lookup table never awaited.
  then: "validation",
  else: "validation",
  dependentRequired: "validation",
  dependentSchemas: "validation",
  dependencies: "validation",
  contains: "validation",
  minContains: "validation",
  maxContains: "validation",
  minProperties: "validation",
  maxProperties: "validation",
  propertyNames: "validation",
  unevaluatedProperties: "validation",
  unevaluatedItems: "validation",
  // 2020-12's dynamic reference: the validator follows it; the parser reads the schema beside it.
  $dynamicRef: "validation",
  $schema: "annotation",
  $id: "annotation",
  id: "annotation",
  $anchor: "annotation",
  $dynamicAnchor: "annotation",
  $recursiveAnchor: "annotation",
  $vocabulary: "annotation",
  $comment: "annotation",
  title: "annotation",
  description: "annotation",
  examples: "annotation",
  example: "annotation",
  deprecated: "annotation",
  readOnly: "annotation",
  writeOnly: "annotation",
  contentEncoding: "annotation",
  contentMediaType: "annotation",
  contentSchema: "annotation",
  // OpenAI structured outputs' own flag; it says how the API decodes, nothing about the value.
  strict: "annotation",
};

/** Keywords whose presence makes a schema without `type` an object, an array, a string or a number. */
export const OBJECT_KEYWORDS = [
  "properties",
  "patternProperties",
  "additionalProperties",
  "required",
  "minProperties",
  "maxProperties",
  "propertyNames",
  "dependentRequired",
  "dependencies",
];
export const ARRAY_KEYWORDS = ["items", "prefixItems", "additionalItems", "minItems", "maxItems", "contains"];
export const STRING_KEYWORDS = ["minLength", "maxLength", "pattern", "format"];
export const NUMBER_KEYWORDS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"];

/** Keywords that give a schema a shape of its own; a schema with none of them only constrains. */
export const SHAPE_KEYWORDS = [
  "type",
  "properties",
  "patternProperties",
  "additionalProperties",
  "items",
  "prefixItems",
  "enum",
  "const",
  "anyOf",
  "oneOf",
  "allOf",
  "$ref",
  "$recursiveRef",
];
