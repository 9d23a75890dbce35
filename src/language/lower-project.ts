import * as ir from "../ir/index.js";
import { computeLineStarts, offsetToLineColumn } from "../util/index.js";
import { applyBlockStreamAttributes, blockStreamAttributes } from "./apply-block-stream-attributes.js";
import type * as ast from "./ast.js";
import type { ProjectSymbols } from "./check-context.js";
import { textOf } from "./config-values.js";
import { lowerClient, lowerGenerator, lowerRetryPolicy, lowerTest } from "./lower-config-declarations.js";
import { lowerType } from "./lower-type.js";
import { docs, type Locate, lowerAlias, lowerClass, lowerEnum } from "./lower-type-declarations.js";
import { projectScope } from "./project-scope.js";
import type { TypeScope } from "./resolve-type.js";

/**
 * Lower a checked project to the IR. Declarations keep source order (files in the order given); every
 * declaration carries its source location. Only call when the checker reported no errors.
 */
export function lowerProject(files: readonly ast.SourceFile[], symbols: ProjectSymbols): ir.Ir {
  const result = ir.emptyIr();
  const scope = projectScope(symbols);
  const streamAttributes = new Map<string, ir.TypeAttributes>();
  for (const file of files) {
    const locate = locator(file);
    for (const declaration of file.declarations) {
      switch (declaration.kind) {
        case "class":
        case "enum": {
          const attributes = blockStreamAttributes(declaration);
          if (attributes) streamAttributes.set(declaration.name.name, attributes);
          if (declaration.kind === "class") result.classes.push(lowerClass(declaration, scope, locate));
          else result.enums.push(lowerEnum(declaration, locate));
          break;
        }
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
  applyBlockStreamAttributes(result, streamAttributes);
  return result;
}

function locator(file: ast.SourceFile): Locate {
  let lineStarts: number[] | undefined;
  return (offset) => {
    lineStarts ??= computeLineStarts(file.text);
    const { line, column } = offsetToLineColumn(lineStarts, offset);
    return { file: file.path, line, column };
  };
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
