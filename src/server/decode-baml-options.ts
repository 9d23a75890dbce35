import { type CallOptions, ClientRegistry } from "../runtime/index.js";
import { HttpError } from "./error-response.js";

/** The body key BAML's REST clients put per-request options under. */
export const BAML_OPTIONS_KEY = "__baml_options__";

/**
 * `__baml_options__` from a `/call` or `/stream` body → call options, in BAML's shape:
 *
 * ```json
 * { "client_registry": { "clients": [{ "name": "Fast", "provider": "openai", "options": { "model": "gpt-4o-mini" },
 *                                      "retry_policy": "Twice" }],
 *                        "primary": "Fast" },
 *   "env": { "OPENAI_BASE": "https://…", "UNSET_ME": null } }
 * ```
 *
 * `env` values are merged over the server's environment for this call; `null` removes a variable, as in
 * BAML. Anything else (an unknown key, a value of the wrong kind) is a 400 naming it: nothing sent is
 * ignored.
 */
export function decodeBamlOptions(value: unknown): Pick<CallOptions, "clientRegistry" | "env"> {
  const options = record(value, BAML_OPTIONS_KEY);
  const unknown = Object.keys(options).filter((key) => key !== "client_registry" && key !== "env");
  if (unknown.length > 0) {
    fail(
      `${BAML_OPTIONS_KEY} has ${unknown.map((key) => `"${key}"`).join(", ")}; it takes "client_registry" and "env".`,
    );
  }
  const result: Pick<CallOptions, "clientRegistry" | "env"> = {};
  if (options.client_registry !== undefined && options.client_registry !== null) {
    result.clientRegistry = decodeClientRegistry(options.client_registry);
  }
  if (options.env !== undefined && options.env !== null) {
    const env: Record<string, string | undefined> = {};
    for (const [name, item] of Object.entries(record(options.env, `${BAML_OPTIONS_KEY}.env`))) {
      if (item !== null && typeof item !== "string") {
        fail(`${BAML_OPTIONS_KEY}.env.${name} must be a string, or null to unset it.`);
      }
      env[name] = item ?? undefined;
    }
    result.env = env;
  }
  return result;
}

function decodeClientRegistry(value: unknown): ClientRegistry {
  const path = `${BAML_OPTIONS_KEY}.client_registry`;
  const input = record(value, path);
  const unknown = Object.keys(input).filter((key) => key !== "clients" && key !== "primary");
  if (unknown.length > 0) {
    fail(`${path} has ${unknown.map((key) => `"${key}"`).join(", ")}; it takes "clients" and "primary".`);
  }
  const registry = new ClientRegistry();
  const clients = input.clients ?? [];
  if (!Array.isArray(clients)) fail(`${path}.clients must be a list of clients.`);
  (clients as unknown[]).forEach((item, position) => {
    const at = `${path}.clients[${position}]`;
    const client = record(item, at);
    const extra = Object.keys(client).filter(
      (key) => !["name", "provider", "options", "retry_policy"].includes(key),
    );
    if (extra.length > 0) {
      fail(
        `${at} has ${extra.map((key) => `"${key}"`).join(", ")}; a client takes "name", "provider", "options" and "retry_policy".`,
      );
    }
    if (typeof client.name !== "string" || client.name === "") fail(`${at}.name must be a non-empty string.`);
    if (typeof client.provider !== "string" || client.provider === "") {
      fail(`${at}.provider must be a provider name such as "openai".`);
    }
    const retryPolicy = client.retry_policy ?? undefined;
    if (retryPolicy !== undefined && typeof retryPolicy !== "string") {
      fail(`${at}.retry_policy must name a retry_policy declared in the project.`);
    }
    const options =
      client.options === undefined || client.options === null ? {} : record(client.options, `${at}.options`);
    registry.addLlmClient(
      client.name as string,
      client.provider as string,
      options,
      retryPolicy as string | undefined,
    );
  });
  if (input.primary !== undefined && input.primary !== null) {
    if (typeof input.primary !== "string") fail(`${path}.primary must be a client name.`);
    registry.setPrimary(input.primary as string);
  }
  return registry;
}

function record(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    fail(`${path} must be a JSON object.`);
  return value as Record<string, unknown>;
}

function fail(message: string): never {
  throw new HttpError(400, "INVALID_ARGUMENT", message);
}
