import type { ConfigValue } from "./types.js";

/**
 * A configuration value as plain JSON. `readEnv` decides what an `env.NAME` reference becomes — the
 * variable's value at call time, a visible placeholder in a rendered prompt, or an error naming the
 * option — and receives the option's path (`options.headers.x-key`, `strategy[1]`) for its message.
 */
export function configValueToPlain(
  value: ConfigValue,
  readEnv: (name: string, path: string) => unknown,
  path = "",
): unknown {
  switch (value.kind) {
    case "string":
    case "number":
    case "bool":
      return value.value;
    case "null":
      return null;
    case "env":
      return readEnv(value.name, path);
    case "array":
      return value.items.map((item, index) => configValueToPlain(item, readEnv, `${path}[${index}]`));
    case "map": {
      const entries: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value.entries)) {
        entries[key] = configValueToPlain(item, readEnv, path ? `${path}.${key}` : key);
      }
      return entries;
    }
  }
}
