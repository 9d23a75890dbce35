export type { CliContext, Command } from "./cli-context.js";
export { CliError, captureContext, UsageError } from "./cli-context.js";
export { main } from "./main.js";
