import type * as ir from "../ir/index.js";
import type * as ast from "./ast.js";
import type { ProjectSymbols } from "./check-context.js";
import { builderTypes } from "./check-type-builder.js";
import { projectExistingTypes } from "./existing-types.js";
import { lowerConfigBlock } from "./lower-config-value.js";
import { lowerConstraints } from "./lower-type.js";
import { lowerTypeBuilder } from "./lower-type-builder.js";
import type { Locate } from "./lower-type-declarations.js";
import { projectScope } from "./project-scope.js";

/** A client: provider, retry policy and options as written (`env.NAME` stays a reference). */
export function lowerClient(declaration: ast.ClientDecl, locate: Locate): ir.Client {
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

/** A retry policy with BAML's defaults (constant 200 ms; exponential 200 ms × 1.5 up to 10 s). */
export function lowerRetryPolicy(declaration: ast.RetryPolicyDecl, locate: Locate): ir.RetryPolicy {
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

/** A generator: the known fields, plus every entry as written. */
export function lowerGenerator(declaration: ast.GeneratorDecl, locate: Locate): ir.Generator {
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
  const importExtension = text("import_extension");
  const onGenerate = text("on_generate");
  if (version !== undefined) result.version = version;
  if (moduleFormat === "esm" || moduleFormat === "cjs") result.moduleFormat = moduleFormat;
  if (defaultClientMode === "async" || defaultClientMode === "sync")
    result.defaultClientMode = defaultClientMode;
  if (onGenerate !== undefined) result.onGenerate = onGenerate;
  if (importExtension === "js" || importExtension === "ts") result.importExtension = importExtension;
  return result;
}

/** A test: functions, arguments, constraints and its type_builder. */
export function lowerTest(declaration: ast.TestDecl, symbols: ProjectSymbols, locate: Locate): ir.Test {
  const entries = lowerConfigBlock(declaration.body);
  const functions = entries.functions;
  // A repeated argument keeps its last value, as BAML does (the checker warned).
  const args = declaration.body.entries.find((entry) => entry.key.name === "args")?.value;
  const result: ir.Test = {
    name: declaration.name.name,
    functions:
      functions?.kind === "array"
        ? functions.items.flatMap((item) =>
            // Unknown and expression functions are skipped (the checker warned): the test runs the others.
            item.kind === "string" && symbols.functions.has(item.value) ? [item.value] : [],
          )
        : [],
    args: args?.kind === "map" ? lowerConfigBlock(args.block, "last-wins") : {},
    constraints: lowerConstraints(declaration.body.attributes),
    source: locate(declaration.span.start),
  };
  const builder = declaration.body.typeBuilder;
  if (builder) {
    const scope = projectScope(symbols, builderTypes(builder));
    result.typeBuilder = lowerTypeBuilder(builder, projectExistingTypes(symbols), scope);
  }
  return result;
}
