import type { Command } from "./cli-context.js";
import { batchCommand } from "./commands/batch.js";
import { callCommand } from "./commands/call.js";
import { checkCommand } from "./commands/check.js";
import { fmtCommand } from "./commands/fmt.js";
import { generateCommand } from "./commands/generate.js";
import { initCommand } from "./commands/init.js";
import { mockCommand } from "./commands/mock.js";
import { parseCommand } from "./commands/parse.js";
import { renderCommand } from "./commands/render.js";
import { serveCommand } from "./commands/serve.js";
import { testCommand } from "./commands/test.js";
import { workerCommand } from "./commands/worker.js";

/** Every `sapling` command, in the order `--help` lists them. */
export const commands: Command[] = [
  initCommand,
  generateCommand,
  checkCommand,
  fmtCommand,
  callCommand,
  batchCommand,
  workerCommand,
  renderCommand,
  parseCommand,
  testCommand,
  serveCommand,
  mockCommand,
];
