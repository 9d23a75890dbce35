import { type CliContext, CliError, UsageError } from "./cli-context.js";
import { SAPLING_VERSION } from "./commands/sapling-version.js";
import { type CommandEntry, commands } from "./commands.js";
import { didYouMean } from "./did-you-mean.js";

function overview(): string {
  const width = Math.max(...commands.map((command) => command.name.length), 4);
  const lines = commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
  return [
    "sapling — typed data out of LLMs (the BAML language in pure TypeScript)",
    "",
    "Usage: sapling <command> [options]",
    "",
    "Commands:",
    ...lines,
    "",
    "Run `sapling help <command>` for a command's options.",
    "",
  ].join("\n");
}

/** Runs one CLI invocation and returns its exit code; prints only through `context`. */
export async function main(argv: string[], context: CliContext): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h") {
    context.stdout(overview());
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-v") {
    context.stdout(`${SAPLING_VERSION}\n`);
    return 0;
  }
  if (name === "help") {
    const entry = rest[0] ? find(rest[0]) : undefined;
    context.stdout(entry ? `${(await entry.load()).usage.trimEnd()}\n` : overview());
    return 0;
  }
  const entry = find(name);
  if (!entry) {
    const suggestion = didYouMean(
      name,
      commands.map((item) => item.name),
    );
    const hint = suggestion ? ` Did you mean \`sapling ${suggestion}\`?` : "";
    context.stderr(`sapling: unknown command "${name}".${hint} Run \`sapling --help\` for the list.\n`);
    return 2;
  }
  const command = await entry.load();
  if (rest.includes("--help") || rest.includes("-h")) {
    context.stdout(`${command.usage.trimEnd()}\n`);
    return 0;
  }
  try {
    return await command.run(rest, context);
  } catch (error) {
    if (error instanceof UsageError) {
      context.stderr(`sapling ${entry.name}: ${error.message}\n\n${command.usage.trimEnd()}\n`);
      return 2;
    }
    if (error instanceof CliError) {
      context.stderr(`sapling ${entry.name}: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}

function find(name: string): CommandEntry | undefined {
  return commands.find((command) => command.name === name);
}
