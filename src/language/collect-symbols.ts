import type { Declaration, SourceFile } from "./ast.js";
import type { CheckContext, Located, ProjectSymbols } from "./check-context.js";
import { builtinTypeNames } from "./resolve-type.js";

/** An empty symbol table. */
export function emptySymbols(): ProjectSymbols {
  return {
    types: new Map(),
    functions: new Map(),
    clients: new Map(),
    retryPolicies: new Map(),
    templateStrings: new Map(),
    generators: new Map(),
    tests: new Map(),
  };
}

const kindNames: Record<Declaration["kind"], string> = {
  class: "type",
  enum: "type",
  "type-alias": "type",
  function: "function",
  client: "client",
  "retry-policy": "retry policy",
  generator: "generator",
  test: "test",
  "template-string": "template string",
};

/**
 * Fill the symbol table from every file, reporting duplicate names (with a note pointing at the first
 * declaration) and declarations that shadow built-in type names.
 */
export function collectSymbols(files: readonly SourceFile[], context: CheckContext): void {
  const symbols = context.symbols;
  for (const file of files) {
    for (const node of file.declarations) {
      if (node.name.name === "") continue;
      const table = tableFor(symbols, node);
      const existing = table.get(node.name.name);
      if (existing) {
        context.report(
          "duplicate-declaration",
          { name: node.name.name, kind: kindNames[node.kind] },
          file.path,
          node.name.span,
          [{ message: "first declared here", file: existing.file, span: existing.node.name.span }],
        );
        continue;
      }
      if (
        (node.kind === "class" || node.kind === "enum" || node.kind === "type-alias") &&
        builtinTypeNames.has(node.name.name)
      ) {
        context.report("reserved-name", { name: node.name.name }, file.path, node.name.span);
        continue;
      }
      table.set(node.name.name, { node, file: file.path });
    }
  }
}

function tableFor(symbols: ProjectSymbols, node: Declaration): Map<string, Located<Declaration>> {
  switch (node.kind) {
    case "class":
    case "enum":
    case "type-alias":
      return symbols.types as Map<string, Located<Declaration>>;
    case "function":
      return symbols.functions as Map<string, Located<Declaration>>;
    case "client":
      return symbols.clients as Map<string, Located<Declaration>>;
    case "retry-policy":
      return symbols.retryPolicies as Map<string, Located<Declaration>>;
    case "generator":
      return symbols.generators as Map<string, Located<Declaration>>;
    case "test":
      return symbols.tests as Map<string, Located<Declaration>>;
    case "template-string":
      return symbols.templateStrings as Map<string, Located<Declaration>>;
  }
}
