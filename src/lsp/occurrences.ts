import { type ast, builtinTypeNames, jinjaNames } from "../language/index.js";

/** The namespaces a name can be declared in and referred to from elsewhere. */
export type SymbolNamespace = "type" | "function" | "client" | "retry-policy" | "template-string";

/**
 * One place a top-level name is written: its declaration or a reference to it. Jinja reads are kept as
 * `template-string` candidates; whether one names a template string is decided against the symbol table.
 */
export interface Occurrence {
  namespace: SymbolNamespace;
  name: string;
  span: ast.Span;
  declaration: boolean;
}

/** Every declaration of and reference to a top-level name in one parsed file, in no particular order. */
export function collectOccurrences(file: ast.SourceFile): Occurrence[] {
  const found: Occurrence[] = [];
  const add = (namespace: SymbolNamespace, name: string, span: ast.Span, declaration = false): void => {
    if (name !== "") found.push({ namespace, name, span, declaration });
  };
  const addType = (type: ast.TypeExpression): void =>
    walkTypeNames(type, (named) => add("type", named.name, named.span));
  const addNamed = (namespace: SymbolNamespace, value: ast.ConfigValue | undefined): void => {
    const reference = namedValue(value);
    if (reference) add(namespace, reference.name, reference.span);
  };
  const addTemplate = (value: ast.ConfigValue | undefined): void => {
    const template = templateText(file.text, value);
    if (!template) return;
    for (const read of jinjaNames(template.text).reads) {
      const start = template.start + read.offset;
      add("template-string", read.name, { start, end: start + read.name.length });
    }
  };
  const addTypeDeclaration = (declaration: ast.TypeDeclaration, declares: boolean): void => {
    add("type", declaration.name.name, declaration.name.span, declares);
    if (declaration.kind === "type-alias") addType(declaration.type);
    else if (declaration.kind === "class") for (const field of declaration.fields) addType(field.type);
  };
  for (const declaration of file.declarations) {
    switch (declaration.kind) {
      case "class":
      case "enum":
      case "type-alias":
        addTypeDeclaration(declaration, true);
        break;
      case "function":
      case "expression-function":
        add("function", declaration.name.name, declaration.name.span, true);
        for (const param of declaration.params) addType(param.type);
        addType(declaration.returnType);
        if (declaration.kind === "function") {
          const client = entry(declaration.body, "client")?.value;
          // `client "openai/gpt-4o"` is a shorthand for an anonymous client, not a name.
          if (!namedValue(client)?.name.includes("/")) addNamed("client", client);
          addTemplate(entry(declaration.body, "prompt")?.value);
        }
        break;
      case "client": {
        add("client", declaration.name.name, declaration.name.span, true);
        addNamed("retry-policy", entry(declaration.body, "retry_policy")?.value);
        const options = entry(declaration.body, "options")?.value;
        const strategy = options?.kind === "map" ? entry(options.block, "strategy")?.value : undefined;
        if (strategy?.kind === "array") for (const item of strategy.items) addNamed("client", item);
        break;
      }
      case "retry-policy":
        add("retry-policy", declaration.name.name, declaration.name.span, true);
        break;
      case "template-string":
        add("template-string", declaration.name.name, declaration.name.span, true);
        for (const param of declaration.params) addType(param.type);
        addTemplate(declaration.body);
        break;
      case "test": {
        const functions = entry(declaration.body, "functions")?.value;
        if (functions?.kind === "array") for (const item of functions.items) addNamed("function", item);
        // A type_builder's `dynamic class X` extends the project's X; its other declarations are local.
        for (const local of declaration.body.typeBuilder?.declarations ?? []) {
          if (local.kind !== "type-alias" && local.dynamic) addTypeDeclaration(local, false);
          else if (local.kind === "class") for (const field of local.fields) addType(field.type);
          else if (local.kind === "type-alias") addType(local.type);
        }
        break;
      }
      case "generator":
        break;
    }
  }
  return found;
}

/** The first entry of a block with this key. */
export function entry(block: ast.ConfigBlock, key: string): ast.ConfigEntry | undefined {
  return block.entries.find((item) => item.key.name === key);
}

/** A name written as a config value (`client GPT4o`, `client "GPT4o"`), with the span of the name alone. */
export function namedValue(value: ast.ConfigValue | undefined): { name: string; span: ast.Span } | undefined {
  if (value?.kind === "unquoted") return { name: value.value, span: value.span };
  if (value?.kind === "string")
    return { name: value.value, span: { start: value.span.start + 1, end: value.span.end - 1 } };
  return undefined;
}

/**
 * A template value's text and where it starts in the file, when its text is the file's text verbatim
 * (a raw string, or a quoted string without escapes), so offsets in the template map back to the file.
 */
export function templateText(
  source: string,
  value: ast.ConfigValue | undefined,
): { text: string; start: number } | undefined {
  if (value?.kind === "raw-string") {
    const start = value.contentStart;
    return source.startsWith(value.value, start) ? { text: value.value, start } : undefined;
  }
  if (value?.kind === "string") {
    const start = value.span.start + 1;
    return source.startsWith(value.value, start) ? { text: value.value, start } : undefined;
  }
  return undefined;
}

/** Calls `visit` for every class, enum or alias name in a type expression (built-in names skipped). */
export function walkTypeNames(
  type: ast.TypeExpression,
  visit: (named: ast.NamedTypeExpression) => void,
): void {
  switch (type.kind) {
    case "named":
      if (!builtinTypeNames.has(type.name) && type.name !== "map") visit(type);
      return;
    case "list":
      walkTypeNames(type.item, visit);
      return;
    case "map":
      for (const argument of type.typeArguments) walkTypeNames(argument, visit);
      return;
    case "union":
      for (const option of type.options) walkTypeNames(option, visit);
      return;
    case "optional":
    case "group":
      walkTypeNames(type.inner, visit);
      return;
    case "tuple":
      for (const item of type.items) walkTypeNames(item, visit);
      return;
    case "literal":
    case "error":
      return;
  }
}
