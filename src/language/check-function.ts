import { suggestName } from "../diagnostics/index.js";
import type { FunctionDecl, ParameterDecl, TemplateStringDecl } from "./ast.js";
import { checkAttributes } from "./check-attributes.js";
import { type ProjectSymbols, suggestion } from "./check-context.js";
import { checkPromptVariables } from "./check-prompt-variables.js";
import { checkTypeExpression } from "./check-type-expression.js";
import { entriesByKey, reportInvalidValue, textOf } from "./config-values.js";
import { findMediaInType } from "./find-media.js";
import { isKnownProvider, knownProviders } from "./providers.js";
import type { Reporter } from "./reporter.js";
import type { TypeScope } from "./resolve-type.js";

/** Check a function: parameters, return type (no media), client reference and prompt. */
export function checkFunction(
  declaration: FunctionDecl,
  symbols: ProjectSymbols,
  scope: TypeScope,
  report: Reporter,
): void {
  checkParameters(declaration.params, declaration.name.name, scope, report);
  checkTypeExpression(declaration.returnType, scope, report, "return-type");
  const media = findMediaInType(declaration.returnType, symbols);
  if (media) report("media-in-output", media, declaration.returnType.span);
  checkAttributes(declaration.body.attributes, "config", report);
  const entries = entriesByKey(declaration.body, report);
  for (const entry of entries.values()) {
    if (entry.key.name === "client") {
      const client = textOf(entry.value);
      if (client === undefined || entry.value.kind === "raw-string") {
        reportInvalidValue(entry, 'a client name or "provider/model"', report);
      } else {
        checkClientReference(client, entry.value.span, symbols, report);
      }
    } else if (entry.key.name === "prompt") {
      if (entry.value.kind !== "raw-string" && entry.value.kind !== "string") {
        reportInvalidValue(entry, 'a prompt string (#"…"#)', report);
      }
    } else {
      report(
        "unknown-function-property",
        { name: entry.key.name, ...suggestion(suggestName(entry.key.name, ["client", "prompt"])) },
        entry.key.span,
      );
    }
  }
  checkPromptVariables(
    declaration.name.name,
    declaration.params,
    entries.get("prompt")?.value,
    symbols,
    report,
  );
  if (!entries.has("client"))
    report("missing-function-client", { name: declaration.name.name }, declaration.name.span);
  if (!entries.has("prompt"))
    report("missing-prompt", { name: declaration.name.name }, declaration.name.span);
}

/** A client name, or the `provider/model` shorthand whose provider must be known. */
export function checkClientReference(
  name: string,
  span: { start: number; end: number },
  symbols: ProjectSymbols,
  report: Reporter,
): void {
  const slash = name.indexOf("/");
  if (slash > 0) {
    const provider = name.slice(0, slash);
    if (!isKnownProvider(provider)) {
      report(
        "unknown-provider",
        { name: provider, ...suggestion(suggestName(provider, knownProviders)) },
        { start: span.start, end: span.end },
      );
    }
    return;
  }
  if (symbols.clients.has(name)) return;
  report("unknown-client", { name, ...suggestion(suggestName(name, symbols.clients.keys())) }, span);
}

/** Parameter names are unique and their types resolve. */
export function checkParameters(
  params: readonly ParameterDecl[],
  owner: string,
  scope: TypeScope,
  report: Reporter,
): void {
  const seen = new Map<string, ParameterDecl>();
  for (const param of params) {
    const first = seen.get(param.name.name);
    if (first) {
      report("duplicate-parameter", { name: param.name.name, owner }, param.name.span, [
        { message: "first declared here", span: first.name.span },
      ]);
    } else {
      seen.set(param.name.name, param);
    }
    checkTypeExpression(param.type, scope, report);
    if (param.attributes) checkAttributes(param.attributes, "parameter", report);
  }
}

/** Template strings: parameters, and the names the body reads. */
export function checkTemplateString(
  declaration: TemplateStringDecl,
  symbols: ProjectSymbols,
  scope: TypeScope,
  report: Reporter,
): void {
  checkParameters(declaration.params, declaration.name.name, scope, report);
  checkPromptVariables(declaration.name.name, declaration.params, declaration.body, symbols, report);
}
