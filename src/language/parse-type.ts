import type { Attribute, TypeExpression } from "./ast.js";
import { parseAttributes } from "./parse-attributes.js";
import type { TokenStream } from "./token-stream.js";

const startsDeclaration = new Set([
  "class",
  "enum",
  "type",
  "function",
  "client",
  "retry_policy",
  "generator",
  "test",
  "template_string",
  "string_template",
  "dynamic",
]);

/**
 * Parse a type expression. With `trailingBelongToOwner` (a field's type), attributes after the last union
 * member are returned separately as the field's attributes; attributes followed by `|` always belong to
 * the member before them (`Sub @assert(…) | null`).
 */
export function parseType(
  stream: TokenStream,
  trailingBelongToOwner = false,
): { type: TypeExpression; trailing: Attribute[] } {
  const start = stream.current.start;
  const options: TypeExpression[] = [];
  let trailing: Attribute[] = [];
  for (;;) {
    const member = parsePostfix(stream);
    const attributes = parseAttributes(stream, "field");
    if (stream.at("|")) {
      member.attributes.push(...attributes);
      options.push(member);
      stream.advance();
      continue;
    }
    if (trailingBelongToOwner) trailing = attributes;
    else member.attributes.push(...attributes);
    options.push(member);
    break;
  }
  if (options.length === 1) return { type: options[0] as TypeExpression, trailing };
  return { type: { kind: "union", options, attributes: [], span: unionSpan(options, start) }, trailing };
}

function unionSpan(options: TypeExpression[], start: number): { start: number; end: number } {
  const last = options[options.length - 1];
  return { start, end: last ? last.span.end : start };
}

/** A primary type followed by any number of `[]` and `?`. */
function parsePostfix(stream: TokenStream): TypeExpression {
  let type = parsePrimary(stream);
  for (;;) {
    if (stream.at("[") && !stream.current.newlineBefore) {
      stream.advance();
      stream.expect("]", '"]"');
      type = { kind: "list", item: type, attributes: [], span: stream.span(type.span.start) };
    } else if (stream.at("?") && !stream.current.newlineBefore) {
      stream.advance();
      type = { kind: "optional", inner: type, attributes: [], span: stream.span(type.span.start) };
    } else {
      return type;
    }
  }
}

function parsePrimary(stream: TokenStream): TypeExpression {
  const token = stream.current;
  const start = token.start;
  switch (token.kind) {
    case "identifier": {
      // A declaration keyword on a new line means the type is missing (`type T =` then `class …`).
      if (token.newlineBefore && startsDeclaration.has(token.value)) {
        stream.reportUnexpected("a type");
        return { kind: "error", attributes: [], span: { start, end: start } };
      }
      stream.advance();
      if (token.value === "true" || token.value === "false") {
        return {
          kind: "literal",
          value: token.value === "true",
          text: token.value,
          attributes: [],
          span: stream.span(start),
        };
      }
      if (token.value === "map" && stream.at("<")) return parseMap(stream, start);
      return { kind: "named", name: token.value, attributes: [], span: stream.span(start) };
    }
    case "string":
      stream.advance();
      return {
        kind: "literal",
        value: token.value,
        text: stream.text.slice(token.start, token.end),
        attributes: [],
        span: stream.span(start),
      };
    case "number":
      stream.advance();
      return {
        kind: "literal",
        value: Number(token.value),
        text: token.value,
        attributes: [],
        span: stream.span(start),
      };
    case "(": {
      if (stream.tooDeep()) {
        stream.skipLine();
        return { kind: "error", attributes: [], span: stream.span(start) };
      }
      stream.advance();
      stream.depth++;
      const items: TypeExpression[] = [parseType(stream).type];
      while (stream.at(",")) {
        stream.advance();
        if (stream.at(")")) break;
        items.push(parseType(stream).type);
      }
      stream.depth--;
      stream.expect(")", '")"');
      const span = stream.span(start);
      if (items.length > 1) return { kind: "tuple", items, attributes: [], span };
      return { kind: "group", inner: items[0] as TypeExpression, attributes: [], span };
    }
    default:
      stream.reportUnexpected("a type");
      return { kind: "error", attributes: [], span: { start, end: start } };
  }
}

function parseMap(stream: TokenStream, start: number): TypeExpression {
  if (stream.tooDeep()) {
    stream.skipLine();
    return { kind: "error", attributes: [], span: stream.span(start) };
  }
  stream.advance(); // <
  stream.depth++;
  const typeArguments: TypeExpression[] = [];
  while (!stream.at(">") && !stream.at("eof")) {
    const before = stream.progress;
    typeArguments.push(parseType(stream).type);
    if (stream.at(",")) stream.advance();
    else if (!stream.at(">")) break;
    if (stream.progress === before) break;
  }
  stream.depth--;
  stream.expect(">", '">" to close the map type');
  return { kind: "map", typeArguments, attributes: [], span: stream.span(start) };
}
