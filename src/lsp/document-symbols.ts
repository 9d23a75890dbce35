import { type DocumentSymbol, SymbolKind } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { ast } from "../language/index.js";

const kinds: Record<ast.Declaration["kind"], SymbolKind> = {
  class: SymbolKind.Class,
  enum: SymbolKind.Enum,
  "type-alias": SymbolKind.TypeParameter,
  function: SymbolKind.Function,
  "expression-function": SymbolKind.Function,
  client: SymbolKind.Object,
  "retry-policy": SymbolKind.Object,
  generator: SymbolKind.Module,
  test: SymbolKind.Event,
  "template-string": SymbolKind.Function,
};

/** The outline of a file: its declarations, with fields, enum values and parameters inside them. */
export function documentSymbols(file: ast.SourceFile, document: TextDocument): DocumentSymbol[] {
  const range = (span: ast.Span) => ({
    start: document.positionAt(span.start),
    end: document.positionAt(span.end),
  });
  const symbol = (
    { name, span: nameSpan }: { name: string; span: ast.Span },
    kind: SymbolKind,
    span: ast.Span,
    detail?: string,
    children?: DocumentSymbol[],
  ): DocumentSymbol => ({
    name: name === "" ? "(unnamed)" : name,
    kind,
    range: range(span),
    // The selection must lie inside the range, also for a declaration the parser cut short.
    selectionRange: range(nameSpan.start >= span.start && nameSpan.end <= span.end ? nameSpan : span),
    ...(detail ? { detail } : {}),
    ...(children && children.length > 0 ? { children } : {}),
  });
  const typeText = (type: ast.TypeExpression) => file.text.slice(type.span.start, type.span.end);
  return file.declarations.map((declaration) => {
    let children: DocumentSymbol[] = [];
    let detail: string | undefined;
    if (declaration.kind === "class")
      children = declaration.fields.map((field) =>
        symbol(field.name, SymbolKind.Field, field.span, typeText(field.type)),
      );
    else if (declaration.kind === "enum")
      children = declaration.values.map((value) => symbol(value.name, SymbolKind.EnumMember, value.span));
    else if (declaration.kind === "function" || declaration.kind === "expression-function") {
      children = declaration.params.map((param) =>
        symbol(param.name, SymbolKind.Variable, param.span, typeText(param.type)),
      );
      detail = `-> ${typeText(declaration.returnType)}`;
    } else if (declaration.kind === "type-alias") detail = typeText(declaration.type);
    return symbol(declaration.name, kinds[declaration.kind], declaration.span, detail, children);
  });
}
