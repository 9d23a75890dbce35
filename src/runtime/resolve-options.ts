import type { Client, ConfigValue } from "../ir/index.js";
import { BamlMissingEnvVarError } from "./errors.js";

/** Environment variables visible to a call: the runtime's env with the call's `env` merged over it. */
export type Environment = Record<string, string | undefined>;

/**
 * A client's options as plain values, with `env.NAME` references read from `env` now (at call time), so a
 * variable is required only when a call actually uses a client that reads it.
 */
export function resolveOptions(client: Client, env: Environment): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(client.options)) {
    result[key] = resolveValue(value, env, client, key);
  }
  return result;
}

function resolveValue(value: ConfigValue, env: Environment, client: Client, option: string): unknown {
  switch (value.kind) {
    case "string":
    case "number":
    case "bool":
      return value.value;
    case "null":
      return null;
    case "env": {
      const found = env[value.name];
      if (found === undefined) {
        throw new BamlMissingEnvVarError(value.name, client.name, client.provider, option);
      }
      return found;
    }
    case "array":
      return value.items.map((item, index) => resolveValue(item, env, client, `${option}[${index}]`));
    case "map": {
      const entries: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value.entries)) {
        entries[key] = resolveValue(item, env, client, `${option}.${key}`);
      }
      return entries;
    }
  }
}

/** Reads a string-valued option without env resolution (strategy lists name clients, never secrets). */
export function configString(value: ConfigValue | undefined): string | undefined {
  return value?.kind === "string" ? value.value : undefined;
}

/** Reads a number-valued option without env resolution. */
export function configNumber(value: ConfigValue | undefined): number | undefined {
  return value?.kind === "number" ? value.value : undefined;
}
