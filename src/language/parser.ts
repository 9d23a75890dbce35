/**
 * The BAML parser: recursive descent over the token stream with error recovery. Each declaration kind has
 * one `parseX`; a mistake is reported once and parsing resumes at the next line or declaration, so one
 * file yields as many useful diagnostics as possible. Never throws; every loop consumes input. Longer
 * than most files because the declaration forms and their recovery rules read best side by side; types,
 * attributes and configuration blocks live in their own `parse-*.ts` files.
 */

import type { Diagnostic } from "../diagnostics/index.js";
import { suggestName } from "../diagnostics/index.js";
import type {
  Attribute,
  ClassDecl,
  Declaration,
  EnumDecl,
  Identifier,
  ParameterDecl,
  SourceFile,
  Span,
  TemplateStringDecl,
  TypeAliasDecl,
  TypeBuilderBlock,
  TypeDeclaration,
  TypeExpression,
} from "./ast.js";
import { parseAttributes } from "./parse-attributes.js";
import { parseConfigBlock } from "./parse-config-block.js";
import { parseType } from "./parse-type.js";
import type { Token } from "./scanner.js";
import { TokenStream } from "./token-stream.js";

const declarationKeywords = [
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
];

/** Parse one `.baml` file. Diagnostics are syntax errors only; names are checked later. */
export function parseSource(text: string, path: string): { file: SourceFile; diagnostics: Diagnostic[] } {
  const stream = new TokenStream(text, path);
  const declarations: Declaration[] = [];
  while (!stream.at("eof")) {
    const before = stream.progress;
    const declaration = parseDeclaration(stream);
    if (declaration) declarations.push(declaration);
    // After a failed declaration, skip to the next one, unless the failure already stopped there.
    else if (!atDeclarationStart(stream)) recoverToDeclaration(stream);
    if (stream.progress === before) stream.skipToken();
  }
  return { file: { path, text, declarations, comments: stream.comments }, diagnostics: stream.diagnostics };
}

function parseDeclaration(stream: TokenStream): Declaration | undefined {
  const token = stream.current;
  if (token.kind !== "identifier") {
    stream.reportUnexpected("a declaration (class, enum, function, client<llm>, …)");
    return undefined;
  }
  switch (token.value) {
    case "class":
    case "enum":
      return parseTypeBlock(stream, stream.advance(), token.value as "class" | "enum", false);
    case "dynamic":
      return parseDynamic(stream);
    case "type":
      return parseTypeAlias(stream);
    case "function":
      return parseFunction(stream);
    case "client":
      return parseClient(stream);
    case "retry_policy":
    case "generator":
    case "test":
      return parseConfigDeclaration(stream);
    case "template_string":
    case "string_template":
      return parseTemplateString(stream);
    default: {
      const suggestion = suggestName(token.value, declarationKeywords);
      stream.report(
        "unknown-declaration",
        { name: token.value, ...(suggestion ? { suggestion } : {}) },
        token,
      );
      return undefined;
    }
  }
}

/** Skip to the next declaration keyword at the start of a line, outside braces or at column 0. */
function recoverToDeclaration(stream: TokenStream): void {
  let depth = 0;
  stream.advance();
  while (!stream.at("eof")) {
    const token = stream.current;
    // Resume at a declaration keyword starting a line (outside braces, or unindented), or at any
    // unindented word outside braces (reported then as an unknown declaration).
    const lineStart = atLineStart(stream.text, token.start);
    if (
      token.kind === "identifier" &&
      token.newlineBefore &&
      ((declarationKeywords.includes(token.value) && (depth <= 0 || lineStart)) || (depth <= 0 && lineStart))
    ) {
      return;
    }
    if (token.kind === "{") depth++;
    else if (token.kind === "}") depth--;
    stream.advance();
  }
}

function atDeclarationStart(stream: TokenStream): boolean {
  const token = stream.current;
  return token.kind === "identifier" && token.newlineBefore && declarationKeywords.includes(token.value);
}

function atLineStart(text: string, offset: number): boolean {
  return offset === 0 || text[offset - 1] === "\n" || text[offset - 1] === "\r";
}

function identifier(
  stream: TokenStream,
  what: string,
): { name: string; span: { start: number; end: number } } {
  if (stream.at("identifier")) {
    const token = stream.advance();
    return { name: token.value, span: { start: token.start, end: token.end } };
  }
  stream.reportUnexpected(what);
  return { name: "", span: { start: stream.current.start, end: stream.current.start } };
}

function withDocs<T extends object>(node: T, token: { docs?: string }): T & { docs?: string } {
  return token.docs === undefined ? node : { ...node, docs: token.docs };
}

/**
 * `dynamic class X { … }`, `dynamic enum E { … }`, or BAML's newer `dynamic X { … }`, whose kind follows
 * from its members (typed members: a class; bare names: an enum; none: decided by the checker).
 */
function parseDynamic(stream: TokenStream): TypeDeclaration | undefined {
  const keyword = stream.advance();
  if (stream.atIdentifier("class") || stream.atIdentifier("enum")) {
    const kind = stream.advance().value as "class" | "enum";
    return parseTypeBlock(stream, keyword, kind, true);
  }
  if (stream.at("identifier")) return parseTypeBlock(stream, keyword, "either", true);
  stream.reportUnexpected('"class", "enum" or a type name after "dynamic"');
  return undefined;
}

interface Member {
  name: Identifier;
  type?: TypeExpression;
  attributes: Attribute[];
  docs?: string;
  span: Span;
}

/**
 * `class Name { fields @@attrs }` or `enum Name { VALUES @@attrs }` (the keyword is consumed by the
 * caller); `either` for a keywordless `dynamic Name { … }`.
 */
function parseTypeBlock(
  stream: TokenStream,
  start: Token,
  kind: "class" | "enum" | "either",
  dynamic: boolean,
): ClassDecl | EnumDecl | undefined {
  const name = identifier(
    stream,
    kind === "enum" ? "an enum name" : kind === "class" ? "a class name" : "a type name",
  );
  const members: Member[] = [];
  const attributes: Attribute[] = [];
  if (!stream.at("{")) {
    stream.reportUnexpected('"{"');
    return undefined;
  }
  stream.advance();
  for (;;) {
    const before = stream.progress;
    if (stream.at("}")) {
      stream.advance();
      break;
    }
    if (stream.at("eof")) {
      stream.reportUnexpected('"}"');
      break;
    }
    if (stream.at("@@") || stream.at("@")) {
      // A lone `@attr` line is kept as a block attribute so the checker can say to write `@@attr`.
      for (const attribute of parseAttributes(stream, "any")) attributes.push(attribute);
    } else if (stream.at("identifier")) {
      members.push(parseMember(stream, kind));
      // BAML also reads two fields on one line (`a string b int`); anything else must start a new line.
      const nextField = kind !== "enum" && stream.at("identifier");
      if (
        !nextField &&
        !stream.current.newlineBefore &&
        !stream.at("}") &&
        !stream.at("eof") &&
        !stream.at("@@")
      ) {
        stream.reportUnexpected(
          kind === "enum" ? "a new line after the enum value" : "a new line after the field",
        );
        stream.skipLine();
      }
    } else {
      stream.reportUnexpected(kind === "enum" ? "an enum value" : "a field name");
      stream.skipLine();
    }
    if (stream.progress === before) stream.skipToken();
  }
  const span = stream.span(start.start);
  const keywordless = kind === "either" ? { keywordless: true } : {};
  const isEnum =
    kind === "enum" || (kind === "either" && members.length > 0 && members.every((member) => !member.type));
  if (isEnum) {
    const values = members.map((member) =>
      withDocs({ name: member.name, attributes: member.attributes, span: member.span }, member),
    );
    return withDocs(
      { kind: "enum" as const, name, dynamic, values, attributes, span, ...keywordless },
      start,
    );
  }
  const fields = members.map((member) => {
    const type = member.type ?? missingTypeAt(stream, member.name.span.end);
    return withDocs({ name: member.name, type, attributes: member.attributes, span: member.span }, member);
  });
  return withDocs({ kind: "class" as const, name, dynamic, fields, attributes, span, ...keywordless }, start);
}

/** A field (`name Type @attrs`) or an enum value (`NAME @attrs`); `either` decides by what follows. */
function parseMember(stream: TokenStream, kind: "class" | "enum" | "either"): Member {
  const nameToken = stream.advance();
  const name = { name: nameToken.value, span: { start: nameToken.start, end: nameToken.end } };
  const docs = nameToken.docs === undefined ? {} : { docs: nameToken.docs };
  const typed =
    kind === "class" ||
    (kind === "either" &&
      !stream.current.newlineBefore &&
      !stream.at("@") &&
      !stream.at("@@") &&
      !stream.at("}"));
  if (!typed) {
    const attributes = parseAttributes(stream, "field");
    return { name, attributes, span: stream.span(nameToken.start), ...docs };
  }
  if (stream.at(":") && !stream.current.newlineBefore) {
    stream.reportUnexpected("a type (fields are written `name Type`, without a colon)");
    stream.advance();
  }
  if (stream.current.newlineBefore) {
    return {
      name,
      attributes: parseAttributes(stream, "field"),
      span: stream.span(nameToken.start),
      ...docs,
    };
  }
  const { type, trailing } = parseType(stream, true);
  const more = parseAttributes(stream, "field");
  return { name, type, attributes: [...trailing, ...more], span: stream.span(nameToken.start), ...docs };
}

/** Report a field without a type and stand in an error type. */
function missingTypeAt(stream: TokenStream, at: number): TypeExpression {
  stream.report(
    "unexpected-token",
    { expected: "a type after the field name", found: "a new line" },
    { start: at, end: at },
  );
  return { kind: "error", attributes: [], span: { start: at, end: at } };
}

/** `type Name = TypeExpression`. */
function parseTypeAlias(stream: TokenStream): TypeAliasDecl | undefined {
  const keyword = stream.advance();
  const name = identifier(stream, "a type alias name");
  if (!stream.expect("=", '"=" (type aliases are written `type Name = Type`)')) return undefined;
  const { type } = parseType(stream);
  return withDocs({ kind: "type-alias" as const, name, type, span: stream.span(keyword.start) }, keyword);
}

/** Attributes after a parameter's type that belong to the parameter (BAML accepts and ignores them). */
const parameterAttributes = new Set(["alias", "description", "skip"]);

/** `(name: Type, …)`; the current token is `(`. */
function parseParameters(stream: TokenStream): ParameterDecl[] {
  const params: ParameterDecl[] = [];
  stream.advance();
  for (;;) {
    const before = stream.progress;
    if (stream.at(")")) {
      stream.advance();
      break;
    }
    if (stream.at("eof") || stream.at("{") || stream.at("->")) {
      stream.reportUnexpected('")" to close the parameter list');
      break;
    }
    if (stream.at(",")) {
      stream.advance();
      continue;
    }
    if (stream.at("identifier")) {
      const nameToken = stream.advance();
      const name = { name: nameToken.value, span: { start: nameToken.start, end: nameToken.end } };
      let type: TypeExpression;
      const attributes: Attribute[] = [];
      if (stream.expect(":", '":" and the parameter type')) {
        const parsed = parseType(stream, true);
        type = parsed.type;
        // `@check` / `@assert` constrain the argument's type; the rest (`@description`, …) name the parameter.
        for (const attribute of parsed.trailing) {
          if (parameterAttributes.has(attribute.name)) attributes.push(attribute);
          else type.attributes.push(attribute);
        }
      } else
        type = {
          kind: "error" as const,
          attributes: [],
          span: { start: stream.previousEnd, end: stream.previousEnd },
        };
      const span = stream.span(nameToken.start);
      params.push(attributes.length > 0 ? { name, type, attributes, span } : { name, type, span });
    } else {
      stream.reportUnexpected("a parameter name");
      while (!stream.at(",") && !stream.at(")") && !stream.at("eof") && !stream.at("{")) stream.advance();
    }
    if (stream.progress === before) stream.skipToken();
  }
  return params;
}

/** `function Name(params) -> ReturnType { client …  prompt #"…"# }`. */
function parseFunction(stream: TokenStream): Declaration | undefined {
  const keyword = stream.advance();
  const name = identifier(stream, "a function name");
  let params: ParameterDecl[] = [];
  if (stream.at("(")) params = parseParameters(stream);
  else stream.reportUnexpected('"(" and the parameter list');
  let returnType: TypeExpression;
  if (stream.expect("->", '"->" and the return type')) returnType = parseType(stream).type;
  else
    returnType = {
      kind: "error" as const,
      attributes: [],
      span: { start: stream.previousEnd, end: stream.previousEnd },
    };
  if (!stream.at("{")) {
    stream.reportUnexpected('"{" to start the function body');
    return undefined;
  }
  if (startsExpressionBody(stream.text, stream.current.start)) {
    // BAML's experimental expression functions and workflows: one warning, the body skipped whole.
    stream.report("skipped-expression-function", { name: name.name }, name.span);
    stream.skipBalanced();
    return withDocs(
      { kind: "expression-function" as const, name, params, returnType, span: stream.span(keyword.start) },
      keyword,
    );
  }
  const body = parseConfigBlock(stream);
  return withDocs(
    { kind: "function" as const, name, params, returnType, body, span: stream.span(keyword.start) },
    keyword,
  );
}

/** Words that start a statement in an expression function's body. */
const statementKeywords = new Set([
  "let",
  "watch",
  "match",
  "return",
  "if",
  "for",
  "while",
  "break",
  "continue",
]);

/**
 * Whether the body opening at `open` (a `{`) is an expression function's rather than a list of
 * `key value` settings: it starts with a statement keyword, a literal, or a name that is followed by an
 * operator, a call, an index, or the end of the line (`n`, `ReturnOne()`, `xs[1] = …`, `x == "a"`).
 * An empty body, and a body starting `client …` or `prompt …` (or any `key value`), is an LLM function's.
 */
function startsExpressionBody(text: string, open: number): boolean {
  const rest = text.slice(open + 1, open + 2001).replace(/^(?:\s|\/\/[^\n]*)*/, "");
  if (rest === "" || rest.startsWith("}")) return false;
  const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest)?.[0];
  if (word === undefined) return true;
  if (statementKeywords.has(word)) return true;
  const after = rest.slice(word.length);
  if (/^[[{(.]/.test(after)) return true;
  const next = after.replace(/^[ \t]*/, "");
  return next === "" || /^[\n\r}=!+\-*/<>&|;?%]/.test(next);
}

/** `client<llm> Name { … }` (also a bare `client Name`). */
function parseClient(stream: TokenStream): Declaration | undefined {
  const keyword = stream.advance();
  let clientType: Identifier | undefined;
  if (stream.at("<")) {
    stream.advance();
    clientType = identifier(stream, 'the client type ("llm")');
    stream.expect(">", '">"');
  }
  const name = identifier(stream, "a client name");
  if (!stream.at("{")) {
    stream.reportUnexpected('"{" to start the client body');
    return undefined;
  }
  const body = parseConfigBlock(stream);
  const node = { kind: "client" as const, name, body, span: stream.span(keyword.start) };
  return withDocs(clientType ? { ...node, clientType } : node, keyword);
}

/** `retry_policy`, `generator` and `test`: a name and a configuration block. */
function parseConfigDeclaration(stream: TokenStream): Declaration | undefined {
  const keyword = stream.advance();
  const kind: "retry-policy" | "generator" | "test" =
    keyword.value === "retry_policy" ? "retry-policy" : (keyword.value as "generator" | "test");
  const name = identifier(stream, `a ${keyword.value.replace("_", " ")} name`);
  if (kind === "test" && stream.at("(") && stream.text[stream.current.end] === ")") {
    // Older BAML projects write `test Name() { … }`; the empty parentheses mean nothing.
    stream.advance();
    stream.advance();
  }
  if (!stream.at("{")) {
    stream.reportUnexpected('"{"');
    return undefined;
  }
  const body = parseConfigBlock(stream, kind === "test" ? parseTypeBuilder : undefined);
  return withDocs({ kind, name, body, span: stream.span(keyword.start) }, keyword);
}

/** `type_builder { class … dynamic class … enum … type … }` inside a test. */
function parseTypeBuilder(stream: TokenStream): TypeBuilderBlock {
  const keyword = stream.advance();
  const declarations: TypeDeclaration[] = [];
  if (!stream.at("{")) {
    stream.reportUnexpected('"{" after type_builder');
    return { declarations, span: stream.span(keyword.start), keywordSpan: keyword };
  }
  stream.advance();
  for (;;) {
    const before = stream.progress;
    if (stream.at("}")) {
      stream.advance();
      break;
    }
    if (stream.at("eof")) {
      stream.reportUnexpected('"}"');
      break;
    }
    let declaration: TypeDeclaration | undefined;
    if (stream.atIdentifier("class") || stream.atIdentifier("enum")) {
      const keyword = stream.advance();
      declaration = parseTypeBlock(stream, keyword, keyword.value as "class" | "enum", false);
    } else if (stream.atIdentifier("dynamic")) declaration = parseDynamic(stream);
    else if (stream.atIdentifier("type")) declaration = parseTypeAlias(stream);
    else {
      stream.report("invalid-type-builder-entry", {}, stream.current);
      stream.skipLine();
    }
    if (declaration) declarations.push(declaration);
    if (stream.progress === before) stream.skipToken();
  }
  return {
    declarations,
    span: stream.span(keyword.start),
    keywordSpan: { start: keyword.start, end: keyword.end },
  };
}

/** `template_string Name(params) #"…"#`. */
function parseTemplateString(stream: TokenStream): TemplateStringDecl | undefined {
  const keyword = stream.advance();
  const name = identifier(stream, "a template string name");
  const params = stream.at("(") ? parseParameters(stream) : [];
  const node: TemplateStringDecl = {
    kind: "template-string",
    keyword: keyword.value,
    name,
    params,
    span: keyword,
  };
  if (stream.at("raw-string") || stream.at("string")) {
    const token = stream.advance();
    node.body = {
      kind: "raw-string",
      value: token.value,
      hashes: token.hashes ?? 0,
      contentStart: token.contentStart ?? token.start + 1,
      span: { start: token.start, end: token.end },
    };
  } else {
    stream.report("missing-template-body", { name: name.name }, name.span);
  }
  node.span = stream.span(keyword.start);
  return withDocs(node, keyword);
}
