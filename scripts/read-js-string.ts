/**
 * Reading JavaScript string literals out of another project's test file, for the scripts that run those
 * tests' cases through Sapling (scripts/jsonrepair-pairs.ts, scripts/fix-json-prefixes.ts).
 */

/** Reads a JavaScript string literal ('…', "…" or a template without `${`) at `at`. */
export function readJsString(text: string, at: number): { value: string; end: number } | undefined {
  const quote = text[at];
  if (quote !== "'" && quote !== '"' && quote !== "`") return undefined;
  const escapes: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", v: "\v", "0": "\0" };
  let value = "";
  let index = at + 1;
  while (index < text.length && text[index] !== quote) {
    const char = text[index]!;
    if (quote === "`" && char === "$" && text[index + 1] === "{") return undefined;
    if (char !== "\\") {
      value += char;
      index++;
      continue;
    }
    const next = text[index + 1] ?? "";
    if (next === "u") {
      const braced = text[index + 2] === "{";
      const hex = braced ? text.slice(index + 3, text.indexOf("}", index)) : text.slice(index + 2, index + 6);
      value += braced
        ? String.fromCodePoint(Number.parseInt(hex, 16))
        : String.fromCharCode(Number.parseInt(hex, 16));
      index += braced ? hex.length + 4 : 6;
    } else if (next === "x") {
      value += String.fromCharCode(Number.parseInt(text.slice(index + 2, index + 4), 16));
      index += 4;
    } else if (next === "\n") {
      index += 2;
    } else {
      value += escapes[next] ?? next;
      index += 2;
    }
  }
  return index < text.length ? { value, end: index + 1 } : undefined;
}
