import { type Client, configValueToPlain } from "../ir/index.js";
import { collectSecrets, type EnvOptionValue } from "../llm/index.js";
import { providerDefinitions, resolveProviderName } from "../provider-table/index.js";
import { BamlClientOptionsError, BamlMissingEnvVarError } from "./errors.js";

/** Environment variables visible to a call: the runtime's env with the call's `env` merged over it. */
export type Environment = Record<string, string | undefined>;

/**
 * A client's options as plain values, with `env.NAME` references read from `env` now (at call time), so a
 * variable is required only when a call actually uses a client that reads it. Every value read from `env`
 * is also pushed onto `fromEnv` (when given): those are secrets (`collectSecrets`), whatever the option.
 */
export function resolveOptions(
  client: Client,
  env: Environment,
  fromEnv?: EnvOptionValue[],
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(client.options)) {
    result[key] = configValueToPlain(
      value,
      (name, option) => {
        const found = env[name];
        if (found === undefined) throw new BamlMissingEnvVarError(name, client.name, client.provider, option);
        // `LOCAL_LLM_BASE_URL=` in a .env file: the URL would resolve against nothing ("Failed to parse
        // URL from /chat/completions"). An empty key can be meant (local servers); an empty URL cannot.
        if (found.trim() === "" && option === "base_url") {
          throw new BamlClientOptionsError(
            `Client "${client.name}" reads env.${name} (option base_url), but ${name} is set to an empty ` +
              `string. Set it to the server's URL (e.g. http://localhost:8000/v1), or unset it.`,
            client.name,
            client.provider,
            option,
          );
        }
        fromEnv?.push({ option, value: found });
        return found;
      },
      key,
    );
  }
  return result;
}

/**
 * Every value a call must never show, by the package's one rule (`collectSecrets`: credential-named
 * options, every option read from `env`, URL user info), plus the provider's default key.
 */
export function clientSecrets(
  provider: string,
  options: Record<string, unknown>,
  fromEnv: readonly EnvOptionValue[],
  env: Environment,
): string[] {
  return [...collectSecrets(options, fromEnv), ...defaultKeySecret(provider, env)];
}

/** The provider's default key (`OPENAI_API_KEY`, …) is a secret too when the options did not set one. */
function defaultKeySecret(provider: string, env: Environment): string[] {
  const name = resolveProviderName(provider);
  const variable = name ? providerDefinitions[name]?.apiKeyEnv : undefined;
  const value = variable ? env[variable] : undefined;
  return value && value.length >= 4 ? [value] : [];
}
