import { suggestName } from "../diagnostics/index.js";
import type { ClientDecl, ConfigEntry } from "./ast.js";
import { checkAttributes } from "./check-attributes.js";
import { type Located, type ProjectSymbols, suggestion } from "./check-context.js";
import { checkClientReference } from "./check-function.js";
import { describeValue, entriesByKey, reportInvalidValue, textOf } from "./config-values.js";
import { findCycles } from "./find-cycles.js";
import {
  canonicalProvider,
  isKnownProvider,
  isStrategyProvider,
  knownProviders,
  requiredOptions,
} from "./providers.js";
import type { Reporter } from "./reporter.js";

const clientProperties = ["provider", "retry_policy", "options"];

/** Check a client: known provider, known retry policy, required options, strategies naming known clients. */
export function checkClient(declaration: ClientDecl, symbols: ProjectSymbols, report: Reporter): void {
  const name = declaration.name.name;
  if (declaration.clientType && declaration.clientType.name !== "llm") {
    report(
      "invalid-value",
      { key: "client<…>", expected: "llm", found: `"${declaration.clientType.name}"` },
      declaration.clientType.span,
    );
  }
  checkAttributes(declaration.body.attributes, "config", report);
  const entries = entriesByKey(declaration.body, report);
  for (const entry of entries.values()) {
    if (!clientProperties.includes(entry.key.name)) {
      report(
        "unknown-client-property",
        { name: entry.key.name, ...suggestion(suggestName(entry.key.name, clientProperties)) },
        entry.key.span,
      );
    }
  }
  const retryPolicy = entries.get("retry_policy");
  if (retryPolicy) {
    const policyName = textOf(retryPolicy.value);
    if (policyName === undefined) reportInvalidValue(retryPolicy, "a retry policy name", report);
    else if (!symbols.retryPolicies.has(policyName)) {
      report(
        "unknown-retry-policy",
        { name: policyName, ...suggestion(suggestName(policyName, symbols.retryPolicies.keys())) },
        retryPolicy.value.span,
      );
    }
  }
  const providerEntry = entries.get("provider");
  if (!providerEntry) {
    report("missing-provider", { name }, declaration.name.span);
    return;
  }
  const provider = textOf(providerEntry.value);
  if (provider === undefined) {
    reportInvalidValue(providerEntry, "a provider name", report);
    return;
  }
  if (!isKnownProvider(provider)) {
    report(
      "unknown-provider",
      { name: provider, ...suggestion(suggestName(provider, knownProviders)) },
      providerEntry.value.span,
    );
    return;
  }
  const optionsEntry = entries.get("options");
  let options = new Map<string, ConfigEntry>();
  if (optionsEntry) {
    if (optionsEntry.value.kind === "map") options = entriesByKey(optionsEntry.value.block, report);
    else reportInvalidValue(optionsEntry, "a map of options { … }", report);
  }
  const canonical = canonicalProvider(provider);
  for (const requirement of requiredOptions[canonical] ?? []) {
    if (requirement.anyOf.some((alternative) => alternative.every((option) => options.has(option)))) continue;
    const option = requirement.anyOf.map((alternative) => alternative.join(" + ")).join(" or ");
    const args = { client: name, provider, option, why: requirement.why };
    if (requirement.level === "error") report("missing-client-option", args, declaration.name.span);
    else report("missing-model", args, declaration.name.span);
  }
  if (canonical === "aws-bedrock")
    checkInferenceConfiguration(name, options.get("inference_configuration"), report);
  const strategy = options.get("strategy");
  if (strategy && isStrategyProvider(provider)) checkStrategy(name, strategy, symbols, report);
}

/** A number option's value as a number: a number literal, or a string spelling one (read so at call time). */
function numberIn(value: ConfigEntry["value"]): number | undefined {
  if (value.kind === "number") return value.value;
  const text = textOf(value);
  return text !== undefined && /^\s*-?\d+(\.\d+)?([eE][-+]?\d+)?\s*$/.test(text) ? Number(text) : undefined;
}

/** Bedrock's typed `inference_configuration` options and what each takes. */
const inferenceOptions: Record<string, { expected: string; fits: (value: ConfigEntry["value"]) => boolean }> =
  {
    max_tokens: {
      expected: "a positive whole number",
      fits: (value) => {
        const number = numberIn(value);
        return number !== undefined && Number.isInteger(number) && number >= 1;
      },
    },
    temperature: { expected: "a number", fits: (value) => numberIn(value) !== undefined },
    top_p: { expected: "a number", fits: (value) => numberIn(value) !== undefined },
    stop_sequences: {
      expected: "a list of strings",
      fits: (value) => value.kind === "array" && value.items.every((item) => textOf(item) !== undefined),
    },
  };

/**
 * A literal of the wrong type in Bedrock's `inference_configuration` fails every call: a warning at check
 * time says which options are typed. `env.NAME` values are read at call time (a numeric string as a number).
 */
function checkInferenceConfiguration(client: string, entry: ConfigEntry | undefined, report: Reporter): void {
  if (entry?.value.kind !== "map") return;
  for (const option of entry.value.block.entries) {
    const spec = inferenceOptions[option.key.name];
    const value = option.value;
    if (value.kind === "env" || value.kind === "error") continue;
    if (spec === undefined || !spec.fits(value)) {
      report(
        "invalid-typed-option",
        {
          client,
          option: `inference_configuration.${option.key.name}`,
          expected: spec?.expected ?? "one of max_tokens, temperature, top_p, stop_sequences",
          found: spec === undefined ? "an unknown key" : describeValue(value),
        },
        spec === undefined ? option.key.span : value.span,
      );
    }
  }
}

function checkStrategy(name: string, strategy: ConfigEntry, symbols: ProjectSymbols, report: Reporter): void {
  if (strategy.value.kind !== "array") {
    reportInvalidValue(strategy, "a list of client names", report);
    return;
  }
  if (strategy.value.items.length === 0) {
    report("empty-strategy", { name }, strategy.value.span);
    return;
  }
  for (const item of strategy.value.items) {
    const clientName = textOf(item);
    if (clientName === undefined) {
      if (item.kind !== "error")
        report(
          "invalid-value",
          { key: "strategy", expected: "client names", found: "another value" },
          item.span,
        );
      continue;
    }
    checkClientReference(clientName, item.span, symbols, report);
  }
}

/** Fallback and round-robin clients that contain themselves, reported once per cycle. */
export function checkStrategyCycles(symbols: ProjectSymbols, reportIn: (file: string) => Reporter): void {
  const names = [...symbols.clients.keys()];
  const edges = (name: string) => {
    const client = symbols.clients.get(name);
    return client ? strategyTargets(client) : [];
  };
  for (const cycle of findCycles(names, edges)) {
    const client = symbols.clients.get(cycle[0] as string);
    if (client) reportIn(client.file)("strategy-cycle", { cycle: cycle.join(" -> ") }, client.node.name.span);
  }
}

function strategyTargets(client: Located<ClientDecl>): string[] {
  const options = client.node.body.entries.find((entry) => entry.key.name === "options")?.value;
  if (options?.kind !== "map") return [];
  const strategy = options.block.entries.find((entry) => entry.key.name === "strategy")?.value;
  if (strategy?.kind !== "array") return [];
  return strategy.items.map(textOf).filter((item): item is string => item !== undefined);
}
