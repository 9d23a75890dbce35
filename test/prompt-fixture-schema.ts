/**
 * Reads the schema part of prompt fixtures: a small subset of BAML (classes, enums, type aliases, template
 * strings and functions; `@alias`, `@description`, `@skip`, `@@alias`, `@@description`, `@check`, `@assert`)
 * into an IR. The fixtures stay plain BAML, so they can move to the real front end (`language.compile`)
 * unchanged; this reader exists because the prompt room is built before the compiler.
 */
import { emptyIr, type Field, type Ir, type Type } from "../src/ir/index.js";

type Token = { kind: "word" | "string" | "number" | "symbol"; text: string };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < source.length) {
    const rest = source.slice(index);
    const space = /^(\s+|\/\/[^\n]*)/.exec(rest);
    if (space) {
      index += space[0].length;
      continue;
    }
    const raw = /^(#+)"/.exec(rest);
    if (raw) {
      const close = `"${raw[1]}`;
      const end = source.indexOf(close, index + raw[0].length);
      tokens.push({ kind: "string", text: source.slice(index + raw[0].length, end) });
      index = end + close.length;
      continue;
    }
    const quoted = /^"((?:[^"\\]|\\.)*)"/.exec(rest);
    if (quoted) {
      tokens.push({ kind: "string", text: JSON.parse(quoted[0].replaceAll("\n", "\\n")) as string });
      index += quoted[0].length;
      continue;
    }
    const word = /^(@@?[A-Za-z_.]+|[A-Za-z_][A-Za-z0-9_]*)/.exec(rest);
    if (word) {
      tokens.push({ kind: "word", text: word[0] });
      index += word[0].length;
      continue;
    }
    const number = /^-?\d+(\.\d+)?/.exec(rest);
    if (number) {
      tokens.push({ kind: "number", text: number[0] });
      index += number[0].length;
      continue;
    }
    const symbol = /^(\{\{|\}\}|->|[{}()<>,|?[\]:=])/.exec(rest);
    if (!symbol) throw new Error(`fixture schema: unexpected text at ${JSON.stringify(rest.slice(0, 20))}`);
    tokens.push({ kind: "symbol", text: symbol[0] });
    index += symbol[0].length;
  }
  return tokens;
}

class Reader {
  private position = 0;
  constructor(private readonly tokens: Token[]) {}
  peek(offset = 0): Token | undefined {
    return this.tokens[this.position + offset];
  }
  next(): Token {
    const token = this.tokens[this.position++];
    if (!token) throw new Error("fixture schema: unexpected end");
    return token;
  }
  accept(text: string): boolean {
    if (this.peek()?.text !== text) return false;
    this.position++;
    return true;
  }
  expect(text: string): void {
    const token = this.next();
    if (token.text !== text) throw new Error(`fixture schema: expected ${text}, got ${token.text}`);
  }
  done(): boolean {
    return this.position >= this.tokens.length;
  }
}

function readType(reader: Reader): Type {
  const options = [readPostfix(reader)];
  while (reader.accept("|")) options.push(readPostfix(reader));
  if (options.length === 1 && options[0]) return options[0];
  return {
    kind: "union",
    options: options.flatMap((option) => (option.kind === "union" ? option.options : [option])),
  };
}

function readPostfix(reader: Reader): Type {
  let type = readAtom(reader);
  for (;;) {
    if (reader.peek()?.text === "[" && reader.peek(1)?.text === "]") {
      reader.next();
      reader.next();
      type = { kind: "list", item: type };
    } else if (reader.accept("?")) {
      type = { kind: "optional", inner: type };
    } else {
      return type;
    }
  }
}

function readAtom(reader: Reader): Type {
  const token = reader.next();
  if (token.text === "(") {
    const inner = readType(reader);
    reader.expect(")");
    return inner;
  }
  if (token.kind === "string") return { kind: "literal", value: token.text };
  if (token.kind === "number") return { kind: "literal", value: Number(token.text) };
  if (token.text === "true" || token.text === "false")
    return { kind: "literal", value: token.text === "true" };
  if (["string", "int", "float", "bool", "null"].includes(token.text))
    return { kind: "primitive", name: token.text as "string" };
  if (["image", "audio", "pdf", "video"].includes(token.text))
    return { kind: "media", name: token.text as "image" };
  if (token.text === "map") {
    reader.expect("<");
    const key = readType(reader);
    reader.expect(",");
    const value = readType(reader);
    reader.expect(">");
    return { kind: "map", key, value };
  }
  return { kind: "class", name: token.text };
}

interface Attributes {
  alias?: string;
  description?: string;
  skip?: boolean;
  constraints: { level: "check" | "assert"; label?: string; expression: string }[];
}

function readAttributes(reader: Reader, prefix: "@" | "@@"): Attributes {
  const attributes: Attributes = { constraints: [] };
  for (
    let token = reader.peek();
    token?.text.startsWith(prefix) && (prefix === "@@" || !token.text.startsWith("@@"));
    token = reader.peek()
  ) {
    reader.next();
    const name = token.text.slice(prefix.length);
    if (name === "skip") {
      attributes.skip = true;
      continue;
    }
    reader.expect("(");
    if (name === "check" || name === "assert") {
      let label: string | undefined;
      if (reader.peek()?.text !== "{{") {
        label = reader.next().text;
        reader.expect(",");
      }
      reader.expect("{{");
      const parts: string[] = [];
      while (reader.peek()?.text !== "}}") parts.push(reader.next().text);
      reader.expect("}}");
      attributes.constraints.push({ level: name, ...(label ? { label } : {}), expression: parts.join(" ") });
    } else {
      const value = reader.next().text;
      if (name === "alias") attributes.alias = value;
      else if (name === "description") attributes.description = value;
    }
    reader.expect(")");
  }
  return attributes;
}

/** Parses fixture BAML into an IR (classes, enums, aliases, template strings, functions). */
export function parseFixtureSchema(source: string): Ir {
  const ir = emptyIr();
  const reader = new Reader(tokenize(source));
  while (!reader.done()) {
    const keyword = reader.next().text;
    if (keyword === "type") {
      const name = reader.next().text;
      reader.expect("=");
      ir.aliases.push({ name, type: readType(reader) });
      continue;
    }
    if (keyword === "template_string" || keyword === "function") {
      const name = reader.next().text;
      reader.expect("(");
      const params: { name: string; type: Type }[] = [];
      while (!reader.accept(")")) {
        const param = reader.next().text;
        reader.expect(":");
        params.push({ name: param, type: readType(reader) });
        reader.accept(",");
      }
      if (keyword === "template_string") {
        ir.templateStrings.push({ name, params, body: reader.next().text });
        continue;
      }
      reader.expect("->");
      const returnType = readType(reader);
      reader.expect("{");
      reader.expect("client");
      const client = reader.next().text;
      reader.expect("prompt");
      const prompt = reader.next().text;
      reader.expect("}");
      ir.functions.push({ name, params, returnType, client, prompt });
      continue;
    }
    const name = reader.next().text;
    reader.expect("{");
    if (keyword === "enum") {
      const values: Ir["enums"][number]["values"] = [];
      let block: Attributes = { constraints: [] };
      while (!reader.accept("}")) {
        if (reader.peek()?.text.startsWith("@@")) {
          block = readAttributes(reader, "@@");
          continue;
        }
        const value = reader.next().text;
        const attributes = readAttributes(reader, "@");
        values.push({ name: value, ...pick(attributes) });
      }
      ir.enums.push({ name, values, dynamic: false, constraints: block.constraints, ...pickBlock(block) });
    } else {
      const fields: Field[] = [];
      let block: Attributes = { constraints: [] };
      while (!reader.accept("}")) {
        if (reader.peek()?.text.startsWith("@@")) {
          block = readAttributes(reader, "@@");
          continue;
        }
        const field = reader.next().text;
        let type = readType(reader);
        const attributes = readAttributes(reader, "@");
        if (attributes.constraints.length > 0)
          type = { ...type, attrs: { constraints: attributes.constraints } };
        fields.push({ name: field, type, ...pick(attributes) });
      }
      ir.classes.push({ name, fields, dynamic: false, constraints: block.constraints, ...pickBlock(block) });
    }
  }
  resolveNames(ir);
  return ir;
}

function pick(attributes: Attributes): { alias?: string; description?: string; skip?: boolean } {
  return {
    ...(attributes.alias !== undefined ? { alias: attributes.alias } : {}),
    ...(attributes.description !== undefined ? { description: attributes.description } : {}),
    ...(attributes.skip ? { skip: true } : {}),
  };
}

function pickBlock(attributes: Attributes): { alias?: string; description?: string } {
  return {
    ...(attributes.alias !== undefined ? { alias: attributes.alias } : {}),
    ...(attributes.description !== undefined ? { description: attributes.description } : {}),
  };
}

/** Names read as classes become enum or alias references once every declaration is known. */
function resolveNames(ir: Ir): void {
  const fix = (type: Type): Type => resolveType(type, ir);
  for (const item of ir.classes) for (const field of item.fields) field.type = fix(field.type);
  for (const alias of ir.aliases) alias.type = fix(alias.type);
  for (const fn of ir.functions) {
    fn.returnType = fix(fn.returnType);
    for (const param of fn.params) param.type = fix(param.type);
  }
  for (const template of ir.templateStrings)
    for (const param of template.params) param.type = fix(param.type);
}

function resolveType(type: Type, ir: Ir): Type {
  switch (type.kind) {
    case "class":
      if (ir.enums.some((item) => item.name === type.name)) return { ...type, kind: "enum" };
      if (ir.aliases.some((item) => item.name === type.name)) return { ...type, kind: "alias" };
      return type;
    case "list":
      return { ...type, item: resolveType(type.item, ir) };
    case "map":
      return { ...type, key: resolveType(type.key, ir), value: resolveType(type.value, ir) };
    case "optional":
      return { ...type, inner: resolveType(type.inner, ir) };
    case "union":
      return { ...type, options: type.options.map((option) => resolveType(option, ir)) };
    default:
      return type;
  }
}

/** Parses a type expression against an IR (names resolved to its classes, enums and aliases). */
export function parseFixtureType(text: string, ir: Ir): Type {
  return resolveType(readType(new Reader(tokenize(text))), ir);
}
