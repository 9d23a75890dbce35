import { JinjaError } from "./jinja-error.js";

/**
 * Jinja tokenizer with Minijinja's whitespace rules as BAML configures them: `trim_blocks` (the first
 * newline after a block or comment tag is removed), `lstrip_blocks` (spaces and tabs between the start of a
 * line and a block or comment tag are removed), and the `-` / `+` modifiers on tags. One pass over the
 * source; every token keeps its offset so errors can point into the template. Long because tag scanning,
 * whitespace control and expression tokens are one state machine.
 */
export type TokenKind =
  | "text"
  | "variable-start"
  | "variable-end"
  | "block-start"
  | "block-end"
  | "name"
  | "string"
  | "integer"
  | "float"
  | "operator"
  | "end";

export interface Token {
  kind: TokenKind;
  value: string;
  offset: number;
}

const OPERATORS = [
  "**",
  "//",
  "==",
  "!=",
  "<=",
  ">=",
  "+",
  "-",
  "*",
  "/",
  "%",
  "~",
  "<",
  ">",
  "=",
  ".",
  ",",
  ":",
  "|",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
];

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let position = 0;
  /** Set by a `-` before a closing delimiter: strip all whitespace at the start of the next text. */
  let stripNextText = false;

  const pushText = (text: string, offset: number): void => {
    let value = text;
    let start = offset;
    if (stripNextText) {
      const kept = value.replace(/^\s+/, "");
      start += value.length - kept.length;
      value = kept;
      stripNextText = false;
    }
    if (value.length > 0) tokens.push({ kind: "text", value, offset: start });
  };

  while (position < source.length) {
    const open = findTagStart(source, position);
    if (open === -1) {
      pushText(source.slice(position), position);
      break;
    }
    const kind = source[open + 1] === "{" ? "variable" : source[open + 1] === "%" ? "block" : "comment";
    const modifier = source[open + 2];
    let textEnd = open;
    if (modifier === "-") {
      while (textEnd > position && /\s/.test(source[textEnd - 1] ?? "")) textEnd--;
    } else if (modifier !== "+" && kind !== "variable") {
      // lstrip_blocks: only when nothing but spaces/tabs precede the tag on its line.
      let lineStart = textEnd;
      while (lineStart > position && (source[lineStart - 1] === " " || source[lineStart - 1] === "\t"))
        lineStart--;
      if (lineStart === 0 || source[lineStart - 1] === "\n") textEnd = lineStart;
    }
    pushText(source.slice(position, textEnd), position);
    let cursor = open + 2 + (modifier === "-" || modifier === "+" ? 1 : 0);

    if (kind === "comment") {
      const close = source.indexOf("#}", cursor);
      if (close === -1) throw new JinjaError("syntax_error", "Unclosed comment: add `#}`.", open);
      if (source[close - 1] === "-") stripNextText = true;
      position = afterClose(source, close, close + 2, true);
      continue;
    }

    const closer = kind === "variable" ? "}}" : "%}";
    tokens.push({ kind: kind === "variable" ? "variable-start" : "block-start", value: "", offset: open });
    const rawStart = tokens.length;
    for (;;) {
      while (cursor < source.length && /\s/.test(source[cursor] ?? "")) cursor++;
      if (cursor >= source.length) {
        throw new JinjaError("syntax_error", `Unclosed tag: add \`${closer}\`.`, open);
      }
      const trimming = source[cursor] === "-" && source.startsWith(closer, cursor + 1);
      const keeping = source[cursor] === "+" && source.startsWith(closer, cursor + 1);
      if (trimming || keeping || source.startsWith(closer, cursor)) {
        const closeAt = trimming || keeping ? cursor + 1 : cursor;
        tokens.push({ kind: kind === "variable" ? "variable-end" : "block-end", value: "", offset: closeAt });
        if (trimming) stripNextText = true;
        position = afterClose(source, closeAt, closeAt + 2, kind === "block" && !keeping && !trimming);
        break;
      }
      cursor = lexExpressionToken(source, cursor, tokens);
    }

    // `{% raw %}…{% endraw %}` keeps its body verbatim.
    const first = tokens[rawStart];
    if (
      kind === "block" &&
      first?.kind === "name" &&
      first.value === "raw" &&
      tokens.length === rawStart + 2
    ) {
      tokens.length = rawStart - 1;
      const end = /\{%(-?)\s*endraw\s*(-?)%\}/g;
      end.lastIndex = position;
      const match = end.exec(source);
      if (!match) throw new JinjaError("syntax_error", "Unclosed `{% raw %}`: add `{% endraw %}`.", open);
      let body = source.slice(position, match.index);
      if (match[1] === "-") body = body.replace(/\s+$/, "");
      pushText(body, position);
      if (match[2] === "-") stripNextText = true;
      position = afterClose(
        source,
        match.index + match[0].length - 2,
        match.index + match[0].length,
        match[2] !== "-",
      );
    }
  }
  tokens.push({ kind: "end", value: "", offset: source.length });
  return tokens;
}

function findTagStart(source: string, from: number): number {
  for (let index = source.indexOf("{", from); index !== -1; index = source.indexOf("{", index + 1)) {
    const next = source[index + 1];
    if (next === "{" || next === "%" || next === "#") return index;
  }
  return -1;
}

/** Position after a closing delimiter; with trim_blocks, one following newline is skipped. */
function afterClose(source: string, _closeAt: number, after: number, trimBlock: boolean): number {
  if (!trimBlock) return after;
  if (source.startsWith("\r\n", after)) return after + 2;
  if (source[after] === "\n") return after + 1;
  return after;
}

function lexExpressionToken(source: string, start: number, tokens: Token[]): number {
  const char = source[start] ?? "";
  if (char === '"' || char === "'") {
    let value = "";
    let index = start + 1;
    for (; index < source.length && source[index] !== char; index++) {
      if (source[index] === "\\") {
        index++;
        const escaped = source[index] ?? "";
        const unicode = escaped === "u" ? /^[0-9a-fA-F]{4}/.exec(source.slice(index + 1, index + 5)) : null;
        if (unicode) {
          value += String.fromCharCode(Number.parseInt(unicode[0], 16));
          index += 4;
          continue;
        }
        const replacement = ESCAPES[escaped];
        // Minijinja rejects unknown escapes, so BAML does too: a regex needs "\\d", not "\d".
        if (replacement === undefined) {
          throw new JinjaError(
            "syntax_error",
            `Bad string escape \`\\${escaped}\`: write \`\\\\${escaped}\` for a backslash.`,
            index - 1,
          );
        }
        value += replacement;
      } else {
        value += source[index];
      }
    }
    if (index >= source.length) throw new JinjaError("syntax_error", "Unterminated string literal.", start);
    tokens.push({ kind: "string", value, offset: start });
    return index + 1;
  }
  const number = /^\d[\d_]*(\.\d[\d_]*)?([eE][+-]?\d+)?/.exec(source.slice(start, start + 64));
  if (number) {
    tokens.push({
      kind: number[1] || number[2] ? "float" : "integer",
      value: number[0].replaceAll("_", ""),
      offset: start,
    });
    return start + number[0].length;
  }
  const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(start, start + 256));
  if (name) {
    tokens.push({ kind: "name", value: name[0], offset: start });
    return start + name[0].length;
  }
  const operator = OPERATORS.find((candidate) => source.startsWith(candidate, start));
  if (!operator) throw new JinjaError("syntax_error", `Unexpected character \`${char}\` in a tag.`, start);
  tokens.push({ kind: "operator", value: operator, offset: start });
  return start + operator.length;
}

const ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  "\\": "\\",
  '"': '"',
  "'": "'",
  "/": "/",
  b: "\b",
  f: "\f",
};
