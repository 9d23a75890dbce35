import type * as ast from "./ast.js";
import type { FormatPrinter } from "./format-printer.js";
import { formatAttribute } from "./format-type.js";

/** Prints a declaration nested in a block (a type_builder's classes and enums). */
export type DeclarationPrinter = (
  printer: FormatPrinter,
  declaration: ast.Declaration,
  indent: number,
) => void;

/** An `@@attribute` line as a block member, kept as written when a comment sits inside it. */
export function attributeMember(
  printer: FormatPrinter,
  attribute: ast.Attribute,
  indent: number,
): { start: number; print: () => void } {
  return {
    start: attribute.span.start,
    print: () => {
      const content = printer.containsComment(attribute.span)
        ? printer.slice(attribute.span)
        : formatAttribute(attribute, printer.text);
      printer.item(indent, content, attribute.span);
    },
  };
}

/**
 * The members of a configuration block in source order: `key value` entries, `@@` attributes, and a
 * test's type_builder (whose declarations `printDeclaration` prints).
 */
export function printBlockMembers(
  printer: FormatPrinter,
  block: ast.ConfigBlock,
  indent: number,
  printDeclaration: DeclarationPrinter,
): void {
  const members: { start: number; print: () => void }[] = block.entries.map((entry) => ({
    start: entry.span.start,
    print: () => printEntry(printer, entry, indent, printDeclaration),
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

function printEntry(
  printer: FormatPrinter,
  entry: ast.ConfigEntry,
  indent: number,
  printDeclaration: DeclarationPrinter,
): void {
  const key = printer.slice(entry.key.span);
  printValue(printer, key, entry, indent, printDeclaration);
}

/** Print `prefix value` (prefix is a key, or empty for list items) at `indent`; `span` is the whole entry's. */
function printValue(
  printer: FormatPrinter,
  prefix: string,
  { value, span }: { value: ast.ConfigValue; span: ast.Span },
  indent: number,
  printDeclaration: DeclarationPrinter,
): void {
  const lead = prefix === "" ? "" : `${prefix} `;
  if (value.kind === "map") {
    const block = value.block;
    if (block.entries.length === 0 && block.attributes.length === 0 && !printer.containsComment(block.span)) {
      printer.item(indent, `${lead}{}`, span);
      return;
    }
    printer.open(indent, `${lead}{`, span, block.span.start);
    printBlockMembers(printer, block, indent + 1, printDeclaration);
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
    for (const item of value.items) {
      printValue(printer, "", { value: item, span: item.span }, indent + 1, printDeclaration);
    }
    printer.leadingComments(value.span.end - 1, indent + 1);
    printer.item(indent, "]", { start: value.span.end - 1, end: value.span.end }, false);
    return;
  }
  const text = scalar(printer, value);
  // A value that itself starts with `:` (`m::x` is `m` = `:x`) keeps the separator, or `m :x` would
  // read back as `m` = `x`.
  const separator = prefix !== "" && text.startsWith(":") ? `${prefix}: ` : lead;
  printer.item(indent, `${separator}${text}`, span);
}

/** `[a, b]` when the list was written on one line without comments, maps or nested multi-line lists. */
function inlineArray(
  printer: FormatPrinter,
  value: Extract<ast.ConfigValue, { kind: "array" }>,
): string | undefined {
  if (/[\n\r]/.test(printer.slice(value.span)) || printer.containsComment(value.span)) return undefined;
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
      return printer.slice(value.span);
  }
}
