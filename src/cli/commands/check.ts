import { hasErrors, summarizeDiagnostics } from "../../diagnostics/index.js";
import { compile } from "../../language/index.js";
import type { CliContext, Command } from "../cli-context.js";
import { displayPath, loadProject, projectDirectory, renderProjectDiagnostics } from "../load-project.js";
import { parseFlags, stringFlag } from "../parse-flags.js";

const usage = `Usage: sapling check [--from DIR]

Reads every .baml file under DIR (default ./baml_src), reports errors and warnings with their locations,
and exits 0 when there are no errors (warnings alone still exit 0, unlike baml-cli), 1 otherwise.

Options:
  --from DIR   the baml_src folder to check
`;

/** `sapling check`: compile a project and report its diagnostics. */
export const checkCommand: Command = {
  usage,
  run: async (argv: string[], context: CliContext): Promise<number> => {
    const flags = parseFlags(argv, { from: { type: "string" } }, 0);
    const dir = projectDirectory(context, stringFlag(flags, "from"));
    const project = await loadProject(dir, context);
    const { diagnostics } = compile(project.sources);
    const files = Object.keys(project.sources).length;
    const where = `${displayPath(context, dir)} (${files} file${files === 1 ? "" : "s"})`;
    if (diagnostics.length > 0) {
      const output = hasErrors(diagnostics) ? context.stderr : context.stdout;
      output(`${renderProjectDiagnostics(project, diagnostics, context)}\n\n`);
    }
    if (hasErrors(diagnostics)) {
      context.stderr(`Checked ${where}: ${summarizeDiagnostics(diagnostics)}.\n`);
      return 1;
    }
    context.stdout(`Checked ${where}: ${summarizeDiagnostics(diagnostics)}.\n`);
    return 0;
  },
};
