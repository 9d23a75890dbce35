import type { Command } from "./cli-context.js";
import { callCommand } from "./commands/call.js";
import { checkCommand } from "./commands/check.js";

/** Every `sapling` command, in the order `--help` lists them. */
export const commands: Command[] = [checkCommand, callCommand];
