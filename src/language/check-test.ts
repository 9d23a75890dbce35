import { suggestName } from "../diagnostics/index.js";
import type { TestDecl, TypeBuilderBlock, TypeDeclaration } from "./ast.js";
import { checkArgumentValue } from "./check-argument-value.js";
import { checkAttributes } from "./check-attributes.js";
import { type ProjectSymbols, suggestion } from "./check-context.js";
import { checkMediaArgument } from "./check-media-argument.js";
import { checkTypeDeclaration, isOptional } from "./check-type-declarations.js";
import { entriesByKey, reportInvalidValue, textOf } from "./config-values.js";
import { projectScope } from "./project-scope.js";
import type { Reporter } from "./reporter.js";
import { resolveDynamicKind } from "./resolve-dynamic-kind.js";

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
  const functionNames: string[] = [];
  const functionsEntry = entries.get("functions");
  if (functionsEntry) {
    if (functionsEntry.value.kind !== "array")
      reportInvalidValue(functionsEntry, "a list of function names", report);
    else {
      for (const item of functionsEntry.value.items) {
        const name = textOf(item);
        if (name === undefined) continue;
        if (symbols.functions.has(name)) functionNames.push(name);
        else
          report(
            "unknown-function",
            { name, ...suggestion(suggestName(name, symbols.functions.keys())) },
            item.span,
          );
      }
    }
  }
  if (!functionsEntry || (functionsEntry.value.kind === "array" && functionsEntry.value.items.length === 0)) {
    report("missing-test-functions", { name: declaration.name.name }, declaration.name.span);
  }
  const argsEntry = entries.get("args");
  let argumentNames = new Set<string>();
  if (argsEntry) {
    if (argsEntry.value.kind !== "map")
      reportInvalidValue(argsEntry, "a map of arguments { name value }", report);
    else {
      const args = entriesByKey(argsEntry.value.block, report);
      argumentNames = new Set(args.keys());
      const mediaChecked = new Set<string>();
      for (const functionName of functionNames) {
        const params = symbols.functions.get(functionName)?.node.params ?? [];
        const paramNames = params.map((param) => param.name.name);
        for (const arg of args.values()) {
          const param = params.find((candidate) => candidate.name.name === arg.key.name);
          // Several functions may share a parameter; check its value once.
          if (param && !mediaChecked.has(arg.key.name)) {
            mediaChecked.add(arg.key.name);
            checkMediaArgument(param, arg.value, report);
            checkArgumentValue(arg.key.name, param.type, arg.value, symbols, report);
          }
          if (!param) {
            report(
              "unknown-test-argument",
              { name: arg.key.name, functionName, ...suggestion(suggestName(arg.key.name, paramNames)) },
              arg.key.span,
            );
          }
        }
      }
    }
  }
  const scope = projectScope(symbols, builderTypes(body.typeBuilder));
  for (const functionName of functionNames) {
    for (const param of symbols.functions.get(functionName)?.node.params ?? []) {
      if (!argumentNames.has(param.name.name) && !isOptional(param.type, scope)) {
        report("missing-test-argument", { name: param.name.name, functionName }, declaration.name.span);
      }
    }
  }
  if (body.typeBuilder) checkTypeBuilder(body.typeBuilder, symbols, report);
}

/** New (non-dynamic) declarations of a type_builder, by name. */
function builderTypes(builder: TypeBuilderBlock | undefined): Map<string, TypeDeclaration> {
  const types = new Map<string, TypeDeclaration>();
  for (const declaration of builder?.declarations ?? []) {
    if ((declaration.kind === "type-alias" || !declaration.dynamic) && !types.has(declaration.name.name)) {
      types.set(declaration.name.name, declaration);
    }
  }
  return types;
}

function checkTypeBuilder(builder: TypeBuilderBlock, symbols: ProjectSymbols, report: Reporter): void {
  const local = builderTypes(builder);
  const scope = projectScope(symbols, local);
  const seen = new Map<string, TypeDeclaration>();
  for (const written of builder.declarations) {
    const declaration = written.kind === "type-alias" ? written : resolveDynamicKind(written, symbols);
    const name = declaration.name.name;
    const dynamic = declaration.kind !== "type-alias" && declaration.dynamic;
    const key = `${dynamic ? "dynamic " : ""}${name}`;
    const first = seen.get(key);
    if (first) {
      report("duplicate-declaration", { name, kind: "type" }, declaration.name.span, [
        { message: "first declared here", span: first.name.span },
      ]);
    }
    seen.set(key, declaration);
    if (dynamic) {
      const target = symbols.types.get(name)?.node;
      if (target && target.kind !== "type-alias" && target.kind !== declaration.kind) {
        const [targetKind, adds] =
          target.kind === "class" ? ["a class", "enum values"] : ["an enum", "class fields"];
        report("dynamic-kind-mismatch", { name, target: targetKind, adds }, declaration.name.span);
      } else if (!target || target.kind !== declaration.kind) {
        const candidates = [...symbols.types.values()]
          .filter((type) => type.node.kind === declaration.kind)
          .map((type) => type.node.name.name);
        report("unknown-type", { name, ...suggestion(suggestName(name, candidates)) }, declaration.name.span);
      } else if (!target.attributes.some((attribute) => attribute.block && attribute.name === "dynamic")) {
        report(
          "not-dynamic",
          { name, kind: declaration.kind === "class" ? "Class" : "Enum" },
          declaration.name.span,
        );
      }
    } else {
      const existing = symbols.types.get(name);
      if (existing) {
        report("duplicate-declaration", { name, kind: "type" }, declaration.name.span, [
          {
            message: "already declared in the project; extend it with `dynamic` instead",
            file: existing.file,
            span: existing.node.name.span,
          },
        ]);
      }
    }
    checkTypeDeclaration(declaration, scope, report, true);
  }
}
