/** A text that is valid JSON, parsed. */
export interface StrictJson {
  value: unknown;
}

/**
 * The text parsed as strict JSON, or `undefined`. Only texts that can start and end a JSON value are
 * tried (exceptions are slow).
 */
export function parseStrictJson(text: string): StrictJson | undefined {
  const first = text.trimStart()[0];
  if (first === undefined || !/[[{"\d\-tfn]/.test(first)) return undefined;
  // Cheap pre-check on the last character too: `{…` must end with `}`, `[…` with `]`, `"…` with `"`.
  const last = text.trimEnd().at(-1);
  const closer = first === "{" ? "}" : first === "[" ? "]" : first === '"' ? '"' : undefined;
  if (closer !== undefined ? last !== closer : !/[\da-z]/.test(last ?? "")) return undefined;
  try {
    // Trimmed: JSON allows only four whitespace characters around a value; a byte-order mark or a
    // non-breaking space around valid JSON should still take the fast path.
    return { value: JSON.parse(text.trim()) };
  } catch {
    return undefined;
  }
}

/**
 * The JSON object or list a string holds as its whole text (`"{\"city\": \"Paris\"}"`: the model
 * encoded its answer once too often), or `undefined`. Offered as one more reading of an answer that is
 * one quoted string, at the end of a read (`candidatesAtEnd`) and in partials (`PartialReader`) alike; a target
 * that reads text keeps the string, since its exact reading needs no repair.
 */
export function parseJsonInString(value: string): StrictJson | undefined {
  const first = value.trimStart()[0];
  if (first !== "{" && first !== "[") return undefined;
  const strict = parseStrictJson(value);
  return strict !== undefined && typeof strict.value === "object" && strict.value !== null
    ? strict
    : undefined;
}
