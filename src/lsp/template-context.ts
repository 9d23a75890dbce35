import type { ast } from "../language/index.js";
import type { BamlProject, ProjectFile } from "./baml-project.js";
import { declarationAt, touches } from "./navigation.js";
import { entry, templateText } from "./occurrences.js";
import { templateRoots } from "./type-paths.js";

/** A Jinja template around an offset: a prompt, a template string's body, or a `@check`/`@assert` expression. */
export interface TemplateContext {
  kind: "prompt" | "template-string" | "check";
  /** The template's text and its offset in the file. */
  text: string;
  start: number;
  /** The names it can read, with their types (parameters, loop variables, or `this`). */
  roots: Map<string, ast.TypeExpression>;
  /** Whether the offset is inside an open `{{ … }}` or `{% … %}` (where names are read). */
  inExpression: boolean;
}

/** The template around `offset`, if any. */
export function templateContextAt(
  project: BamlProject,
  file: ProjectFile,
  offset: number,
): TemplateContext | undefined {
  const declaration = declarationAt(project, file, offset);
  if (!declaration) return undefined;
  const source = file.document.getText();
  if (declaration.kind === "function" || declaration.kind === "template-string") {
    const value =
      declaration.kind === "function" ? entry(declaration.body, "prompt")?.value : declaration.body;
    const template = value && touches(value.span, offset) ? templateText(source, value) : undefined;
    if (template && offset >= template.start && offset <= template.start + template.text.length) {
      const local = offset - template.start;
      return {
        kind: declaration.kind === "function" ? "prompt" : "template-string",
        text: template.text,
        start: template.start,
        roots: templateRoots(project, declaration.params, template.text, local),
        inExpression: insideExpression(template.text, local),
      };
    }
    return undefined;
  }
  // `{{ … }}` in an attribute: the nearest unclosed `{{` before the offset, within the declaration.
  const open = source.lastIndexOf("{{", offset);
  if (open < declaration.span.start || source.slice(open, offset).includes("}}")) return undefined;
  const thisType = checkSubject(project, declaration, offset, source);
  if (!thisType) return undefined;
  const close = source.indexOf("}}", offset);
  const end = close < 0 || close > declaration.span.end ? offset : close + 2;
  return {
    kind: "check",
    text: source.slice(open, end),
    start: open,
    roots: new Map([["this", thisType]]),
    inExpression: true,
  };
}

/** What `this` is in a check at `offset`: a field's type, the class itself, or a tested function's result. */
function checkSubject(
  project: BamlProject,
  declaration: ast.Declaration,
  offset: number,
  source: string,
): ast.TypeExpression | undefined {
  if (declaration.kind === "class") {
    const field = declaration.fields.find((item) => touches(item.span, offset));
    const lineStart = source.lastIndexOf("\n", offset) + 1;
    if (field && !/^\s*@@/.test(source.slice(lineStart, offset))) return field.type;
    return { kind: "named", name: declaration.name.name, attributes: [], span: declaration.name.span };
  }
  if (declaration.kind === "test") {
    const functions = entry(declaration.body, "functions")?.value;
    const first = functions?.kind === "array" ? functions.items[0] : undefined;
    const name = first?.kind === "unquoted" || first?.kind === "string" ? first.value : undefined;
    return name === undefined ? undefined : project.symbols.functions.get(name)?.node.returnType;
  }
  return undefined;
}

/** Whether `offset` in a template is inside an unclosed `{{` or `{%`. */
export function insideExpression(template: string, offset: number): boolean {
  const before = template.slice(0, offset);
  const open = Math.max(before.lastIndexOf("{{"), before.lastIndexOf("{%"));
  if (open < 0) return false;
  const after = before.slice(open + 2);
  return !after.includes("}}") && !after.includes("%}");
}
