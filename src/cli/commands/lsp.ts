import { docsUrl } from "../../util/index.js";
import { type CliContext, CliError, type Command, UsageError } from "../cli-context.js";
import { isPackageMissing } from "../is-package-missing.js";

const usage = `Usage: sapling lsp --stdio

Runs the Language Server Protocol server on standard input and output, for editors: diagnostics as you
type, hover, go to definition, find references, completion, rename, formatting, the outline, and a
"Render prompt" lens over each test. Every baml_src folder is a project of its own. The VS Code extension
in editors/vscode starts it; other editors run this command (${docsUrl("editors.md")}).

Options:
  --stdio   talk over standard input and output (the only transport)
`;

/** The optional peer dependencies the server runs on (docs/decisions/0016-language-server-library.md). */
export const LANGUAGE_SERVER_PACKAGES = [
  "vscode-languageserver",
  "vscode-languageserver-textdocument",
] as const;
export const LANGUAGE_SERVER_MISSING = `sapling lsp needs the optional packages ${LANGUAGE_SERVER_PACKAGES.join(" and ")}: npm install --save-dev ${LANGUAGE_SERVER_PACKAGES.map((name) => `${name}@${name.endsWith("textdocument") ? 1 : 10}`).join(" ")}`;

/** Runs the server; the default loads it (and its library) lazily, so no other command pays for it. */
export type LanguageServerLoader = () => Promise<{
  runLanguageServer: (context: CliContext) => Promise<number>;
}>;

/** `sapling lsp`: the language server; its library loads only here, when the command runs. */
export const lspCommand: Command = lspCommandWith(() => import("./lsp-host.js"));

/** `sapling lsp` with the server loaded by `load` (tests inject one whose packages are absent). */
export function lspCommandWith(load: LanguageServerLoader): Command {
  return {
    usage,
    run: async (argv: string[], context: CliContext): Promise<number> => {
      // vscode-languageclient adds --clientProcessId=N; the server library reads it from process.argv.
      const unknown = argv.filter((arg) => arg !== "--stdio" && !arg.startsWith("--clientProcessId"));
      if (unknown.length > 0) throw new UsageError(`unknown option ${unknown[0]}`);
      if (!argv.includes("--stdio")) throw new UsageError("pass --stdio (the only transport)");
      let server: Awaited<ReturnType<LanguageServerLoader>>;
      try {
        server = await load();
      } catch (error) {
        if (LANGUAGE_SERVER_PACKAGES.some((name) => isPackageMissing(error, name)))
          throw new CliError(LANGUAGE_SERVER_MISSING);
        throw error;
      }
      return server.runLanguageServer(context);
    },
  };
}
