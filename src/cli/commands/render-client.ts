import { type ConfigValue, configValueToPlain, type Ir } from "../../ir/index.js";
import type { PromptClient } from "../../prompt/index.js";
import { CliError } from "../cli-context.js";

/**
 * The client a prompt renders for: the function's client (or `--client`), with strategy clients
 * (fallback, round-robin) resolved to their first leaf, since that is the client the first attempt uses.
 * `"provider/model"` shorthands become an anonymous client of that provider.
 */
export function resolvePromptClient(ir: Ir, name: string): PromptClient {
  const seen = new Set<string>();
  let current = name;
  for (;;) {
    if (seen.has(current)) throw new CliError(`client ${name} refers to itself through its strategy.`);
    seen.add(current);
    const client = ir.clients.find((item) => item.name === current);
    if (!client) {
      const slash = current.indexOf("/");
      if (slash > 0)
        return {
          name: current,
          provider: current.slice(0, slash),
          options: { model: current.slice(slash + 1) },
        };
      const known = ir.clients.map((item) => item.name).join(", ") || "none";
      throw new CliError(`the project has no client ${current} (clients: ${known}).`);
    }
    const strategy = client.options.strategy;
    if ((client.provider === "fallback" || client.provider === "round-robin") && strategy?.kind === "array") {
      const first = strategy.items[0];
      if (first?.kind !== "string") throw new CliError(`client ${current} has an empty strategy.`);
      current = first.value;
      continue;
    }
    const options = Object.fromEntries(
      Object.entries(client.options).map(([key, value]) => [key, plain(value)]),
    );
    const defaultRole = client.options.default_role;
    const allowedRoles = client.options.allowed_roles;
    return {
      name: client.name,
      provider: client.provider,
      ...(defaultRole?.kind === "string" ? { defaultRole: defaultRole.value } : {}),
      ...(allowedRoles?.kind === "array"
        ? { allowedRoles: allowedRoles.items.flatMap((item) => (item.kind === "string" ? [item.value] : [])) }
        : {}),
      options,
    };
  }
}

/** A config value as a template sees it; `env.NAME` stays a visible reference, never the secret. */
function plain(value: ConfigValue): unknown {
  return configValueToPlain(value, (name) => `env.${name}`);
}
