import { type ast, canonicalProvider, type Located } from "../language/index.js";
import type { BamlProject, ProjectFile } from "./baml-project.js";
import { declarationAt, symbolAt, touches } from "./navigation.js";
import { entry, type SymbolNamespace } from "./occurrences.js";
import { templateContextAt } from "./template-context.js";
import { dottedNameAround, type FieldInProject, followPath } from "./type-paths.js";

/** Hover text (Markdown) and the span it describes. */
export interface HoverResult {
  markdown: string;
  span: ast.Span;
}

/** Longest declaration shown whole in a hover; longer ones are cut with a note. */
const maxLines = 30;

/**
 * What to show for the name at an offset: a declaration (classes, enums and aliases as written, a
 * function's signature, a client's provider and model), a field's type and description, an enum value's
 * alias, or the field a `{{ arg.field }}` path names.
 */
export function hoverAt(project: BamlProject, file: ProjectFile, offset: number): HoverResult | undefined {
  const symbol = symbolAt(project, file, offset);
  if (symbol) {
    const markdown = describeSymbol(project, symbol.namespace, symbol.name);
    return markdown === undefined ? undefined : { markdown, span: symbol.span };
  }
  const declaration = declarationAt(project, file, offset);
  if (declaration?.kind === "class") {
    const field = declaration.fields.find((item) => touches(item.name.span, offset));
    if (field)
      return {
        markdown: describeField(project, { field, owner: { node: declaration, file: file.path } }),
        span: field.name.span,
      };
  }
  if (declaration?.kind === "enum") {
    const value = declaration.values.find((item) => touches(item.name.span, offset));
    if (value) return { markdown: describeEnumValue(declaration, value), span: value.name.span };
  }
  return hoverInTemplate(project, file, offset);
}

function hoverInTemplate(project: BamlProject, file: ProjectFile, offset: number): HoverResult | undefined {
  const found = templatePathAt(project, file, offset);
  if (!found) return undefined;
  if (found.field) return { markdown: describeField(project, found.field), span: found.span };
  if (found.root)
    return {
      markdown: code(`${found.root.name}: ${typeText(project, file.path, found.root.type)}`),
      span: found.span,
    };
  return undefined;
}

/**
 * The name under the cursor in a Jinja expression: a root (a parameter, a loop variable, `this`) with its
 * type, or the class field a `root.a.b` path names.
 */
export function templatePathAt(
  project: BamlProject,
  file: ProjectFile,
  offset: number,
): { span: ast.Span; field?: FieldInProject; root?: { name: string; type: ast.TypeExpression } } | undefined {
  const template = templateContextAt(project, file, offset);
  if (!template?.inExpression) return undefined;
  const around = dottedNameAround(template.text, offset - template.start);
  if (!around) return undefined;
  const span = { start: template.start + around.start, end: template.start + around.end };
  if (around.path.length === 1) {
    const name = around.path[0] ?? "";
    const type = template.roots.get(name);
    return type ? { span, root: { name, type } } : undefined;
  }
  const field = followPath(project, template.roots, around.path).fields.at(-1);
  return field ? { span, field } : undefined;
}

/** The Markdown for a top-level declaration. */
export function describeSymbol(
  project: BamlProject,
  namespace: SymbolNamespace,
  name: string,
): string | undefined {
  const declared = project.declarationOf(namespace, name) as Located<ast.Declaration> | undefined;
  if (!declared) return undefined;
  const node = declared.node;
  const source = project.files.get(declared.file)?.document.getText() ?? "";
  const docs = node.docs ? `\n\n${node.docs}` : "";
  switch (node.kind) {
    case "class":
    case "enum":
    case "type-alias":
    case "retry-policy":
      return `${code(excerpt(source, node.span))}${docs}${description(node)}`;
    case "function":
    case "expression-function": {
      const client = node.kind === "function" ? entry(node.body, "client")?.value : undefined;
      const clientName = client?.kind === "unquoted" || client?.kind === "string" ? client.value : undefined;
      const header = signature(source, node);
      return `${code(header)}${clientName ? `\n\nclient: \`${clientName}\`` : ""}${docs}`;
    }
    case "template-string":
      return `${code(signature(source, node))}${docs}`;
    case "client":
      return `${code(`client<${node.clientType?.name ?? "llm"}> ${node.name.name}`)}\n\n${clientDetails(node)}${docs}`;
    case "generator":
    case "test":
      return undefined;
  }
}

function clientDetails(node: ast.ClientDecl): string {
  const text = (value: ast.ConfigValue | undefined): string | undefined =>
    value?.kind === "unquoted" || value?.kind === "string"
      ? value.value
      : value?.kind === "env"
        ? `env.${value.name}`
        : undefined;
  const provider = text(entry(node.body, "provider")?.value);
  const options = entry(node.body, "options")?.value;
  const option = (key: string) => (options?.kind === "map" ? entry(options.block, key)?.value : undefined);
  const lines: string[] = [];
  if (provider !== undefined) {
    const canonical = canonicalProvider(provider);
    lines.push(`provider: \`${provider}\`${canonical !== provider ? ` (${canonical})` : ""}`);
  }
  const model = text(option("model")) ?? text(option("model_id"));
  if (model !== undefined) lines.push(`model: \`${model}\``);
  const strategy = option("strategy");
  if (strategy?.kind === "array")
    lines.push(`strategy: ${strategy.items.map((item) => `\`${text(item) ?? "?"}\``).join(" → ")}`);
  const retry = text(entry(node.body, "retry_policy")?.value);
  if (retry !== undefined) lines.push(`retry policy: \`${retry}\``);
  return lines.join("  \n");
}

/** A field's type, its class, its `@description`, `@alias` and doc comment. */
export function describeField(project: BamlProject, { field, owner }: FieldInProject): string {
  const lines = [
    code(`${field.name.name} ${typeText(project, owner.file, field.type)}`),
    `field of class \`${owner.node.name.name}\``,
  ];
  const alias = stringArgument(field.attributes, "alias");
  if (alias !== undefined) lines.push(`alias: \`${alias}\``);
  const describedAs = stringArgument(field.attributes, "description");
  if (describedAs !== undefined) lines.push(describedAs);
  if (field.docs) lines.push(field.docs);
  return lines.join("\n\n");
}

function describeEnumValue(declaration: ast.EnumDecl, value: ast.EnumValueDecl): string {
  const lines = [code(`${declaration.name.name}.${value.name.name}`)];
  const alias = stringArgument(value.attributes, "alias");
  lines.push(
    alias === undefined
      ? "no alias: the model sees the value's name"
      : `alias: \`${alias}\` (what the model sees)`,
  );
  const describedAs = stringArgument(value.attributes, "description");
  if (describedAs !== undefined) lines.push(describedAs);
  if (value.attributes.some((attribute) => attribute.name === "skip")) lines.push("skipped (`@skip`)");
  if (value.docs) lines.push(value.docs);
  return lines.join("\n\n");
}

function description(node: ast.ClassDecl | ast.EnumDecl | ast.TypeAliasDecl | ast.RetryPolicyDecl): string {
  if (node.kind !== "class" && node.kind !== "enum") return "";
  const text = stringArgument(node.attributes, "description");
  return text === undefined ? "" : `\n\n${text}`;
}

function stringArgument(attributes: readonly ast.Attribute[], name: string): string | undefined {
  const argument = attributes.find((attribute) => attribute.name === name)?.args[0];
  return argument?.kind === "string" ? argument.value : undefined;
}

/** A declaration's header, up to its body (`function F(a: T) -> R`). */
function signature(
  source: string,
  node: ast.FunctionDecl | ast.ExpressionFunctionDecl | ast.TemplateStringDecl,
): string {
  const end =
    node.kind === "template-string"
      ? (node.body?.span.start ?? node.span.end)
      : node.kind === "function"
        ? node.body.span.start
        : node.returnType.span.end;
  return source.slice(node.span.start, end).replace(/\s+/g, " ").trim();
}

/** A type as written in its file. */
function typeText(project: BamlProject, path: string, type: ast.TypeExpression): string {
  const source = project.files.get(path)?.document.getText() ?? "";
  return source.slice(type.span.start, type.span.end).replace(/\s+/g, " ");
}

function excerpt(source: string, span: ast.Span): string {
  const lines = source.slice(span.start, span.end).split(/\r?\n/);
  if (lines.length <= maxLines) return lines.join("\n");
  return [...lines.slice(0, maxLines), `  // … ${lines.length - maxLines} more lines`].join("\n");
}

function code(text: string): string {
  return `\`\`\`baml\n${text}\n\`\`\``;
}
