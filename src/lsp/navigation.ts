import type { ast } from "../language/index.js";
import type { BamlProject, ProjectFile } from "./baml-project.js";
import type { Occurrence, SymbolNamespace } from "./occurrences.js";

/** A place in a project: a file and a span in it. */
export interface ProjectLocation {
  file: ProjectFile;
  span: ast.Span;
}

/** Whether an offset touches a span (a cursor right after a name still points at it). */
export function touches(span: ast.Span, offset: number): boolean {
  return span.start <= offset && offset <= span.end;
}

/**
 * The top-level name at an offset: a declaration's name or a reference to one. A Jinja read counts only
 * when it names a template string that a parameter of the same name does not hide.
 */
export function symbolAt(project: BamlProject, file: ProjectFile, offset: number): Occurrence | undefined {
  for (const occurrence of project.occurrences(file)) {
    if (!touches(occurrence.span, offset)) continue;
    if (occurrence.namespace === "template-string" && !occurrence.declaration) {
      if (!project.symbols.templateStrings.has(occurrence.name)) continue;
      if (shadowedByParameter(project, file, occurrence)) continue;
    }
    return occurrence;
  }
  return undefined;
}

/** Where a name is declared. */
export function definitionOf(
  project: BamlProject,
  namespace: SymbolNamespace,
  name: string,
): ProjectLocation | undefined {
  const declared = project.declarationOf(namespace, name);
  const file = declared && project.files.get(declared.file);
  return file && declared ? { file, span: declared.node.name.span } : undefined;
}

/** Every place a name is written in the project (its declaration included when asked), file by file. */
export function referencesOf(
  project: BamlProject,
  namespace: SymbolNamespace,
  name: string,
  includeDeclaration: boolean,
): ProjectLocation[] {
  const declared = project.declarationOf(namespace, name);
  const found: ProjectLocation[] = [];
  for (const file of [...project.files.values()].sort((left, right) => (left.path < right.path ? -1 : 1))) {
    for (const occurrence of project.occurrences(file)) {
      if (occurrence.namespace !== namespace || occurrence.name !== name) continue;
      if (occurrence.declaration) {
        // A duplicate declaration is not the symbol's; only the one the symbol table kept is.
        const isTheDeclaration =
          declared?.file === file.path && declared.node.name.span.start === occurrence.span.start;
        if (!includeDeclaration || !isTheDeclaration) continue;
      } else if (namespace === "template-string" && shadowedByParameter(project, file, occurrence)) continue;
      found.push({ file, span: occurrence.span });
    }
  }
  return found.sort((left, right) =>
    left.file.path === right.file.path
      ? left.span.start - right.span.start
      : left.file.path < right.file.path
        ? -1
        : 1,
  );
}

/** The declaration whose span holds an offset. */
export function declarationAt(
  project: BamlProject,
  file: ProjectFile,
  offset: number,
): ast.Declaration | undefined {
  return project.parsed(file).file.declarations.find((declaration) => touches(declaration.span, offset));
}

function shadowedByParameter(project: BamlProject, file: ProjectFile, occurrence: Occurrence): boolean {
  const declaration = declarationAt(project, file, occurrence.span.start);
  if (declaration?.kind !== "function" && declaration?.kind !== "template-string") return false;
  return declaration.params.some((param) => param.name.name === occurrence.name);
}
