import type * as ast from "./ast.js";
import { attributeMember, printBlockMembers } from "./format-config-block.js";
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
  return formatBamlFile(text).text;
}

/** What `formatBamlFile` did: the text, and why it was left unchanged when it was skipped. */
export interface FormattedBaml {
  text: string;
  /** `ignored`: a `// baml-format: ignore` line; `syntax-errors`: `syntaxErrors` errors prevent formatting. */
  skipped?: { reason: "ignored" } | { reason: "syntax-errors"; syntaxErrors: number };
}

/** `formatBaml`, saying when and why a text was left alone (for `sapling fmt` to report it). */
export function formatBamlFile(text: string): FormattedBaml {
  if (/^\s*\/\/\s*baml-format:\s*ignore\s*$/m.test(text)) return { text, skipped: { reason: "ignored" } };
  const { file, diagnostics } = parseSource(text, "<format>");
  if (diagnostics.length > 0)
    return { text, skipped: { reason: "syntax-errors", syntaxErrors: diagnostics.length } };
  return { text: print(text, file) };
}

function print(text: string, file: ast.SourceFile): string {
  const printer = new FormatPrinter(text, file.comments);
  for (const declaration of file.declarations) {
    // One blank line after the previous declaration; comments directly above stay attached.
    printer.separate();
    printer.leadingComments(declaration.span.start, 0);
    printDeclaration(printer, declaration, 0);
  }
  return printer.finish();
}

function printDeclaration(printer: FormatPrinter, declaration: ast.Declaration, indent: number): void {
  switch (declaration.kind) {
    case "class":
    case "enum":
      printTypeBlock(printer, declaration, indent);
      return;
    case "type-alias": {
      const content = printer.containsComment(declaration.span)
        ? printer.slice(declaration.span)
        : `type ${declaration.name.name} = ${formatType(declaration.type, printer.text)}`;
      printer.item(indent, content, declaration.span);
      return;
    }
    case "expression-function":
      // Sapling does not read these bodies (BAML's experimental workflows), so they are kept as written.
      printer.item(indent, printer.slice(declaration.span), declaration.span);
      return;
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
        printer.item(indent, printer.slice(declaration.span), declaration.span);
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
      const body = declaration.body ? ` ${printer.slice(declaration.body.span)}` : "";
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
      ? printer.slice(param.span)
      : `${param.name.name}: ${formatType(param.type, printer.text)}${(param.attributes ?? []).map((attribute) => ` ${formatAttribute(attribute, printer.text)}`).join("")}`,
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
  const keyword = declaration.keywordless
    ? "dynamic"
    : `${declaration.dynamic ? "dynamic " : ""}${declaration.kind}`;
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
            ? printer.slice(field.span)
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
            ? printer.slice(value.span)
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

function printConfigDeclaration(
  printer: FormatPrinter,
  header: string,
  declaration: ast.Declaration,
  body: ast.ConfigBlock,
  indent: number,
): void {
  printer.open(indent, header, { start: declaration.span.start, end: body.span.start }, body.span.start);
  printBlockMembers(printer, body, indent + 1, printDeclaration);
  printer.close(indent, body.span.end - 1);
}
