import type { Attribute, AttributeArgument, TypeExpression } from "./ast.js";

/** A type expression in canonical spacing (`map<K, V>`, `A | B`, `(T @stream.done)[]`), as written otherwise. */
export function formatType(type: TypeExpression, text: string): string {
  return withAttributes(formatBare(type, text), type.attributes, text);
}

function formatBare(type: TypeExpression, text: string): string {
  switch (type.kind) {
    case "named":
      return type.name;
    case "literal":
      return type.text;
    case "list":
      return `${formatType(type.item, text)}[]`;
    case "optional":
      return `${formatType(type.inner, text)}?`;
    case "map":
      return `map<${type.typeArguments.map((argument) => formatType(argument, text)).join(", ")}>`;
    case "union":
      return type.options.map((option) => formatType(option, text)).join(" | ");
    case "group":
      return `(${formatType(type.inner, text)})`;
    case "tuple":
      return `(${type.items.map((item) => formatType(item, text)).join(", ")})`;
    case "error":
      return text.slice(type.span.start, type.span.end);
  }
}

function withAttributes(printed: string, attributes: readonly Attribute[], text: string): string {
  if (attributes.length === 0) return printed;
  return `${printed} ${attributes.map((attribute) => formatAttribute(attribute, text)).join(" ")}`;
}

/** `@name(args)` with `, ` between arguments; strings keep their original quoting; `@skip()` → `@skip`. */
export function formatAttribute(attribute: Attribute, text: string): string {
  const name = `${attribute.block ? "@@" : "@"}${attribute.name}`;
  if (attribute.args.length === 0) return name;
  return `${name}(${attribute.args.map((argument) => formatArgument(argument, text)).join(", ")})`;
}

function formatArgument(argument: AttributeArgument, text: string): string {
  switch (argument.kind) {
    case "string":
      return text.slice(argument.span.start, argument.span.end);
    case "expression":
      return `{{ ${argument.expression.trim()} }}`;
    case "identifier":
      return argument.name;
    case "number":
      return argument.text;
  }
}
