import type { CliContext, Command } from "../cli-context.js";
import { UsageError } from "../cli-context.js";

const usage = `Usage: sapling lsp --stdio

Runs the Language Server Protocol server on standard input and output, for editors: diagnostics as you
type, hover, go to definition, find references, completion, rename, formatting, the outline, and a
"Render prompt" lens over each test. Every baml_src folder is a project of its own. The VS Code extension
in editors/vscode starts it; other editors run this command (docs/editors.md).

Options:
  --stdio   talk over standard input and output (the only transport)
`;

/** `sapling lsp`: the language server; its library loads only here, when the command runs. */
export const lspCommand: Command = {
  name: "lsp",
  summary: "run the language server for editors (--stdio)",
  usage,
  run: async (argv: string[], context: CliContext): Promise<number> => {
    // vscode-languageclient adds --clientProcessId=N; the server library reads it from process.argv.
    const unknown = argv.filter((arg) => arg !== "--stdio" && !arg.startsWith("--clientProcessId"));
    if (unknown.length > 0) throw new UsageError(`unknown option ${unknown[0]}`);
    if (!argv.includes("--stdio")) throw new UsageError("pass --stdio (the only transport)");
    const { runLanguageServer } = await import("./lsp-host.js");
    return runLanguageServer(context);
  },
};
