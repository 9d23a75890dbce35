/**
 * The rules of a property the model should know while it writes (a format, bounds, a pattern), as the
 * short note `outputFormat` shows beside the field: `format: date`, `1 ≤ value ≤ 5`, `at most 3 items`.
 * Rules the model cannot act on (`not`, `if`/`then`) are left to the validator alone.
 */
export function constraintNote(node: Record<string, unknown>): string | undefined {
  const notes: string[] = [];
  const number = (keyword: string): number | undefined =>
    typeof node[keyword] === "number" ? (node[keyword] as number) : undefined;
  if (typeof node.format === "string") notes.push(`format: ${node.format}`);
  const minimum = number("minimum");
  const maximum = number("maximum");
  // draft-04 writes exclusive bounds as booleans beside minimum/maximum.
  const exclusiveMinimum =
    number("exclusiveMinimum") ?? (node.exclusiveMinimum === true ? minimum : undefined);
  const exclusiveMaximum =
    number("exclusiveMaximum") ?? (node.exclusiveMaximum === true ? maximum : undefined);
  if (exclusiveMinimum !== undefined) notes.push(`> ${exclusiveMinimum}`);
  else if (minimum !== undefined) notes.push(`≥ ${minimum}`);
  if (exclusiveMaximum !== undefined) notes.push(`< ${exclusiveMaximum}`);
  else if (maximum !== undefined) notes.push(`≤ ${maximum}`);
  const multipleOf = number("multipleOf");
  if (multipleOf !== undefined) notes.push(`multiple of ${multipleOf}`);
  const minLength = number("minLength");
  const maxLength = number("maxLength");
  if (minLength !== undefined) notes.push(`at least ${minLength} characters`);
  if (maxLength !== undefined) notes.push(`at most ${maxLength} characters`);
  if (typeof node.pattern === "string") notes.push(`pattern: ${node.pattern}`);
  const minItems = number("minItems");
  const maxItems = number("maxItems");
  if (minItems !== undefined) notes.push(`at least ${minItems} items`);
  if (maxItems !== undefined) notes.push(`at most ${maxItems} items`);
  if (node.uniqueItems === true) notes.push("unique items");
  return notes.length === 0 ? undefined : `(${notes.join(", ")})`;
}
