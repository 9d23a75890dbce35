import type { Attribute, AttributeArgument } from "./ast.js";
import type { TokenStream } from "./token-stream.js";

/** Parse attributes (`@x`, `@@x(…)`) while the current token starts one; `blockOnly` stops at `@`. */
export function parseAttributes(stream: TokenStream, which: "field" | "block" | "any" = "any"): Attribute[] {
  const attributes: Attribute[] = [];
  while ((stream.at("@") && which !== "block") || (stream.at("@@") && which !== "field")) {
    attributes.push(parseAttribute(stream));
  }
  return attributes;
}

/** `@name`, `@name.part`, `@@name(args)`; the current token is `@` or `@@`. */
export function parseAttribute(stream: TokenStream): Attribute {
  const marker = stream.advance();
  const block = marker.kind === "@@";
  const nameStart = stream.current.start;
  const parts: string[] = [];
  if (stream.at("identifier") && stream.current.start === marker.end) {
    parts.push(stream.advance().value);
    // Dotted names (`stream.done`) are written without spaces.
    while (stream.at(".") && stream.current.start === stream.previousEnd) {
      stream.advance();
      if (stream.at("identifier") && stream.current.start === stream.previousEnd)
        parts.push(stream.advance().value);
      else {
        stream.reportUnexpected("an attribute name after the dot");
        break;
      }
    }
  } else {
    stream.reportUnexpected("an attribute name");
  }
  const nameSpan = stream.span(nameStart);
  const args: AttributeArgument[] = [];
  let parenthesized = false;
  if (stream.at("(") && !stream.current.newlineBefore) {
    parenthesized = true;
    stream.advance();
    // An attribute's arguments never span a broken line: on a mistake, skip to ")" on this line and stop,
    // so one typo does not swallow the declarations that follow.
    for (;;) {
      if (stream.at(")")) {
        stream.advance();
        break;
      }
      const argument = stream.at("eof")
        ? undefined
        : textAttributes.has(parts.join("."))
          ? (parseUnquotedText(stream) ?? parseAttributeArgument(stream))
          : parseAttributeArgument(stream);
      if (argument === undefined) {
        if (stream.at("eof")) stream.reportUnexpected('")"');
        recoverToParenthesis(stream);
        break;
      }
      args.push(argument);
      if (stream.at(",")) stream.advance();
      else if (!stream.at(")")) {
        stream.reportUnexpected('"," or ")"');
        recoverToParenthesis(stream);
        break;
      }
    }
  }
  return { name: parts.join("."), block, args, parenthesized, span: stream.span(marker.start), nameSpan };
}

/** Attributes whose argument is text, which BAML also takes unquoted: `@alias(k1)`, `@description(past jobs)`. */
const textAttributes = new Set(["alias", "description"]);

/**
 * Unquoted text up to `,` or `)` on this line, read as the string BAML makes of it; `undefined` when the
 * argument does not start with a word (a quoted or raw string is parsed as usual).
 */
function parseUnquotedText(stream: TokenStream): AttributeArgument | undefined {
  const token = stream.current;
  if (token.kind !== "identifier" && token.kind !== "number") return undefined;
  const text = stream.text;
  let end = token.start;
  while (end < text.length && !",)\n\r".includes(text[end] as string)) end++;
  while (end > token.start && /\s/.test(text[end - 1] as string)) end--;
  stream.resumeAt(end, end);
  return {
    kind: "string",
    value: text.slice(token.start, end),
    raw: false,
    hashes: 0,
    span: { start: token.start, end },
  };
}

function parseAttributeArgument(stream: TokenStream): AttributeArgument | undefined {
  const token = stream.current;
  switch (token.kind) {
    case "string":
      stream.advance();
      return {
        kind: "string",
        value: token.value,
        raw: false,
        hashes: 0,
        span: { start: token.start, end: token.end },
      };
    case "raw-string":
      stream.advance();
      return {
        kind: "string",
        value: token.value,
        raw: true,
        hashes: token.hashes ?? 1,
        span: { start: token.start, end: token.end },
      };
    case "identifier":
      stream.advance();
      return { kind: "identifier", name: token.value, span: { start: token.start, end: token.end } };
    case "number":
      stream.advance();
      return { kind: "number", text: token.value, span: { start: token.start, end: token.end } };
    case "{":
      if (stream.scanner.startsExpression(token.start)) {
        const { inner, end } = stream.scanner.scanExpression(token.start);
        stream.resumeAt(end, end);
        return { kind: "expression", expression: inner, span: { start: token.start, end } };
      }
      break;
    default:
      break;
  }
  stream.reportUnexpected("an attribute argument (a string, a label or a {{ expression }})");
  return undefined;
}

function recoverToParenthesis(stream: TokenStream): void {
  while (!stream.at(")") && !stream.at("eof") && !stream.current.newlineBefore) stream.advance();
  if (stream.at(")")) stream.advance();
}
