import { type CompletionItem, CompletionItemKind } from "vscode-languageserver";
import {
  type AttributePlace,
  type ast,
  attributesAllowedIn,
  builtinTypeNames,
  isStrategyProvider,
  knownProviders,
} from "../language/index.js";
import { providerOptionNames } from "../provider-table/index.js";
import type { BamlProject, ProjectFile } from "./baml-project.js";
import { touches } from "./navigation.js";
import { entry } from "./occurrences.js";
import { type TemplateContext, templateContextAt } from "./template-context.js";
import { dottedNameBefore, fieldsOf, followPath } from "./type-paths.js";

const topLevelKeywords = [
  "class",
  "enum",
  "type",
  "function",
  "client<llm>",
  "retry_policy",
  "generator",
  "test",
  "template_string",
];

/** Keys of each configuration block, for completion at the start of a line. */
const blockKeys: Record<string, readonly string[]> = {
  function: ["client", "prompt"],
  client: ["provider", "retry_policy", "options"],
  "retry-policy": ["max_retries", "strategy"],
  "retry-strategy": ["type", "delay_ms", "multiplier", "max_delay_ms"],
  test: ["functions", "args", "type_builder"],
  generator: ["output_type", "output_dir", "version", "module_format", "default_client_mode"],
  strategy: ["strategy", "start"],
};

/** What `ctx` offers in a prompt. */
const contextMembers: Record<string, readonly string[]> = {
  ctx: ["output_format", "client"],
  "ctx.client": ["name", "provider"],
  _: ["role"],
};

/**
 * Completions at an offset, chosen by where it is: type names in a type position, attributes after `@`,
 * fields in `{{ arg.field }}` and `@check` expressions, clients, providers and their options, retry
 * policies, tested functions, block keys, and declaration keywords between declarations.
 */
export function completeAt(project: BamlProject, file: ProjectFile, offset: number): CompletionItem[] {
  const source = file.document.getText();
  const linePrefix = source.slice(source.lastIndexOf("\n", offset - 1) + 1, offset);
  const template = templateContextAt(project, file, offset);
  if (template)
    return template.inExpression ? jinjaCompletions(project, template, offset - template.start) : [];
  const declaration = enclosingDeclaration(project, file, offset);
  if (!declaration) return /^\s*[\w<]*$/.test(linePrefix) ? keywords(topLevelKeywords) : [];
  const attribute = /(@@?)[\w.]*$/.exec(linePrefix);
  if (attribute) return attributeCompletions(declaration, attribute[1] === "@@");
  const fromStart = source.slice(declaration.span.start, offset);
  switch (declaration.kind) {
    case "class":
    case "enum":
      // `name Type…` on a field line: the rest of the line up to the cursor is a type.
      return declaration.kind === "class" && /^\s*[A-Za-z_]\w*\s+[^@"]*$/.test(linePrefix)
        ? typeCompletions(project)
        : [];
    case "type-alias":
      return /=[^@]*$/.test(fromStart) ? typeCompletions(project) : [];
    case "function":
    case "expression-function":
    case "template-string": {
      // The header runs to the body's `{` (a function) or `#"` (a template string).
      if (!/\{|#"/.test(fromStart)) return headerIsTypePosition(fromStart) ? typeCompletions(project) : [];
      if (declaration.kind === "template-string") return [];
      // While `client ` is being typed the parser may read the body as an expression function's.
      if (/^\s*client\s+"?[\w-]*$/.test(linePrefix))
        return symbolItems(project.symbols.clients.keys(), CompletionItemKind.Module, "client");
      return /^\s*\w*$/.test(linePrefix) ? keywords(blockKeys.function ?? []) : [];
    }
    case "client":
      return clientCompletions(project, declaration, offset, linePrefix, fromStart);
    case "retry-policy": {
      const strategy = entry(declaration.body, "strategy")?.value;
      const inStrategy =
        strategy?.kind === "map" && touches(strategy.span, offset) && offset > strategy.span.start;
      if (inStrategy && /^\s*type\s+\w*$/.test(linePrefix))
        return keywords(["constant_delay", "exponential_backoff"]);
      return /^\s*\w*$/.test(linePrefix)
        ? keywords(blockKeys[inStrategy ? "retry-strategy" : "retry-policy"] ?? [])
        : [];
    }
    case "test":
      return testCompletions(project, declaration, offset, linePrefix, fromStart);
    case "generator":
      return /^\s*\w*$/.test(linePrefix) ? keywords(blockKeys.generator ?? []) : [];
  }
}

/**
 * The declaration an offset is in, or the one just before it when the parser stopped it early (a line
 * being typed often breaks the declaration around it); `undefined` between declarations.
 */
function enclosingDeclaration(
  project: BamlProject,
  file: ProjectFile,
  offset: number,
): ast.Declaration | undefined {
  const declarations = project.parsed(file).file.declarations;
  const inside = declarations.find(
    (declaration) => declaration.span.start < offset && offset < declaration.span.end,
  );
  if (inside) return inside;
  const before = declarations.filter((declaration) => declaration.span.end <= offset).at(-1);
  if (!before) return undefined;
  const source = file.document.getText();
  const between = source.slice(before.span.end, offset);
  // Closed with `}` and nothing but a word after it: top level. An unclosed body: still inside.
  if (source.slice(before.span.start, before.span.end).trimEnd().endsWith("}") && /^\s*[\w<]*$/.test(between))
    return undefined;
  return depth(source.slice(before.span.start, offset)) > 0 ? before : undefined;
}

function depth(text: string): number {
  let open = 0;
  for (const character of text) {
    if (character === "{") open++;
    else if (character === "}") open--;
  }
  return open;
}

/** In a function or template string header: after `->`, or after `name:` inside the parameter list. */
function headerIsTypePosition(header: string): boolean {
  if (/->[^{]*$/.test(header)) return true;
  const open = header.lastIndexOf("(");
  if (open < 0 || header.indexOf(")", open) >= 0) return false;
  return /:[^,:]*$/.test(header.slice(open));
}

function clientCompletions(
  project: BamlProject,
  declaration: ast.ClientDecl,
  offset: number,
  linePrefix: string,
  fromStart: string,
): CompletionItem[] {
  if (/^\s*provider\s+"?[\w-]*$/.test(linePrefix)) return keywords(knownProviders, CompletionItemKind.Value);
  if (/^\s*retry_policy\s+\w*$/.test(linePrefix))
    return symbolItems(project.symbols.retryPolicies.keys(), CompletionItemKind.Module, "retry policy");
  if (/strategy\s*\[[^\]]*$/.test(fromStart))
    return symbolItems(project.symbols.clients.keys(), CompletionItemKind.Module, "client");
  const options = entry(declaration.body, "options")?.value;
  if (options?.kind === "map" && offset > options.span.start && offset < options.span.end) {
    if (!/^\s*[\w-]*$/.test(linePrefix)) return [];
    const provider = entry(declaration.body, "provider")?.value;
    const name = provider?.kind === "unquoted" || provider?.kind === "string" ? provider.value : "";
    const names = isStrategyProvider(name) ? (blockKeys.strategy ?? []) : (providerOptionNames(name) ?? []);
    return keywords(names, CompletionItemKind.Property, `option of ${name || "this provider"}`);
  }
  return /^\s*\w*$/.test(linePrefix) ? keywords(blockKeys.client ?? []) : [];
}

function testCompletions(
  project: BamlProject,
  declaration: ast.TestDecl,
  offset: number,
  linePrefix: string,
  fromStart: string,
): CompletionItem[] {
  if (/functions\s*\[[^\]]*$/.test(fromStart))
    return symbolItems(project.symbols.functions.keys(), CompletionItemKind.Function, "function");
  const args = entry(declaration.body, "args")?.value;
  if (args?.kind === "map" && offset > args.span.start && offset < args.span.end) {
    if (!/^\s*\w*$/.test(linePrefix)) return [];
    const functions = entry(declaration.body, "functions")?.value;
    const params = new Map<string, ast.ParameterDecl>();
    for (const item of functions?.kind === "array" ? functions.items : []) {
      const name = item.kind === "unquoted" || item.kind === "string" ? item.value : "";
      for (const param of project.symbols.functions.get(name)?.node.params ?? [])
        params.set(param.name.name, param);
    }
    return [...params.keys()].map((name) => ({
      label: name,
      kind: CompletionItemKind.Variable,
      detail: "parameter",
    }));
  }
  return /^\s*\w*$/.test(linePrefix) ? keywords(blockKeys.test ?? []) : [];
}

function attributeCompletions(declaration: ast.Declaration, block: boolean): CompletionItem[] {
  const places: Partial<Record<ast.Declaration["kind"], [AttributePlace, AttributePlace]>> = {
    class: ["field", "class"],
    enum: ["enum-value", "enum"],
    test: ["test", "test"],
    function: ["parameter", "config"],
  };
  const pair = places[declaration.kind];
  if (!pair) return [];
  return attributesAllowedIn(block ? pair[1] : pair[0])
    .filter(
      (attribute) =>
        attribute.written.startsWith(block ? "@@" : "@") && (block || !attribute.written.startsWith("@@")),
    )
    .map((attribute) => ({
      label: attribute.written,
      kind: CompletionItemKind.Property,
      filterText: attribute.written.replace(/^@+/, ""),
      insertText: attribute.written.replace(/^@+/, "") + (attribute.takesArgument ? "(" : ""),
    }));
}

/** Built-in types and the project's classes, enums and aliases. */
export function typeCompletions(project: BamlProject): CompletionItem[] {
  const items: CompletionItem[] = [...builtinTypeNames, "null"].map((name) => ({
    label: name,
    kind: CompletionItemKind.Keyword,
    detail: "built-in type",
  }));
  items.push({
    label: "map",
    kind: CompletionItemKind.Keyword,
    detail: "built-in type",
    insertText: "map<string, ",
  });
  for (const [name, declared] of project.symbols.types) {
    const kind = declared.node.kind;
    items.push({
      label: name,
      kind:
        kind === "class"
          ? CompletionItemKind.Class
          : kind === "enum"
            ? CompletionItemKind.Enum
            : CompletionItemKind.Interface,
      detail: kind === "type-alias" ? "type alias" : kind,
      ...(declared.node.docs ? { documentation: declared.node.docs } : {}),
    });
  }
  return items;
}

function jinjaCompletions(project: BamlProject, template: TemplateContext, local: number): CompletionItem[] {
  const path = dottedNameBefore(template.text, local) ?? [""];
  if (path.length === 1) {
    const items: CompletionItem[] = [...template.roots.keys()].map((name) => ({
      label: name,
      kind: CompletionItemKind.Variable,
    }));
    if (template.kind !== "check") {
      items.push(
        { label: "ctx", kind: CompletionItemKind.Variable },
        { label: "_", kind: CompletionItemKind.Variable },
      );
      for (const name of project.symbols.templateStrings.keys())
        items.push({ label: name, kind: CompletionItemKind.Function });
    }
    return items;
  }
  const parent = path.slice(0, -1);
  const members = contextMembers[parent.join(".")];
  if (members && !template.roots.has(parent[0] ?? "")) return keywords(members, CompletionItemKind.Property);
  const type = followPath(project, template.roots, parent).type;
  if (!type) return [];
  return fieldsOf(project, type).map(({ field, owner }) => {
    const source = project.files.get(owner.file)?.document.getText() ?? "";
    const description = field.attributes.find((attribute) => attribute.name === "description")?.args[0];
    return {
      label: field.name.name,
      kind: CompletionItemKind.Field,
      detail: source.slice(field.type.span.start, field.type.span.end),
      ...(description?.kind === "string" ? { documentation: description.value } : {}),
    };
  });
}

function keywords(
  names: Iterable<string>,
  kind: CompletionItemKind = CompletionItemKind.Keyword,
  detail?: string,
): CompletionItem[] {
  return [...names].map((label) => ({ label, kind, ...(detail ? { detail } : {}) }));
}

function symbolItems(names: Iterable<string>, kind: CompletionItemKind, detail: string): CompletionItem[] {
  return keywords(names, kind, detail);
}
