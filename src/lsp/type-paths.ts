import type { ast, Located } from "../language/index.js";
import type { BamlProject } from "./baml-project.js";

/** A class field together with the class that declares it and the class's file. */
export interface FieldInProject {
  field: ast.FieldDecl;
  owner: Located<ast.ClassDecl>;
}

/** Aliases are followed at most this deep (a cycle is a checker error; here it just stops). */
const aliasDepth = 16;

/** The classes a value of this type can be: optional, groups, unions and aliases seen through. */
export function classesOf(
  project: BamlProject,
  type: ast.TypeExpression,
  depth = 0,
): Located<ast.ClassDecl>[] {
  if (depth > aliasDepth) return [];
  switch (type.kind) {
    case "named": {
      const declared = project.symbols.types.get(type.name);
      if (declared?.node.kind === "class") return [declared as Located<ast.ClassDecl>];
      if (declared?.node.kind === "type-alias") return classesOf(project, declared.node.type, depth + 1);
      return [];
    }
    case "optional":
    case "group":
      return classesOf(project, type.inner, depth);
    case "union":
      return type.options.flatMap((option) => classesOf(project, option, depth));
    default:
      return [];
  }
}

/** The item type of a list type (for `{% for x in xs %}`), seeing through optional, groups and aliases. */
export function itemTypeOf(
  project: BamlProject,
  type: ast.TypeExpression,
  depth = 0,
): ast.TypeExpression | undefined {
  if (depth > aliasDepth) return undefined;
  switch (type.kind) {
    case "list":
      return type.item;
    case "optional":
    case "group":
      return itemTypeOf(project, type.inner, depth);
    case "named": {
      const declared = project.symbols.types.get(type.name);
      return declared?.node.kind === "type-alias"
        ? itemTypeOf(project, declared.node.type, depth + 1)
        : undefined;
    }
    default:
      return undefined;
  }
}

/** The fields a value of this type has (every class it can be; the first class wins a shared name). */
export function fieldsOf(project: BamlProject, type: ast.TypeExpression): FieldInProject[] {
  const fields = new Map<string, FieldInProject>();
  for (const owner of classesOf(project, type)) {
    for (const field of owner.node.fields)
      if (!fields.has(field.name.name)) fields.set(field.name.name, { field, owner });
  }
  return [...fields.values()];
}

/**
 * Follow `root.a.b` from the root names' types: the field each segment names, or `undefined` where a
 * segment names no field. `fields[i]` is the field named by `path[i + 1]`.
 */
export function followPath(
  project: BamlProject,
  roots: ReadonlyMap<string, ast.TypeExpression>,
  path: readonly string[],
): { type: ast.TypeExpression | undefined; fields: (FieldInProject | undefined)[] } {
  let type = path[0] === undefined ? undefined : roots.get(path[0]);
  const fields: (FieldInProject | undefined)[] = [];
  for (const segment of path.slice(1)) {
    const field = type ? fieldsOf(project, type).find((item) => item.field.name.name === segment) : undefined;
    fields.push(field);
    type = field?.field.type;
  }
  return { type, fields };
}

/**
 * The names a template can read and their types: the declaration's parameters, and the variables of
 * `{% for x in xs %}` loops written before `offset` (typed as the items of `xs`).
 */
export function templateRoots(
  project: BamlProject,
  params: readonly ast.ParameterDecl[],
  template: string,
  offset: number,
): Map<string, ast.TypeExpression> {
  const roots = new Map<string, ast.TypeExpression>();
  for (const param of params) roots.set(param.name.name, param.type);
  for (const match of template
    .slice(0, offset)
    .matchAll(/\{%-?\s*for\s+([A-Za-z_]\w*)\s+in\s+([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)/g)) {
    const source = followPath(project, roots, (match[2] ?? "").split(".")).type;
    const item = source && itemTypeOf(project, source);
    if (item) roots.set(match[1] ?? "", item);
  }
  return roots;
}

/** The dotted name ending at `offset` in `text` (`resume.work_history.com` → three segments). */
export function dottedNameBefore(text: string, offset: number): string[] | undefined {
  const match = /([A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*(?:\s*\.\s*)?)$/.exec(
    text.slice(Math.max(0, offset - 300), offset),
  );
  if (!match?.[1]) return undefined;
  return match[1].split(".").map((segment) => segment.trim());
}

/** The dotted name around `offset` (the segment under the cursor completed to its end). */
export function dottedNameAround(
  text: string,
  offset: number,
): { path: string[]; start: number; end: number } | undefined {
  let end = offset;
  while (end < text.length && /\w/.test(text[end] ?? "")) end++;
  const path = dottedNameBefore(text, end);
  if (!path || path.at(-1) === "") return undefined;
  const last = path.at(-1) ?? "";
  return { path, start: end - last.length, end };
}
