import type { Client, ConfigValue, IrIndex, RetryPolicy } from "../ir/index.js";
import type { ClientRegistry } from "./client-registry.js";
import { BamlInvalidArgumentError } from "./errors.js";

/** A client with its strategy resolved: a leaf model, or a fallback / round-robin over other trees. */
export type ClientTree =
  | { kind: "leaf"; client: Client; retryPolicy?: RetryPolicy }
  | {
      kind: "fallback";
      client: Client;
      children: ClientTree[];
      retryPolicy?: RetryPolicy;
      /** `http { total_timeout_ms }`: a bound on the whole strategy, retries and waits included. */
      totalTimeoutMs?: number;
    }
  | {
      kind: "round-robin";
      client: Client;
      children: ClientTree[];
      /** The `start` option: the first child to use. */
      start?: number;
      retryPolicy?: RetryPolicy;
      totalTimeoutMs?: number;
    };

const strategyProviders: Record<string, "fallback" | "round-robin"> = {
  fallback: "fallback",
  "baml-fallback": "fallback",
  "round-robin": "round-robin",
  "baml-round-robin": "round-robin",
};

/**
 * Resolves a client reference — a declared client, a ClientRegistry client (which shadows a declared one of
 * the same name), or the `"provider/model"` shorthand — into a tree. Configuration values stay unresolved
 * (`env.NAME` is read later, only for the clients a call actually tries).
 */
export function resolveClientTree(reference: string, index: IrIndex, registry?: ClientRegistry): ClientTree {
  return resolve(reference, index, registry, []);
}

function resolve(
  reference: string,
  index: IrIndex,
  registry: ClientRegistry | undefined,
  path: string[],
): ClientTree {
  if (path.includes(reference)) {
    throw new BamlInvalidArgumentError(
      `Client strategies form a cycle: ${[...path, reference].join(" → ")}. Remove one of the references.`,
    );
  }
  const client = registry?.getClient(reference) ?? index.clients.get(reference) ?? shorthand(reference);
  if (!client) {
    const known = [...index.clients.keys()].sort().join(", ") || "none";
    throw new BamlInvalidArgumentError(
      `Unknown client "${reference}". Declared clients: ${known}. Use a declared name, add it with ` +
        `ClientRegistry.addLlmClient, or write the "provider/model" shorthand (e.g. "openai/gpt-4o").`,
    );
  }
  const retryPolicy = client.retryPolicy ? findRetryPolicy(client, index) : undefined;
  const policy = retryPolicy ? { retryPolicy } : {};
  const strategy = strategyProviders[client.provider];
  if (!strategy) return { kind: "leaf", client, ...policy };
  const names = strategyNames(client);
  const children = names.map((name) => resolve(name, index, registry, [...path, reference]));
  const http = client.options.http;
  const total = http?.kind === "map" ? configNumber(http.entries.total_timeout_ms) : undefined;
  const timeout = total !== undefined && total > 0 ? { totalTimeoutMs: total } : {};
  if (strategy === "fallback") return { kind: "fallback", client, children, ...policy, ...timeout };
  const start = configNumber(client.options.start);
  return {
    kind: "round-robin",
    client,
    children,
    ...(start !== undefined ? { start } : {}),
    ...policy,
    ...timeout,
  };
}

/** `"openai/gpt-4o"` → an `openai` client with `model "gpt-4o"` and the provider's default credentials. */
function shorthand(reference: string): Client | undefined {
  const slash = reference.indexOf("/");
  if (slash <= 0 || slash === reference.length - 1) return undefined;
  return {
    name: reference,
    provider: reference.slice(0, slash),
    options: { model: { kind: "string", value: reference.slice(slash + 1) } },
  };
}

function strategyNames(client: Client): string[] {
  const strategy: ConfigValue | undefined = client.options.strategy;
  const items = strategy?.kind === "array" ? strategy.items.map(configString) : undefined;
  if (!items || items.length === 0 || items.some((item) => item === undefined)) {
    throw new BamlInvalidArgumentError(
      `Client "${client.name}" (${client.provider}) needs option strategy: a non-empty list of client names.`,
    );
  }
  return items as string[];
}

function findRetryPolicy(client: Client, index: IrIndex): RetryPolicy {
  const name = client.retryPolicy ?? "";
  const policy = index.retryPolicies.get(name);
  if (!policy) {
    throw new BamlInvalidArgumentError(
      `Client "${client.name}" uses retry_policy ${name}, which is not declared. Declare it in .baml ` +
        `(retry_policy ${name} { max_retries 2 }) or remove it.`,
    );
  }
  return policy;
}

/**
 * The tightest `total_timeout_ms` of the strategies in a tree (BAML: the minimum wins when strategies are
 * composed), or `undefined` when none sets one.
 */
export function totalTimeoutMs(tree: ClientTree): number | undefined {
  if (tree.kind === "leaf") return undefined;
  const limits = [tree.totalTimeoutMs, ...tree.children.map(totalTimeoutMs)].filter(
    (limit): limit is number => limit !== undefined,
  );
  return limits.length > 0 ? Math.min(...limits) : undefined;
}

/** Reads a string-valued option without env resolution (strategy lists name clients, never secrets). */
function configString(value: ConfigValue | undefined): string | undefined {
  return value?.kind === "string" ? value.value : undefined;
}

/** Reads a number-valued option without env resolution. */
function configNumber(value: ConfigValue | undefined): number | undefined {
  return value?.kind === "number" ? value.value : undefined;
}
