import type { ast } from "../language/index.js";
import type { BamlProject, ProjectFile } from "./baml-project.js";
import { type ProjectLocation, referencesOf, symbolAt } from "./navigation.js";
import type { SymbolNamespace } from "./occurrences.js";

/** What can be renamed at an offset: a declared top-level name, with the span of the name under the cursor. */
export function renameTarget(
  project: BamlProject,
  file: ProjectFile,
  offset: number,
): { namespace: SymbolNamespace; name: string; span: ast.Span } | { error: string } {
  const symbol = symbolAt(project, file, offset);
  if (!symbol)
    return {
      error:
        "Only classes, enums, type aliases, functions, clients, retry policies and template strings can be renamed.",
    };
  if (!project.declarationOf(symbol.namespace, symbol.name))
    return { error: `${symbol.name} is not declared in this project, so there is nothing to rename.` };
  return symbol;
}

/**
 * Every edit that renames a declaration: the declaration and each use, across the project's files.
 * Refused (an error message) for a name that is not an identifier or that the namespace already has.
 */
export function renameEdits(
  project: BamlProject,
  file: ProjectFile,
  offset: number,
  newName: string,
): ProjectLocation[] | { error: string } {
  const target = renameTarget(project, file, offset);
  if ("error" in target) return target;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(newName))
    return { error: `"${newName}" is not a valid name: use letters, digits and _, starting with a letter.` };
  if (newName !== target.name && project.declarationOf(target.namespace, newName))
    return { error: `The project already declares ${newName}; pick another name.` };
  return referencesOf(project, target.namespace, target.name, true);
}
