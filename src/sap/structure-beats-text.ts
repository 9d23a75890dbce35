/**
 * Whether a structured reading makes the whole-answer plain-text reading moot: the answer is one JSON
 * value (repaired or cut off; in a fence, or with nothing but blanks around it) and it fits the type as
 * something other than a string. Reading the answer as plain text then only keeps that value's syntax
 * as a string — `{"foo":"bar` for `string | map<string, string>` is the map, not the text. Final mode and
 * streaming both ask this before trying the plain text.
 */
export function structureBeatsText(value: unknown, wholeAnswer: boolean): boolean {
  return wholeAnswer && typeof value !== "string";
}

/** Whether `text` holds only whitespace from `from` to `to`. */
export function blankBetween(text: string, from: number, to: number): boolean {
  for (let index = from; index < to; index++) {
    const code = text.charCodeAt(index);
    if (code > 32 && !/\s/.test(text[index]!)) return false;
  }
  return true;
}
