import type { ConfigBlock, ConfigEntry, ConfigValue, TypeBuilderBlock } from "./ast.js";
import { parseAttribute } from "./parse-attributes.js";
import type { TokenStream } from "./token-stream.js";

const numberPattern = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

/**
 * Parse `{ key value … }` — the body of functions, clients, retry policies, generators and tests, and
 * nested option maps. Keys may be quoted; a `:` after the key is optional; entries are separated by line
 * breaks or commas. `@@` attributes are collected; `parseTypeBuilder` handles `type_builder { … }` in tests.
 * The current token must be `{` (the caller checked).
 */
export function parseConfigBlock(
  stream: TokenStream,
  parseTypeBuilder?: (stream: TokenStream) => TypeBuilderBlock,
): ConfigBlock {
  const start = stream.current.start;
  const block: ConfigBlock = { entries: [], attributes: [], span: { start, end: start } };
  stream.advance(); // {
  for (;;) {
    const before = stream.progress;
    if (stream.at("}")) {
      stream.advance();
      break;
    }
    if (stream.at("eof")) {
      stream.reportUnexpected('"}" to close the block');
      break;
    }
    if (stream.at("@@") || stream.at("@")) {
      block.attributes.push(parseAttribute(stream));
    } else if (stream.at(",")) {
      stream.advance();
    } else if (parseTypeBuilder && stream.atIdentifier("type_builder")) {
      const builder = parseTypeBuilder(stream);
      if (block.typeBuilder === undefined) block.typeBuilder = builder;
      else stream.report("duplicate-key", { name: "type_builder" }, builder.keywordSpan);
    } else if (stream.at("identifier") || stream.at("string")) {
      block.entries.push(parseEntry(stream));
    } else {
      stream.reportUnexpected("a key");
      stream.skipLine();
    }
    if (stream.progress === before) stream.skipToken();
  }
  block.span = stream.span(start);
  return block;
}

function parseEntry(stream: TokenStream): ConfigEntry {
  const keyToken = stream.advance();
  const key = { name: keyToken.value, span: { start: keyToken.start, end: keyToken.end } };
  if (stream.at(":") && !stream.current.newlineBefore) stream.advance();
  let value: ConfigValue;
  if (stream.current.newlineBefore && !stream.at("{") && !stream.at("[")) {
    stream.reportUnexpected(`a value for "${key.name}"`);
    value = { kind: "error", span: { start: stream.previousEnd, end: stream.previousEnd } };
  } else {
    value = parseConfigValue(stream);
  }
  return { key, quotedKey: keyToken.kind === "string", value, span: stream.span(keyToken.start) };
}

/** One configuration value: map, array, string, raw string, `env.NAME`, literal, or unquoted text. */
export function parseConfigValue(stream: TokenStream): ConfigValue {
  const token = stream.current;
  const start = token.start;
  switch (token.kind) {
    case "{": {
      if (stream.tooDeep()) {
        stream.skipBalanced();
        return { kind: "error", span: stream.span(start) };
      }
      stream.depth++;
      const block = parseConfigBlock(stream);
      stream.depth--;
      return { kind: "map", block, span: block.span };
    }
    case "[":
      return parseArray(stream);
    case "string":
      stream.advance();
      return { kind: "string", value: token.value, span: stream.span(start) };
    case "raw-string":
      stream.advance();
      return {
        kind: "raw-string",
        value: token.value,
        hashes: token.hashes ?? 1,
        contentStart: token.contentStart ?? start,
        span: stream.span(start),
      };
    case "identifier":
      if (token.value === "env" && stream.text[token.end] === ".") return parseEnv(stream);
      break;
    case "}":
    case "]":
    case ",":
    case "eof":
      stream.reportUnexpected("a value");
      return { kind: "error", span: { start, end: start } };
    default:
      break;
  }
  return parseUnquoted(stream);
}

function parseUnquoted(stream: TokenStream): ConfigValue {
  const start = stream.current.start;
  const { value, end } = stream.scanner.scanUnquoted(start);
  if (value.length === 0) {
    // Only a delimiter the scanner stops at (`)` or `"` mid-token): report it and move past it.
    stream.reportUnexpected("a value");
    stream.skipToken();
    return { kind: "error", span: { start, end: stream.previousEnd } };
  }
  stream.resumeAt(end, end);
  const span = { start, end };
  if (value === "true" || value === "false") return { kind: "bool", value: value === "true", span };
  if (value === "null") return { kind: "null", span };
  if (numberPattern.test(value)) return { kind: "number", value: Number(value), text: value, span };
  return { kind: "unquoted", value, span };
}

function parseEnv(stream: TokenStream): ConfigValue {
  const start = stream.current.start;
  stream.advance(); // env
  stream.advance(); // .
  if (stream.at("identifier") && stream.current.start === stream.previousEnd) {
    const name = stream.advance().value;
    if (!endsValue(stream)) {
      const end = trailingTextEnd(stream);
      if (end !== undefined) return envWithTrailingText(stream, start, end, name);
    }
    return { kind: "env", name, span: stream.span(start) };
  }
  stream.reportUnexpected("an environment variable name after `env.`");
  return { kind: "error", span: stream.span(start) };
}

/** Whether the value ends here: a line break, a separator or the end of the block follows. */
function endsValue(stream: TokenStream): boolean {
  return (
    stream.current.newlineBefore || stream.at(",") || stream.at("}") || stream.at("]") || stream.at("eof")
  );
}

/**
 * Where the text after `env.NAME` ends when it is one item — a quoted string or a word — before the end of
 * the line, a comment, `,`, `}` or `]`, or when it starts with an operator (`?? "…"`: to the end of the
 * line or a comment); `undefined` otherwise. Two or more items are further entries of a
 * one-line block (`{ base_url env.URL api_key "k" }`, a form BAML refuses and Sapling reads).
 */
function trailingTextEnd(stream: TokenStream): number | undefined {
  const text = stream.text;
  let index = stream.current.start;
  if (!/[\w"]/.test(text[index] ?? "")) {
    // An operator (`env.URL ?? "http://…"`) cannot start another entry: the rest of the line is the text.
    let quoted = false;
    for (; index < text.length && text[index] !== "\n" && text[index] !== "\r"; index++) {
      if (text[index] === '"') quoted = !quoted;
      else if (!quoted && text[index] === "/" && text[index + 1] === "/") break;
    }
    while (index > stream.current.start && /[ \t]/.test(text[index - 1] ?? "")) index--;
    return index;
  }
  if (text[index] === '"') {
    const close = text.indexOf('"', index + 1);
    const lineBreak = text.slice(index + 1).search(/[\r\n]/);
    if (close < 0 || (lineBreak >= 0 && close > index + 1 + lineBreak)) return undefined;
    index = close + 1;
  } else {
    while (index < text.length && !/[\s,}\]"]/.test(text[index] ?? "")) index++;
  }
  let rest = index;
  while (rest < text.length && (text[rest] === " " || text[rest] === "\t")) rest++;
  const next = text[rest];
  const endsHere =
    next === undefined ||
    next === "\n" ||
    next === "\r" ||
    next === "," ||
    next === "}" ||
    next === "]" ||
    (next === "/" && text[rest + 1] === "/" && rest > index);
  return endsHere ? index : undefined;
}

/**
 * `env.MODEL "gpt-4o"`: one item after an env reference on its line makes the whole literal text, as in
 * BAML, which sends `env.MODEL "gpt-4o"` as the model name. The value is that text, with a warning saying so.
 */
function envWithTrailingText(stream: TokenStream, start: number, end: number, name: string): ConfigValue {
  const value = stream.text.slice(start, end);
  stream.resumeAt(end, end);
  const span = { start, end };
  stream.report("env-with-trailing-text", { name, text: value }, span);
  return { kind: "unquoted", value, span };
}

function parseArray(stream: TokenStream): ConfigValue {
  const start = stream.current.start;
  if (stream.tooDeep()) {
    stream.skipLine();
    return { kind: "error", span: stream.span(start) };
  }
  stream.advance(); // [
  stream.depth++;
  const items: ConfigValue[] = [];
  for (;;) {
    const before = stream.progress;
    if (stream.at("]")) {
      stream.advance();
      break;
    }
    if (stream.at("eof") || stream.at("}")) {
      stream.reportUnexpected('"]" to close the list');
      break;
    }
    if (stream.at(",")) stream.advance();
    else items.push(parseConfigValue(stream));
    if (stream.progress === before) stream.skipToken();
  }
  stream.depth--;
  return { kind: "array", items, span: stream.span(start) };
}
