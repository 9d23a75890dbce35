import { suggestName } from "../diagnostics/index.js";
import type { ConfigEntry, TestDecl } from "./ast.js";
import { checkArgumentValue } from "./check-argument-value.js";
import { checkAttributes } from "./check-attributes.js";
import { type ProjectSymbols, suggestion } from "./check-context.js";
import { checkMediaArgument } from "./check-media-argument.js";
import { builderTypes, checkTypeBuilder } from "./check-type-builder.js";
import { isOptional } from "./check-type-declarations.js";
import { entriesByKey, reportInvalidValue, textOf } from "./config-values.js";
import { projectExistingTypes } from "./existing-types.js";
import { projectScope } from "./project-scope.js";
import type { Reporter } from "./reporter.js";

const testProperties = ["functions", "args", "type_builder"];

/**
 * Check a test: it names known functions, its arguments are parameters of each of them (a missing
 * required one is a warning: the test would fail when run), its constraints are well formed, and its
 * type_builder only adds new types or extends `@@dynamic` ones.
 */
export function checkTest(declaration: TestDecl, symbols: ProjectSymbols, report: Reporter): void {
  const body = declaration.body;
  checkAttributes(body.attributes, "test", report);
  const entries = entriesByKey(body, report);
  for (const entry of entries.values()) {
    if (!testProperties.includes(entry.key.name)) {
      report(
        "unknown-test-property",
        { name: entry.key.name, ...suggestion(suggestName(entry.key.name, testProperties)) },
        entry.key.span,
      );
    }
  }
  const functionsEntry = entries.get("functions");
  const functionNames = functionsEntry
    ? testFunctions(declaration.name.name, functionsEntry, symbols, report)
    : [];
  if (!functionsEntry || (functionsEntry.value.kind === "array" && functionsEntry.value.items.length === 0)) {
    report("missing-test-functions", { name: declaration.name.name }, declaration.name.span);
  }
  const argsEntry = entries.get("args");
  const argumentNames = argsEntry
    ? checkArguments(argsEntry, functionNames, symbols, report)
    : new Set<string>();
  const scope = projectScope(symbols, builderTypes(body.typeBuilder));
  for (const functionName of functionNames) {
    for (const param of symbols.functions.get(functionName)?.node.params ?? []) {
      if (!argumentNames.has(param.name.name) && !isOptional(param.type, scope)) {
        report("missing-test-argument", { name: param.name.name, functionName }, declaration.name.span);
      }
    }
  }
  if (body.typeBuilder) checkTypeBuilder(body.typeBuilder, projectExistingTypes(symbols), scope, report);
}

/**
 * The known functions a test names. Unknown names and expression functions are warned of and skipped, as
 * BAML only warns of an unknown one (a test is not worth refusing a project for).
 */
function testFunctions(
  testName: string,
  entry: ConfigEntry,
  symbols: ProjectSymbols,
  report: Reporter,
): string[] {
  if (entry.value.kind !== "array") {
    reportInvalidValue(entry, "a list of function names", report);
    return [];
  }
  const names: string[] = [];
  for (const item of entry.value.items) {
    const name = textOf(item);
    if (name === undefined) continue;
    if (symbols.functions.has(name)) names.push(name);
    else if (symbols.expressionFunctions.has(name))
      report("test-skips-expression-function", { name: testName, functionName: name }, item.span);
    else
      report(
        "test-unknown-function",
        { name: testName, functionName: name, ...suggestion(suggestName(name, symbols.functions.keys())) },
        item.span,
      );
  }
  return names;
}

/**
 * Each argument must be a parameter of every function the test names; its value must fit the
 * parameter's type (media forms included). Returns the names of the arguments given.
 */
function checkArguments(
  entry: ConfigEntry,
  functionNames: readonly string[],
  symbols: ProjectSymbols,
  report: Reporter,
): Set<string> {
  if (entry.value.kind !== "map") {
    reportInvalidValue(entry, "a map of arguments { name value }", report);
    return new Set();
  }
  const args = entriesByKey(entry.value.block, report, "last-wins");
  const valueChecked = new Set<string>();
  for (const functionName of functionNames) {
    const params = symbols.functions.get(functionName)?.node.params ?? [];
    for (const arg of args.values()) {
      const param = params.find((candidate) => candidate.name.name === arg.key.name);
      if (!param) {
        const names = params.map((item) => item.name.name);
        report(
          "unknown-test-argument",
          { name: arg.key.name, functionName, ...suggestion(suggestName(arg.key.name, names)) },
          arg.key.span,
        );
      } else if (!valueChecked.has(arg.key.name)) {
        // Several functions may share a parameter; check its value once.
        valueChecked.add(arg.key.name);
        checkMediaArgument(param, arg.value, report);
        const call = arg.value.kind === "unquoted" ? /^([A-Za-z_]\w*)\s*\(/.exec(arg.value.value) : null;
        if (call?.[1] !== undefined && symbols.templateStrings.has(call[1])) {
          report("template-string-test-argument", { name: arg.key.name, template: call[1] }, arg.value.span);
        }
        checkArgumentValue(arg.key.name, param.type, arg.value, symbols, report);
      }
    }
  }
  return new Set(args.keys());
}
