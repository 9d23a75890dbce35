import type { Command } from "./cli-context.js";

/** Every `sapling` command, in the order `--help` lists them. */
export const commands: Command[] = [];
