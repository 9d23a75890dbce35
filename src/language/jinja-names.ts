/**
 * The names a Jinja template reads and binds, found by a small scan of its `{{ … }}` and `{% … %}` tags
 * (comments `{# … #}` and `{% raw %}` blocks skipped). "Read" names are those at the root of an
 * expression: not after a `.`, not a filter or test name, not a keyword argument. "Bound" names come from
 * `set`, `for`, `macro` and `with`, anywhere in the template (scopes are ignored on purpose: the check
 * that uses this only warns, so it errs on the side of silence).
 */
export interface JinjaNames {
  /** Root names read, with their offsets in the template. */
  reads: { name: string; offset: number }[];
  bound: Set<string>;
}

const identifierPattern = /[A-Za-z_][A-Za-z0-9_]*/y;

export function jinjaNames(template: string): JinjaNames {
  const reads: JinjaNames["reads"] = [];
  const bound = new Set<string>();
  let index = 0;
  while (index < template.length) {
    const open = template.indexOf("{", index);
    if (open < 0) break;
    const kind = template[open + 1];
    if (kind === "#") {
      const close = template.indexOf("#}", open + 2);
      index = close < 0 ? template.length : close + 2;
      continue;
    }
    if (kind !== "{" && kind !== "%") {
      index = open + 1;
      continue;
    }
    const closer = kind === "{" ? "}}" : "%}";
    const close = template.indexOf(closer, open + 2);
    const end = close < 0 ? template.length : close;
    // Whitespace control (`{%-`, `{{+`) is not part of the expression.
    const contentStart = template[open + 2] === "-" || template[open + 2] === "+" ? open + 3 : open + 2;
    const tokens = tokenize(template, contentStart, end);
    if (kind === "%" && tokens[0]?.text === "raw") {
      const endRaw = template.indexOf("endraw", end);
      index = endRaw < 0 ? template.length : endRaw + 6;
      continue;
    }
    collect(tokens, kind === "%", reads, bound);
    index = close < 0 ? template.length : close + 2;
  }
  return { reads, bound };
}

interface JinjaToken {
  text: string;
  offset: number;
  identifier: boolean;
}

function tokenize(template: string, start: number, end: number): JinjaToken[] {
  const tokens: JinjaToken[] = [];
  let index = start;
  while (index < end) {
    const character = template[index] as string;
    if (character === '"' || character === "'") {
      let close = index + 1;
      while (close < end && template[close] !== character) close += template[close] === "\\" ? 2 : 1;
      tokens.push({ text: "<string>", offset: index, identifier: false });
      index = close + 1;
      continue;
    }
    identifierPattern.lastIndex = index;
    const match = identifierPattern.exec(template);
    if (match && match.index === index) {
      tokens.push({ text: match[0], offset: index, identifier: true });
      index += match[0].length;
      continue;
    }
    if (/\s/.test(character)) {
      index++;
      continue;
    }
    // Two-character operators matter only for telling `x == y` from a keyword argument `x=y`.
    const pair = template.slice(index, index + 2);
    const text = ["==", "!=", "<=", ">="].includes(pair) ? pair : character;
    tokens.push({ text, offset: index, identifier: false });
    index += text.length;
  }
  return tokens;
}

function collect(
  tokens: JinjaToken[],
  statement: boolean,
  reads: JinjaNames["reads"],
  bound: Set<string>,
): void {
  const first = tokens[0]?.text;
  let from = 0;
  if (statement && (first === "set" || first === "for" || first === "with")) {
    // Names before `=` (set/with) or `in` (for) are bound.
    const stop = first === "for" ? "in" : "=";
    let index = 1;
    for (; index < tokens.length && tokens[index]?.text !== stop; index++) {
      const token = tokens[index] as JinjaToken;
      if (token.identifier) bound.add(token.text);
    }
    from = index + 1;
  } else if (statement && first === "macro") {
    for (const token of tokens.slice(1)) if (token.identifier) bound.add(token.text);
    return;
  } else if (statement && first !== undefined) {
    from = statementKeywords.has(first) ? 1 : 0;
  }
  for (let index = from; index < tokens.length; index++) {
    const token = tokens[index] as JinjaToken;
    if (!token.identifier || keywords.has(token.text)) continue;
    const previous = tokens[index - 1]?.text;
    const next = tokens[index + 1]?.text;
    if (previous === "." || previous === "|") continue;
    if (previous === "is" || (previous === "not" && tokens[index - 2]?.text === "is")) continue;
    if (next === "=") continue; // keyword argument
    reads.push({ name: token.text, offset: token.offset });
  }
}

/** Statement keywords whose following tokens are expressions. */
const statementKeywords = new Set([
  "if",
  "elif",
  "else",
  "endif",
  "endfor",
  "endset",
  "endmacro",
  "call",
  "filter",
  "endwith",
  "endcall",
  "endfilter",
  "include",
  "import",
  "from",
  "block",
  "endblock",
  "extends",
  "do",
]);

/** Words that are never variables. */
const keywords = new Set([
  "and",
  "or",
  "not",
  "in",
  "is",
  "if",
  "else",
  "elif",
  "for",
  "as",
  "recursive",
  "import",
  "from",
  "with",
  "true",
  "false",
  "none",
  "True",
  "False",
  "None",
  "null",
  "loop",
  "self",
  "varargs",
  "kwargs",
  "caller",
]);
