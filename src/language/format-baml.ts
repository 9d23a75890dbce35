import type * as ast from "./ast.js";
import { FormatPrinter } from "./format-printer.js";
import { formatAttribute, formatType } from "./format-type.js";
import { parseSource } from "./parser.js";

/**
 * Format BAML source canonically: one declaration per paragraph, two-space indentation, one member per
 * line, canonical spacing in types and attributes, `key value` entries without colons or commas. Every
 * comment is kept; prompts and other raw strings are kept byte for byte; an item containing a comment is
 * kept as written. Idempotent. Text with syntax errors, or with a `// baml-format: ignore` line, is
 * returned unchanged (formatting it could lose what the user meant).
 */
export function formatBaml(text: string): string {
  if (/^\s*\/\/\s*baml-format:\s*ignore\s*$/m.test(text)) return text;
  const { file, diagnostics } = parseSource(text, "<format>");
  if (diagnostics.length > 0) return text;
  const printer = new FormatPrinter(text, file.comments);
  for (const declaration of file.declarations) {
    // One blank line after the previous declaration; comments directly above stay attached.
    printer.separate();
    printer.leadingComments(declaration.span.start, 0);
    printDeclaration(printer, declaration, 0);
  }
  return printer.finish();
}

function slice(printer: FormatPrinter, span: ast.Span): string {
  return printer.text.slice(span.start, span.end);
}

function printDeclaration(printer: FormatPrinter, declaration: ast.Declaration, indent: number): void {
  switch (declaration.kind) {
    case "class":
    case "enum":
      printTypeBlock(printer, declaration, indent);
      return;
    case "type-alias": {
      const content = printer.containsComment(declaration.span)
        ? slice(printer, declaration.span)
        : `type ${declaration.name.name} = ${formatType(declaration.type, printer.text)}`;
      printer.item(indent, content, declaration.span);
      return;
    }
    case "function": {
      const header = `function ${declaration.name.name}${formatParameters(printer, declaration.params, declaration.name.span.end, declaration.returnType.span.start, indent)} -> ${formatType(declaration.returnType, printer.text)} {`;
      printConfigDeclaration(printer, header, declaration, declaration.body, indent);
      return;
    }
    case "client": {
      const type = declaration.clientType ? `<${declaration.clientType.name}>` : "";
      printConfigDeclaration(
        printer,
        `client${type} ${declaration.name.name} {`,
        declaration,
        declaration.body,
        indent,
      );
      return;
    }
    case "retry-policy":
      printConfigDeclaration(
        printer,
        `retry_policy ${declaration.name.name} {`,
        declaration,
        declaration.body,
        indent,
      );
      return;
    case "generator":
      printConfigDeclaration(
        printer,
        `generator ${declaration.name.name} {`,
        declaration,
        declaration.body,
        indent,
      );
      return;
    case "test":
      printConfigDeclaration(
        printer,
        `test ${declaration.name.name} {`,
        declaration,
        declaration.body,
        indent,
      );
      return;
    case "template-string": {
      if (printer.containsComment(declaration.span)) {
        printer.item(indent, slice(printer, declaration.span), declaration.span);
        return;
      }
      const params =
        declaration.params.length === 0
          ? ""
          : formatParameters(
              printer,
              declaration.params,
              declaration.name.span.end,
              declaration.body?.span.start ?? declaration.span.end,
              indent,
            );
      const body = declaration.body ? ` ${slice(printer, declaration.body.span)}` : "";
      printer.item(
        indent,
        `${declaration.keyword} ${declaration.name.name}${params}${body}`,
        declaration.span,
      );
      return;
    }
  }
}

/** `(a: T, b: U)`, or one parameter per line when the list spanned several lines in the source. */
function formatParameters(
  printer: FormatPrinter,
  params: readonly ast.ParameterDecl[],
  from: number,
  to: number,
  indent: number,
): string {
  const printed = params.map((param) =>
    printer.containsComment(param.span)
      ? slice(printer, param.span)
      : `${param.name.name}: ${formatType(param.type, printer.text)}`,
  );
  const multiline = /[\n\r]/.test(printer.text.slice(from, to)) && params.length > 0;
  if (!multiline) return `(${printed.join(", ")})`;
  const inner = "  ".repeat(indent + 1);
  return `(\n${printed.map((param) => `${inner}${param},`).join("\n")}\n${"  ".repeat(indent)})`;
}

function printTypeBlock(
  printer: FormatPrinter,
  declaration: ast.ClassDecl | ast.EnumDecl,
  indent: number,
): void {
  const keyword = `${declaration.dynamic ? "dynamic " : ""}${declaration.kind}`;
  const open = printer.text.indexOf("{", declaration.name.span.end);
  printer.open(indent, `${keyword} ${declaration.name.name} {`, declaration.span, open);
  const members: { start: number; print: () => void }[] = [];
  if (declaration.kind === "class") {
    for (const field of declaration.fields) {
      members.push({
        start: field.span.start,
        print: () => {
          const attributes = field.attributes
            .map((attribute) => ` ${formatAttribute(attribute, printer.text)}`)
            .join("");
          const content = printer.containsComment(field.span)
            ? slice(printer, field.span)
            : `${field.name.name} ${formatType(field.type, printer.text)}${attributes}`;
          printer.item(indent + 1, content, field.span);
        },
      });
    }
  } else {
    for (const value of declaration.values) {
      members.push({
        start: value.span.start,
        print: () => {
          const attributes = value.attributes
            .map((attribute) => ` ${formatAttribute(attribute, printer.text)}`)
            .join("");
          const content = printer.containsComment(value.span)
            ? slice(printer, value.span)
            : `${value.name.name}${attributes}`;
          printer.item(indent + 1, content, value.span);
        },
      });
    }
  }
  for (const attribute of declaration.attributes)
    members.push(attributeMember(printer, attribute, indent + 1));
  for (const member of members.sort((left, right) => left.start - right.start)) member.print();
  printer.close(indent, declaration.span.end - 1);
}

function attributeMember(
  printer: FormatPrinter,
  attribute: ast.Attribute,
  indent: number,
): { start: number; print: () => void } {
  return {
    start: attribute.span.start,
    print: () => {
      const content = printer.containsComment(attribute.span)
        ? slice(printer, attribute.span)
        : formatAttribute(attribute, printer.text);
      printer.item(indent, content, attribute.span);
    },
  };
}

function printConfigDeclaration(
  printer: FormatPrinter,
  header: string,
  declaration: ast.Declaration,
  body: ast.ConfigBlock,
  indent: number,
): void {
  printer.open(indent, header, { start: declaration.span.start, end: body.span.start }, body.span.start);
  printBlockMembers(printer, body, indent + 1);
  printer.close(indent, body.span.end - 1);
}

function printBlockMembers(printer: FormatPrinter, block: ast.ConfigBlock, indent: number): void {
  const members: { start: number; print: () => void }[] = block.entries.map((entry) => ({
    start: entry.span.start,
    print: () => printEntry(printer, entry, indent),
  }));
  for (const attribute of block.attributes) members.push(attributeMember(printer, attribute, indent));
  const builder = block.typeBuilder;
  if (builder) {
    members.push({
      start: builder.span.start,
      print: () => {
        printer.open(
          indent,
          "type_builder {",
          builder.span,
          printer.text.indexOf("{", builder.keywordSpan.end),
        );
        for (const declaration of builder.declarations) printDeclaration(printer, declaration, indent + 1);
        printer.close(indent, builder.span.end - 1);
      },
    });
  }
  for (const member of members.sort((left, right) => left.start - right.start)) member.print();
}

function printEntry(printer: FormatPrinter, entry: ast.ConfigEntry, indent: number): void {
  const key = slice(printer, entry.key.span);
  printValue(printer, key, entry.value, entry.span, indent);
}

/** Print `prefix value` (prefix is a key, or empty for list items) at `indent`. */
function printValue(
  printer: FormatPrinter,
  prefix: string,
  value: ast.ConfigValue,
  span: ast.Span,
  indent: number,
): void {
  const lead = prefix === "" ? "" : `${prefix} `;
  if (value.kind === "map") {
    const block = value.block;
    if (block.entries.length === 0 && block.attributes.length === 0 && !printer.containsComment(block.span)) {
      printer.item(indent, `${lead}{}`, span);
      return;
    }
    printer.open(indent, `${lead}{`, span, block.span.start);
    printBlockMembers(printer, block, indent + 1);
    printer.close(indent, block.span.end - 1);
    return;
  }
  if (value.kind === "array") {
    const inline = inlineArray(printer, value);
    if (inline !== undefined) {
      printer.item(indent, `${lead}${inline}`, span);
      return;
    }
    printer.open(indent, `${lead}[`, span, value.span.start);
    for (const item of value.items) printValue(printer, "", item, item.span, indent + 1);
    printer.leadingComments(value.span.end - 1, indent + 1);
    printer.item(indent, "]", { start: value.span.end - 1, end: value.span.end }, false);
    return;
  }
  printer.item(indent, `${lead}${scalar(printer, value)}`, span);
}

/** `[a, b]` when the list was written on one line without comments, maps or nested multi-line lists. */
function inlineArray(
  printer: FormatPrinter,
  value: Extract<ast.ConfigValue, { kind: "array" }>,
): string | undefined {
  if (/[\n\r]/.test(slice(printer, value.span)) || printer.containsComment(value.span)) return undefined;
  const items: string[] = [];
  for (const item of value.items) {
    if (item.kind === "map") return undefined;
    if (item.kind === "array") {
      const nested = inlineArray(printer, item);
      if (nested === undefined) return undefined;
      items.push(nested);
    } else {
      items.push(scalar(printer, item));
    }
  }
  return `[${items.join(", ")}]`;
}

function scalar(printer: FormatPrinter, value: ast.ConfigValue): string {
  switch (value.kind) {
    case "unquoted":
      return value.value;
    case "number":
      return value.text;
    case "bool":
      return String(value.value);
    case "null":
      return "null";
    case "env":
      return `env.${value.name}`;
    default:
      return slice(printer, value.span);
  }
}
