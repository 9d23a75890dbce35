import type { Attribute, TypeExpression } from "./ast.js";
import { parseAttributes } from "./parse-attributes.js";
import type { TokenStream } from "./token-stream.js";

/** How deeply a parsed type nests (groups, maps, lists, optionals), to bound later recursion. */
const nesting = new WeakMap<TypeExpression, number>();
const maxTypeDepth = 256;

function depthOf(type: TypeExpression): number {
  return nesting.get(type) ?? 0;
}

/** The deepest of several types (a loop, not `Math.max(...)`: a union may have very many members). */
function maxDepthOf(types: readonly TypeExpression[]): number {
  let deepest = 0;
  for (const type of types) deepest = Math.max(deepest, depthOf(type));
  return deepest;
}

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
      for (const attribute of attributes) member.attributes.push(attribute);
      options.push(member);
      stream.advance();
      continue;
    }
    if (trailingBelongToOwner) trailing = attributes;
    else for (const attribute of attributes) member.attributes.push(attribute);
    options.push(member);
    break;
  }
  if (options.length === 1) return { type: options[0] as TypeExpression, trailing };
  const union: TypeExpression = { kind: "union", options, attributes: [], span: unionSpan(options, start) };
  nesting.set(union, maxDepthOf(options) + 1);
  return { type: union, trailing };
}

function unionSpan(options: TypeExpression[], start: number): { start: number; end: number } {
  const last = options[options.length - 1];
  return { start, end: last ? last.span.end : start };
}

/** A primary type followed by any number of `[]` and `?`. */
function parsePostfix(stream: TokenStream): TypeExpression {
  let type = parsePrimary(stream);
  let reported = false;
  for (;;) {
    const isList = stream.at("[") && !stream.current.newlineBefore;
    const isOptional = stream.at("?") && !stream.current.newlineBefore;
    if (!isList && !isOptional) return type;
    // Past the limit, `[]` and `?` are reported and no longer nested, so `int[][][]…` cannot make the
    // later passes (which recurse over types) go arbitrarily deep.
    const tooDeep = depthOf(type) >= maxTypeDepth;
    if (tooDeep && !reported) {
      stream.report("nesting-too-deep", { limit: maxTypeDepth }, stream.current);
      reported = true;
    }
    stream.advance();
    if (isList) stream.expect("]", '"]"');
    if (tooDeep) continue;
    const depth = depthOf(type) + 1;
    type = isList
      ? { kind: "list", item: type, attributes: [], span: stream.span(type.span.start) }
      : { kind: "optional", inner: type, attributes: [], span: stream.span(type.span.start) };
    nesting.set(type, depth);
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
      const grouped: TypeExpression =
        items.length > 1
          ? { kind: "tuple", items, attributes: [], span }
          : { kind: "group", inner: items[0] as TypeExpression, attributes: [], span };
      nesting.set(grouped, maxDepthOf(items) + 1);
      return grouped;
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
  const map: TypeExpression = { kind: "map", typeArguments, attributes: [], span: stream.span(start) };
  nesting.set(map, maxDepthOf(typeArguments) + 1);
  return map;
}
