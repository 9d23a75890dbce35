import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { formatBaml } from "../../language/index.js";
import type { CliContext, Command } from "../cli-context.js";
import { displayPath, loadProject, projectDirectory } from "../load-project.js";
import { booleanFlag, parseFlags, stringFlag } from "../parse-flags.js";

const usage = `Usage: sapling fmt [--check] [--from DIR]

Formats every .baml file under DIR (default ./baml_src) in place: two-space indentation, one member per
line, canonical spacing. Comments, prompts and other raw strings are kept exactly. Files with syntax
errors, or containing a \`// baml-format: ignore\` line, are left alone.

Options:
  --check      change nothing; list the files that are not formatted and exit 1 if there are any
  --from DIR   the baml_src folder to format
`;

/** `sapling fmt`: format a project's .baml files (or check that they are formatted). */
export const fmtCommand: Command = {
  name: "fmt",
  summary: "format the .baml files in baml_src/ (--check to verify only)",
  usage,
  run: async (argv: string[], context: CliContext): Promise<number> => {
    const flags = parseFlags(argv, { check: { type: "boolean" }, from: { type: "string" } }, 0);
    const check = booleanFlag(flags, "check");
    const dir = projectDirectory(context, stringFlag(flags, "from"));
    const project = await loadProject(dir, context);
    const changed: string[] = [];
    for (const [file, text] of Object.entries(project.sources)) {
      const formatted = formatBaml(text);
      if (formatted === text) continue;
      changed.push(file);
      if (!check) await writeFile(join(dir, file), formatted);
    }
    const shown = (file: string) => displayPath(context, join(dir, file));
    const total = Object.keys(project.sources).length;
    if (check) {
      if (changed.length === 0) {
        context.stdout(`All ${total} file${total === 1 ? " is" : "s are"} formatted.\n`);
        return 0;
      }
      context.stderr(`${changed.map((file) => `not formatted: ${shown(file)}\n`).join("")}`);
      context.stderr(
        `${changed.length} of ${total} files need formatting; run \`sapling fmt\` to fix them.\n`,
      );
      return 1;
    }
    for (const file of changed) context.stdout(`formatted ${shown(file)}\n`);
    context.stdout(`Formatted ${changed.length} of ${total} file${total === 1 ? "" : "s"}.\n`);
    return 0;
  },
};
