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
  EnumValueDecl,
  FieldDecl,
  Identifier,
  ParameterDecl,
  SourceFile,
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
    else recoverToDeclaration(stream);
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
      return parseTypeBlock(stream, false);
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

function withDocs<T extends object>(node: T, token: Token): T & { docs?: string } {
  return token.docs === undefined ? node : { ...node, docs: token.docs };
}

function parseDynamic(stream: TokenStream): TypeDeclaration | undefined {
  const keyword = stream.current;
  stream.advance();
  if (stream.atIdentifier("class") || stream.atIdentifier("enum"))
    return parseTypeBlock(stream, true, keyword);
  stream.reportUnexpected('"class" or "enum" after "dynamic"');
  return undefined;
}

/** `class Name { fields @@attrs }` or `enum Name { VALUES @@attrs }`, optionally `dynamic`. */
function parseTypeBlock(
  stream: TokenStream,
  dynamic: boolean,
  first?: Token,
): ClassDecl | EnumDecl | undefined {
  const keyword = stream.advance();
  const start = first ?? keyword;
  const isClass = keyword.value === "class";
  const name = identifier(stream, isClass ? "a class name" : "an enum name");
  const fields: FieldDecl[] = [];
  const values: EnumValueDecl[] = [];
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
      attributes.push(...parseAttributes(stream, "any"));
    } else if (stream.at("identifier")) {
      const nameToken = stream.advance();
      const memberName = { name: nameToken.value, span: { start: nameToken.start, end: nameToken.end } };
      if (isClass) {
        if (stream.at(":") && !stream.current.newlineBefore) {
          stream.reportUnexpected("a type (fields are written `name Type`, without a colon)");
          stream.advance();
        }
        const { type, trailing } = stream.current.newlineBefore
          ? { type: missingType(stream), trailing: [] }
          : parseType(stream, true);
        const more = parseAttributes(stream, "field");
        fields.push(
          withDocs(
            {
              name: memberName,
              type,
              attributes: [...trailing, ...more],
              span: stream.span(nameToken.start),
            },
            nameToken,
          ),
        );
      } else {
        const valueAttributes = parseAttributes(stream, "field");
        values.push(
          withDocs(
            { name: memberName, attributes: valueAttributes, span: stream.span(nameToken.start) },
            nameToken,
          ),
        );
      }
      if (!stream.current.newlineBefore && !stream.at("}") && !stream.at("eof") && !stream.at("@@")) {
        stream.reportUnexpected(isClass ? "a new line after the field" : "a new line after the enum value");
        stream.skipLine();
      }
    } else {
      stream.reportUnexpected(isClass ? "a field name" : "an enum value");
      stream.skipLine();
    }
    if (stream.progress === before) stream.skipToken();
  }
  const span = stream.span(start.start);
  if (isClass) return withDocs({ kind: "class" as const, name, dynamic, fields, attributes, span }, start);
  return withDocs({ kind: "enum" as const, name, dynamic, values, attributes, span }, start);
}

function missingType(stream: TokenStream) {
  stream.reportUnexpected("a type after the field name");
  const at = stream.previousEnd;
  return { kind: "error" as const, attributes: [], span: { start: at, end: at } };
}

/** `type Name = TypeExpression`. */
function parseTypeAlias(stream: TokenStream): TypeAliasDecl | undefined {
  const keyword = stream.advance();
  const name = identifier(stream, "a type alias name");
  if (!stream.expect("=", '"=" (type aliases are written `type Name = Type`)')) return undefined;
  const { type } = parseType(stream);
  return withDocs({ kind: "type-alias" as const, name, type, span: stream.span(keyword.start) }, keyword);
}

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
      if (stream.expect(":", '":" and the parameter type')) type = parseType(stream).type;
      else
        type = {
          kind: "error" as const,
          attributes: [],
          span: { start: stream.previousEnd, end: stream.previousEnd },
        };
      params.push({ name, type, span: stream.span(nameToken.start) });
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
  const body = parseConfigBlock(stream);
  return withDocs(
    { kind: "function" as const, name, params, returnType, body, span: stream.span(keyword.start) },
    keyword,
  );
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
    if (stream.atIdentifier("class") || stream.atIdentifier("enum"))
      declaration = parseTypeBlock(stream, false);
    else if (stream.atIdentifier("dynamic")) declaration = parseDynamic(stream);
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
