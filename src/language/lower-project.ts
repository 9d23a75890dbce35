import * as ir from "../ir/index.js";
import { computeLineStarts, offsetToLineColumn } from "../util/index.js";
import type * as ast from "./ast.js";
import { findAttribute } from "./check-attributes.js";
import type { ProjectSymbols } from "./check-context.js";
import { dedentAndTrim, textOf } from "./config-values.js";
import { lowerConfigBlock } from "./lower-config-value.js";
import { lowerConstraints, lowerType, typeAttributes, withAttributes } from "./lower-type.js";
import { projectScope } from "./project-scope.js";
import type { TypeScope } from "./resolve-type.js";

/**
 * Lower a checked project to the IR. Declarations keep source order (files in the order given); every
 * declaration carries its source location. Only call when the checker reported no errors.
 */
export function lowerProject(files: readonly ast.SourceFile[], symbols: ProjectSymbols): ir.Ir {
  const result = ir.emptyIr();
  const scope = projectScope(symbols);
  for (const file of files) {
    const locate = locator(file);
    for (const declaration of file.declarations) {
      switch (declaration.kind) {
        case "class":
          result.classes.push(lowerClass(declaration, scope, locate));
          break;
        case "enum":
          result.enums.push(lowerEnum(declaration, locate));
          break;
        case "type-alias":
          result.aliases.push(lowerAlias(declaration, scope, locate));
          break;
        case "function":
          result.functions.push(lowerFunction(declaration, scope, locate));
          break;
        case "client":
          result.clients.push(lowerClient(declaration, locate));
          break;
        case "retry-policy":
          result.retryPolicies.push(lowerRetryPolicy(declaration, locate));
          break;
        case "generator":
          result.generators.push(lowerGenerator(declaration, locate));
          break;
        case "test":
          result.tests.push(lowerTest(declaration, symbols, locate));
          break;
        case "template-string":
          result.templateStrings.push({
            name: declaration.name.name,
            params: lowerParams(declaration.params, scope),
            body: declaration.body?.value ?? "",
            source: locate(declaration.span.start),
          });
          break;
      }
    }
  }
  return result;
}

type Locate = (offset: number) => ir.SourceLocation;

function locator(file: ast.SourceFile): Locate {
  let lineStarts: number[] | undefined;
  return (offset) => {
    lineStarts ??= computeLineStarts(file.text);
    const { line, column } = offsetToLineColumn(lineStarts, offset);
    return { file: file.path, line, column };
  };
}

function stringAttribute(attributes: readonly ast.Attribute[], name: string): string | undefined {
  const argument = findAttribute(attributes, name)?.args[0];
  if (argument?.kind !== "string") return undefined;
  // Raw-string descriptions follow the surrounding indentation; strip it as BAML does.
  return argument.raw ? dedentAndTrim(argument.value) : argument.value;
}

function docs<T extends object>(target: T, node: { docs?: string }): T {
  if (node.docs !== undefined) (target as { docs?: string }).docs = node.docs;
  return target;
}

function lowerClass(declaration: ast.ClassDecl, scope: TypeScope, locate?: Locate): ir.Class {
  const fields = declaration.fields.map((field) => {
    const result: ir.Field = {
      name: field.name.name,
      type: withAttributes(lowerType(field.type, scope), typeAttributes(field.attributes)),
    };
    const alias = stringAttribute(field.attributes, "alias");
    const description = stringAttribute(field.attributes, "description");
    if (alias !== undefined) result.alias = alias;
    if (description !== undefined) result.description = description;
    if (findAttribute(field.attributes, "skip")) result.skip = true;
    return docs(result, field);
  });
  const result: ir.Class = {
    name: declaration.name.name,
    fields,
    dynamic: findAttribute(declaration.attributes, "dynamic") !== undefined,
    constraints: lowerConstraints(declaration.attributes),
  };
  const alias = stringAttribute(declaration.attributes, "alias");
  const description = stringAttribute(declaration.attributes, "description");
  if (alias !== undefined) result.alias = alias;
  if (description !== undefined) result.description = description;
  if (findAttribute(declaration.attributes, "stream.done")) result.streamDone = true;
  docs(result, declaration);
  if (locate) result.source = locate(declaration.span.start);
  return result;
}

function lowerEnum(declaration: ast.EnumDecl, locate?: Locate): ir.Enum {
  const values = declaration.values.map((value) => {
    const result: ir.EnumValue = { name: value.name.name };
    const alias = stringAttribute(value.attributes, "alias");
    const description = stringAttribute(value.attributes, "description");
    if (alias !== undefined) result.alias = alias;
    if (description !== undefined) result.description = description;
    if (findAttribute(value.attributes, "skip")) result.skip = true;
    return docs(result, value);
  });
  const result: ir.Enum = {
    name: declaration.name.name,
    values,
    dynamic: findAttribute(declaration.attributes, "dynamic") !== undefined,
    constraints: lowerConstraints(declaration.attributes),
  };
  const alias = stringAttribute(declaration.attributes, "alias");
  const description = stringAttribute(declaration.attributes, "description");
  if (alias !== undefined) result.alias = alias;
  if (description !== undefined) result.description = description;
  docs(result, declaration);
  if (locate) result.source = locate(declaration.span.start);
  return result;
}

function lowerAlias(declaration: ast.TypeAliasDecl, scope: TypeScope, locate?: Locate): ir.TypeAlias {
  const result: ir.TypeAlias = { name: declaration.name.name, type: lowerType(declaration.type, scope) };
  docs(result, declaration);
  if (locate) result.source = locate(declaration.span.start);
  return result;
}

function lowerParams(params: readonly ast.ParameterDecl[], scope: TypeScope): ir.Parameter[] {
  return params.map((param) => ({ name: param.name.name, type: lowerType(param.type, scope) }));
}

function lowerFunction(declaration: ast.FunctionDecl, scope: TypeScope, locate: Locate): ir.LlmFunction {
  const client = declaration.body.entries.find((entry) => entry.key.name === "client");
  const prompt = declaration.body.entries.find((entry) => entry.key.name === "prompt")?.value;
  const result: ir.LlmFunction = {
    name: declaration.name.name,
    params: lowerParams(declaration.params, scope),
    returnType: lowerType(declaration.returnType, scope),
    client: (client && textOf(client.value)) ?? "",
    prompt: prompt?.kind === "raw-string" || prompt?.kind === "string" ? prompt.value : "",
  };
  if (prompt?.kind === "raw-string") result.promptSource = locate(prompt.contentStart);
  else if (prompt?.kind === "string") result.promptSource = locate(prompt.span.start + 1);
  docs(result, declaration);
  result.source = locate(declaration.span.start);
  return result;
}

function lowerClient(declaration: ast.ClientDecl, locate: Locate): ir.Client {
  const entries = lowerConfigBlock(declaration.body);
  const provider = entries.provider;
  const retryPolicy = entries.retry_policy;
  const options = entries.options;
  return {
    name: declaration.name.name,
    provider: provider?.kind === "string" ? provider.value : "",
    ...(retryPolicy?.kind === "string" ? { retryPolicy: retryPolicy.value } : {}),
    options: options?.kind === "map" ? options.entries : {},
    source: locate(declaration.span.start),
  };
}

function lowerRetryPolicy(declaration: ast.RetryPolicyDecl, locate: Locate): ir.RetryPolicy {
  const entries = lowerConfigBlock(declaration.body);
  const number = (value: ir.ConfigValue | undefined, fallback: number): number =>
    value?.kind === "number" ? value.value : fallback;
  const strategy = entries.strategy?.kind === "map" ? entries.strategy.entries : {};
  const type = strategy.type?.kind === "string" ? strategy.type.value : "constant_delay";
  return {
    name: declaration.name.name,
    maxRetries: number(entries.max_retries, 0),
    strategy:
      type === "exponential_backoff"
        ? {
            type: "exponential_backoff",
            delayMs: number(strategy.delay_ms, 200),
            multiplier: number(strategy.multiplier, 1.5),
            maxDelayMs: number(strategy.max_delay_ms, 10000),
          }
        : { type: "constant_delay", delayMs: number(strategy.delay_ms, 200) },
    source: locate(declaration.span.start),
  };
}

function lowerGenerator(declaration: ast.GeneratorDecl, locate: Locate): ir.Generator {
  const options = lowerConfigBlock(declaration.body);
  const text = (key: string): string | undefined => {
    const value = options[key];
    return value?.kind === "string" ? value.value : undefined;
  };
  const result: ir.Generator = {
    name: declaration.name.name,
    outputType: text("output_type") ?? "typescript",
    outputDir: text("output_dir") ?? "../",
    options,
    source: locate(declaration.span.start),
  };
  const version = text("version");
  const moduleFormat = text("module_format");
  const defaultClientMode = text("default_client_mode");
  const onGenerate = text("on_generate");
  if (version !== undefined) result.version = version;
  if (moduleFormat === "esm" || moduleFormat === "cjs") result.moduleFormat = moduleFormat;
  if (defaultClientMode === "async" || defaultClientMode === "sync")
    result.defaultClientMode = defaultClientMode;
  if (onGenerate !== undefined) result.onGenerate = onGenerate;
  return result;
}

function lowerTest(declaration: ast.TestDecl, symbols: ProjectSymbols, locate: Locate): ir.Test {
  const entries = lowerConfigBlock(declaration.body);
  const functions = entries.functions;
  const args = entries.args;
  const result: ir.Test = {
    name: declaration.name.name,
    functions:
      functions?.kind === "array"
        ? functions.items.flatMap((item) => (item.kind === "string" ? [item.value] : []))
        : [],
    args: args?.kind === "map" ? args.entries : {},
    constraints: lowerConstraints(declaration.body.attributes),
    source: locate(declaration.span.start),
  };
  const builder = declaration.body.typeBuilder;
  if (builder) result.typeBuilder = lowerTypeBuilder(builder, symbols);
  return result;
}

function lowerTypeBuilder(builder: ast.TypeBuilderBlock, symbols: ProjectSymbols): ir.TestTypeBuilder {
  const local = new Map<string, ast.TypeDeclaration>();
  for (const declaration of builder.declarations) {
    if (declaration.kind === "type-alias" || !declaration.dynamic)
      local.set(declaration.name.name, declaration);
  }
  const scope = projectScope(symbols, local);
  const result: ir.TestTypeBuilder = {
    classes: [],
    enums: [],
    aliases: [],
    dynamicClasses: [],
    dynamicEnums: [],
  };
  for (const declaration of builder.declarations) {
    if (declaration.kind === "class") {
      (declaration.dynamic ? result.dynamicClasses : result.classes).push(lowerClass(declaration, scope));
    } else if (declaration.kind === "enum") {
      (declaration.dynamic ? result.dynamicEnums : result.enums).push(lowerEnum(declaration));
    } else {
      result.aliases.push(lowerAlias(declaration, scope));
    }
  }
  return result;
}
