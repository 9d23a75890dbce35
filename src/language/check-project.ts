import type { Diagnostic } from "../diagnostics/index.js";
import type { SourceFile } from "./ast.js";
import { checkClient, checkStrategyCycles } from "./check-client.js";
import { CheckContext, type ProjectSymbols } from "./check-context.js";
import { checkCycles } from "./check-cycles.js";
import { checkFunction, checkTemplateString } from "./check-function.js";
import { checkGenerator } from "./check-generator.js";
import { checkRetryPolicy } from "./check-retry-policy.js";
import { checkTest } from "./check-test.js";
import { checkTypeDeclaration } from "./check-type-declarations.js";
import { collectSymbols, emptySymbols } from "./collect-symbols.js";
import { projectScope } from "./project-scope.js";

/** Resolve names and validate every declaration of a parsed project. */
export function checkProject(files: readonly SourceFile[]): {
  symbols: ProjectSymbols;
  diagnostics: Diagnostic[];
} {
  const context = new CheckContext(emptySymbols());
  collectSymbols(files, context);
  for (const file of files) checkDeclarations(file, context.symbols, context);
  checkProjectCycles(context.symbols, context);
  return { symbols: context.symbols, diagnostics: context.diagnostics };
}

/**
 * Check one file's declarations against the symbol table (which the incremental checker hands in
 * through maps that record what was read); diagnostics go to `context`.
 */
export function checkDeclarations(file: SourceFile, symbols: ProjectSymbols, context: CheckContext): void {
  const scope = projectScope(symbols);
  const report = context.reporterFor(file.path);
  for (const declaration of file.declarations) {
    switch (declaration.kind) {
      case "class":
      case "enum":
      case "type-alias":
        checkTypeDeclaration(declaration, scope, report);
        break;
      case "function":
        checkFunction(declaration, symbols, scope, report);
        break;
      case "client":
        checkClient(declaration, symbols, report);
        break;
      case "retry-policy":
        checkRetryPolicy(declaration, report);
        break;
      case "generator":
        checkGenerator(declaration, report);
        break;
      case "test":
        checkTest(declaration, symbols, report);
        break;
      case "template-string":
        checkTemplateString(declaration, symbols, scope, report);
        break;
    }
  }
}

/** The checks that look at the whole project at once: alias, class and strategy cycles. */
export function checkProjectCycles(symbols: ProjectSymbols, context: CheckContext): void {
  const reportIn = (file: string) => context.reporterFor(file);
  checkCycles(symbols, reportIn);
  checkStrategyCycles(symbols, reportIn);
}
