import { LinearRegex } from "../prompt/index.js";

/**
 * A JSON Schema `pattern` (ECMA-262 with the `u` flag) as a regular expression matched in time linear in
 * the text (Sapling's own engine, `LinearRegex`: no pattern and no answer can make it backtrack), or
 * `undefined` when the pattern uses something the two dialects do not read alike. Only a common subset
 * is translated, so the linear match means exactly what the validator's `RegExp` would: literals and
 * escaped punctuation, `.`, `^`, `$`, groups and `(?:…)`, alternation, every quantifier, classes with
 * ranges, and `\d`, `\D`, `\w`, `\W` (written out as the ASCII classes they are in ECMA-262). Anything
 * else (`\s`, `\b`, `\p{…}`, `\u…`, lookaround, backreferences, `[]`) is left to the validator's `RegExp`.
 */
export function linearPattern(pattern: string): LinearRegex | undefined {
  const translated = translate(pattern);
  if (translated === undefined) return undefined;
  try {
    return LinearRegex.compile(translated);
  } catch {
    return undefined;
  }
}

/** ECMA-262's `.` without the `s` flag: anything but the four line terminators. */
const DOT = "[^\\n\\r\u2028\u2029]";
const OUTSIDE: Record<string, string> = { d: "[0-9]", D: "[^0-9]", w: "[0-9A-Za-z_]", W: "[^0-9A-Za-z_]" };
const INSIDE: Record<string, string> = { d: "0-9", w: "0-9A-Za-z_" };
const CONTROL = new Set(["n", "t", "r", "f", "v"]);

function translate(pattern: string): string | undefined {
  const characters = [...pattern];
  let out = "";
  let inClass = false;
  for (let index = 0; index < characters.length; index++) {
    const character = characters[index] as string;
    if (character === "\\") {
      const next = characters[++index];
      if (next === undefined) return undefined;
      const written = (inClass ? INSIDE : OUTSIDE)[next];
      if (written !== undefined) out += written;
      else if (CONTROL.has(next) || !/[\p{L}\p{N}]/u.test(next)) out += `\\${next}`;
      else return undefined;
      continue;
    }
    if (inClass) {
      if (character === "]") inClass = false;
      // Characters Rust's class syntax reads as operators are plain characters in ECMA-262.
      out += character === "[" || character === "&" || character === "~" ? `\\${character}` : character;
      continue;
    }
    if (character === "[") {
      inClass = true;
      out += "[";
      if (characters[index + 1] === "^") out += characters[++index];
      // `[]` matches nothing and `[^]` anything in ECMA-262; Rust reads a first `]` as a character.
      if (characters[index + 1] === "]") return undefined;
      continue;
    }
    if (character === "(" && characters[index + 1] === "?") {
      if (characters[index + 2] !== ":") return undefined;
      out += "(?:";
      index += 2;
      continue;
    }
    out += character === "." ? DOT : character;
  }
  return inClass ? undefined : out;
}
