import type { Declaration, SourceFile, TestDecl } from "./ast.js";
import type { CheckContext, Located, ProjectSymbols } from "./check-context.js";
import { textOf } from "./config-values.js";
import { reservedTypeNames, startsUppercase } from "./reserved-names.js";
import { builtinTypeNames } from "./resolve-type.js";

/** An empty symbol table. */
export function emptySymbols(): ProjectSymbols {
  return {
    types: new Map(),
    functions: new Map(),
    expressionFunctions: new Map(),
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
  "expression-function": "function",
  client: "client",
  "retry-policy": "retry policy",
  generator: "generator",
  test: "test",
  "template-string": "template string",
};

/** Declarations whose names BAML requires to start with an uppercase letter, and what to call them. */
const uppercaseKinds: Partial<Record<Declaration["kind"], string>> = {
  class: "class",
  enum: "enum",
  "type-alias": "type alias",
  function: "function",
  client: "client",
};

/**
 * Fill the symbol table from every file, reporting duplicate names (with a note pointing at the first
 * declaration) and declarations that shadow built-in type names.
 */
export function collectSymbols(files: readonly SourceFile[], context: CheckContext): void {
  const symbols = context.symbols;
  const testsByName = new Map<string, Located<TestDecl>[]>();
  for (const file of files) {
    for (const node of file.declarations) {
      if (node.name.name === "") continue;
      const table = tableFor(symbols, node);
      const existing =
        table.get(node.name.name) ??
        (node.kind === "function" || node.kind === "expression-function"
          ? (symbols.functions.get(node.name.name) ?? symbols.expressionFunctions.get(node.name.name))
          : undefined);
      if (node.kind === "test") {
        // BAML keys tests by name and function: the same name may test different functions.
        const earlier = testsByName.get(node.name.name) ?? [];
        reportSharedTestFunctions(node, earlier, file.path, context);
        testsByName.set(node.name.name, [...earlier, { node, file: file.path }]);
        if (existing) continue;
      }
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
        (builtinTypeNames.has(node.name.name) || reservedTypeNames.has(node.name.name))
      ) {
        context.report("reserved-name", { name: node.name.name }, file.path, node.name.span);
        continue;
      }
      const kind = uppercaseKinds[node.kind];
      if (kind !== undefined && !startsUppercase(node.name.name)) {
        context.report("lowercase-name", { name: node.name.name, kind }, file.path, node.name.span);
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
    case "expression-function":
      return symbols.expressionFunctions as Map<string, Located<Declaration>>;
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

/** Two tests of one name may not test the same function (BAML: "already defined for function"). */
function reportSharedTestFunctions(
  node: TestDecl,
  earlier: readonly Located<TestDecl>[],
  file: string,
  context: CheckContext,
): void {
  const names = testedFunctions(node);
  for (const first of earlier) {
    const tested = new Set(testedFunctions(first.node));
    const shared = names.find((name) => tested.has(name));
    if (shared === undefined) continue;
    context.report("duplicate-test", { name: node.name.name, functionName: shared }, file, node.name.span, [
      { message: "first declared here", file: first.file, span: first.node.name.span },
    ]);
    return;
  }
}

function testedFunctions(node: TestDecl): string[] {
  const entry = node.body.entries.find((candidate) => candidate.key.name === "functions");
  if (entry?.value.kind !== "array") return [];
  return entry.value.items.flatMap((item) => {
    const name = textOf(item);
    return name === undefined ? [] : [name];
  });
}
