/**
 * The `provider-table` room: what each provider string means (its wire format, base URL, key variable,
 * defaults and the options it reads). Read by the language server and the dev page, and at a call's first
 * request by the `llm` room's adapters and the runtime's option resolution. A room apart from `llm` so that
 * the runtime entry, which imports `llm`'s door, does not ship the table
 * (docs/decisions/0049-provider-helpers-room.md).
 */

export type { ProviderDefinition } from "./provider-table.js";
export {
  commonKeys,
  providerDefinitions,
  providerOptionNames,
  resolveProviderName,
} from "./provider-table.js";
