import type { Client, ConfigValue } from "../ir/index.js";
import { BamlInvalidArgumentError } from "./errors.js";

/**
 * Clients defined in code at call time (BAML's `ClientRegistry`): they shadow `.baml` clients of the same
 * name, and `setPrimary` makes one the client of every function called with this registry.
 *
 * ```ts
 * const registry = new ClientRegistry();
 * registry.addLlmClient("Fast", "openai", { model: "gpt-4o-mini", api_key: process.env.KEY });
 * registry.setPrimary("Fast");
 * await b.ExtractResume(text, { clientRegistry: registry });
 * ```
 */
export class ClientRegistry {
  readonly #clients = new Map<string, Client>();
  #primary: string | undefined;

  /**
   * Adds (or replaces) a client. `options` are the same keys as a `.baml` `options { … }` block, as plain
   * values; `retryPolicy` names a `retry_policy` declared in `.baml`.
   */
  addLlmClient(
    name: string,
    provider: string,
    options: Record<string, unknown> = {},
    retryPolicy?: string,
  ): void {
    if (!name) throw new BamlInvalidArgumentError("ClientRegistry.addLlmClient needs a client name.");
    if (!provider) {
      throw new BamlInvalidArgumentError(
        `ClientRegistry.addLlmClient("${name}") needs a provider, e.g. "openai".`,
      );
    }
    const entries: Record<string, ConfigValue> = {};
    for (const [key, value] of Object.entries(options)) {
      if (value !== undefined) entries[key] = toConfigValue(value, `${name}.${key}`);
    }
    this.#clients.set(name, { name, provider, options: entries, ...(retryPolicy ? { retryPolicy } : {}) });
  }

  /** Makes `name` the client of every call that uses this registry (unless the call names a `client`). */
  setPrimary(name: string): void {
    this.#primary = name;
  }

  /** The primary client's name, if one was set. */
  get primary(): string | undefined {
    return this.#primary;
  }

  /** Every client added, as IR data (what the sync client hands its worker thread). */
  get clients(): Client[] {
    return [...this.#clients.values()];
  }

  /** The client added under `name`, as IR data. */
  getClient(name: string): Client | undefined {
    return this.#clients.get(name);
  }
}

/** Plain option values → IR config values; code-supplied strings are literal, never `env.` references. */
function toConfigValue(value: unknown, path: string): ConfigValue {
  if (value === null) return { kind: "null" };
  if (typeof value === "string") return { kind: "string", value };
  if (typeof value === "number") return { kind: "number", value };
  if (typeof value === "boolean") return { kind: "bool", value };
  if (Array.isArray(value)) {
    return { kind: "array", items: value.map((item, index) => toConfigValue(item, `${path}[${index}]`)) };
  }
  if (typeof value === "object") {
    const entries: Record<string, ConfigValue> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item !== undefined) entries[key] = toConfigValue(item, `${path}.${key}`);
    }
    return { kind: "map", entries };
  }
  throw new BamlInvalidArgumentError(
    `Client option ${path} is a ${typeof value}; options must be strings, numbers, booleans, null, arrays or objects.`,
    path,
  );
}
