import type { CodeLens } from "vscode-languageserver";
import type { BamlProject, ProjectFile } from "./baml-project.js";
import { entry } from "./occurrences.js";

/** The command a code lens runs; it returns the rendered prompt as text. */
export const renderTestPromptCommand = "sapling.renderTestPrompt";

/**
 * "Render prompt" lenses: over each test, one per function it tests; over each function, one per test of
 * it (in any file). Arguments: the file URI, the test name, the function name.
 */
export function codeLenses(project: BamlProject, file: ProjectFile): CodeLens[] {
  const lenses: CodeLens[] = [];
  const at = (offset: number) => {
    const position = file.document.positionAt(offset);
    return { start: position, end: position };
  };
  const testsOf = new Map<string, string[]>();
  for (const [name, test] of project.symbols.tests) {
    for (const functionName of testedFunctions(test.node.body))
      testsOf.set(functionName, [...(testsOf.get(functionName) ?? []), name]);
  }
  for (const declaration of project.parsed(file).file.declarations) {
    if (declaration.kind === "test") {
      for (const functionName of testedFunctions(declaration.body)) {
        lenses.push({
          range: at(declaration.span.start),
          command: {
            title: `Render prompt: ${functionName}`,
            command: renderTestPromptCommand,
            arguments: [file.uri, declaration.name.name, functionName],
          },
        });
      }
    } else if (declaration.kind === "function") {
      for (const testName of testsOf.get(declaration.name.name) ?? []) {
        lenses.push({
          range: at(declaration.span.start),
          command: {
            title: `Render prompt: ${testName}`,
            command: renderTestPromptCommand,
            arguments: [file.uri, testName, declaration.name.name],
          },
        });
      }
    }
  }
  return lenses;
}

function testedFunctions(body: Parameters<typeof entry>[0]): string[] {
  const functions = entry(body, "functions")?.value;
  if (functions?.kind !== "array") return [];
  return functions.items.flatMap((item) =>
    item.kind === "unquoted" || item.kind === "string" ? [item.value] : [],
  );
}
