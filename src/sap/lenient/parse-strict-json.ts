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
  // And on what follows the opening brackets (`{name: …}` throws, and a thrown error costs more than
  // reading a short answer).
  if ((first === "{" || first === "[") && !opensValidly(text)) return undefined;
  try {
    // Trimmed: JSON allows only four whitespace characters around a value; a byte-order mark or a
    // non-breaking space around valid JSON should still take the fast path.
    return { value: JSON.parse(text.trim()) };
  } catch {
    return undefined;
  }
}

/**
 * Whether the brackets that open `text` (its first non-blank character is `{` or `[`) are followed as in
 * valid JSON: after JSON's blanks, an object's first key's quote or its end, a list's first value or its
 * end (nested openers are followed in turn).
 */
function opensValidly(text: string): boolean {
  let index = text.length - text.trimStart().length;
  for (;;) {
    const opener = text.charCodeAt(index);
    let code = text.charCodeAt(++index);
    while (code === 32 || code === 10 || code === 13 || code === 9) code = text.charCodeAt(++index);
    if (opener === 123 /* { */) return code === QUOTE || code === 125; /* } */
    if (code === 123 || code === 91 /* [ */) continue;
    return code === 93 /* ] */ || code === QUOTE || VALUE_START.test(text[index] ?? "");
  }
}

const QUOTE = 34;
/** The first character of a number or literal (`-1`, `2`, `true`, `false`, `null`). */
const VALUE_START = /[-\dtfn]/;

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
