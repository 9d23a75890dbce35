import { suggestName } from "../diagnostics/index.js";
import type { ConfigValue, ParameterDecl } from "./ast.js";
import { type ProjectSymbols, suggestion } from "./check-context.js";
import { jinjaNames } from "./jinja-names.js";
import type { Reporter } from "./reporter.js";

/** Globals every prompt can read: BAML's `ctx` and `_`, and Jinja's global functions. */
const promptGlobals = ["ctx", "_", "range", "dict", "namespace", "lipsum", "cycler", "joiner"];

/**
 * Warn about names a prompt reads that nothing defines — usually a renamed parameter
 * (`{{ resume }}` after `resume` became `resume_text`). Parameters, template strings, enums (exposed as
 * globals), Jinja globals and names the template binds itself are defined. A warning, not an error: the
 * template engine decides at render time, and this scan ignores Jinja scopes.
 */
export function checkPromptVariables(
  owner: string,
  params: readonly ParameterDecl[],
  prompt: ConfigValue | undefined,
  symbols: ProjectSymbols,
  report: Reporter,
): void {
  if (prompt === undefined) return;
  let contentStart: number;
  if (prompt.kind === "raw-string") contentStart = prompt.contentStart;
  else if (prompt.kind === "string" && !prompt.value.includes("\\")) contentStart = prompt.span.start + 1;
  else return; // offsets inside strings with escapes would not map back to the source
  const names = jinjaNames(prompt.value);
  const globals = projectGlobals(symbols);
  const paramNames = new Set(params.map((param) => param.name.name));
  const isDefined = (name: string) => globals.has(name) || paramNames.has(name) || names.bound.has(name);
  const reported = new Set<string>();
  for (const read of names.reads) {
    if (isDefined(read.name) || reported.has(read.name)) continue;
    reported.add(read.name);
    const candidates = params.map((param) => param.name.name);
    report(
      "unknown-prompt-variable",
      { name: read.name, owner, ...suggestion(suggestName(read.name, candidates)) },
      { start: contentStart + read.offset, end: contentStart + read.offset + read.name.length },
    );
  }
}

/**
 * Names every prompt of a project may read, computed once per project (not once per prompt). It reads
 * only each type's name and kind: the incremental checker counts on that for whole-namespace iterations.
 */
const globalsCache = new WeakMap<ProjectSymbols, Set<string>>();

function projectGlobals(symbols: ProjectSymbols): Set<string> {
  let globals = globalsCache.get(symbols);
  if (globals === undefined) {
    globals = new Set([...promptGlobals, ...symbols.templateStrings.keys()]);
    for (const [name, type] of symbols.types) if (type.node.kind === "enum") globals.add(name);
    globalsCache.set(symbols, globals);
  }
  return globals;
}
