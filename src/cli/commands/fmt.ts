import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type FormattedBaml, formatBamlFile } from "../../language/index.js";
import type { CliContext, Command } from "../cli-context.js";
import { displayPath, loadProject, projectDirectory } from "../load-project.js";
import { booleanFlag, parseFlags, stringFlag } from "../parse-flags.js";

const usage = `Usage: sapling fmt [--check] [--from DIR]

Formats every .baml file under DIR (default ./baml_src) in place: two-space indentation, one member per
line, canonical spacing. Comments, prompts and other raw strings are kept exactly. Files containing a
\`// baml-format: ignore\` line are left alone. Files with syntax errors cannot be formatted: they are
named, and the command exits 1 (\`sapling check\` shows the errors).

Options:
  --check      change nothing; list the files that are not formatted (or cannot be) and exit 1 if any
  --from DIR   the baml_src folder to format
`;

/** `sapling fmt`: format a project's .baml files (or check that they are formatted). */
export const fmtCommand: Command = {
  usage,
  run: async (argv: string[], context: CliContext): Promise<number> => {
    const flags = parseFlags(argv, { check: { type: "boolean" }, from: { type: "string" } }, 0);
    const check = booleanFlag(flags, "check");
    const dir = projectDirectory(context, stringFlag(flags, "from"));
    const project = await loadProject(dir, context);
    const changed: string[] = [];
    const broken: string[] = [];
    const ignored: string[] = [];
    const shown = (file: string) => displayPath(context, join(dir, file));
    for (const [file, text] of Object.entries(project.sources)) {
      const formatted: FormattedBaml = formatBamlFile(text);
      if (formatted.skipped?.reason === "syntax-errors") {
        const count = formatted.skipped.syntaxErrors;
        broken.push(file);
        context.stderr(`cannot format ${shown(file)}: ${count} syntax error${count === 1 ? "" : "s"}\n`);
        continue;
      }
      if (formatted.skipped?.reason === "ignored") ignored.push(file);
      if (formatted.text === text) continue;
      changed.push(file);
      if (!check) await writeFile(join(dir, file), formatted.text);
    }
    const total = Object.keys(project.sources).length;
    const files = (count: number) => `${count} file${count === 1 ? "" : "s"}`;
    // What was not looked at, named in every summary: a "formatted" verdict must not cover broken files.
    const skippedNote = [
      broken.length > 0
        ? `${files(broken.length)} with syntax errors skipped (${broken.map(shown).join(", ")}; run \`sapling check\`)`
        : "",
      ignored.length > 0
        ? `${files(ignored.length)} left alone by baml-format: ignore (${ignored.map(shown).join(", ")})`
        : "",
    ]
      .filter((note) => note !== "")
      .join("; ");
    const suffix = skippedNote ? `; ${skippedNote}` : "";
    if (check) {
      for (const file of changed) context.stderr(`not formatted: ${shown(file)}\n`);
      if (changed.length === 0 && broken.length === 0) {
        const checked = total - ignored.length;
        context.stdout(`All ${files(checked)} ${checked === 1 ? "is" : "are"} formatted${suffix}.\n`);
        return 0;
      }
      const verdict =
        changed.length > 0
          ? `${changed.length} of ${files(total)} need formatting; run \`sapling fmt\` to fix them`
          : `${total - broken.length - ignored.length} of ${files(total)} are formatted`;
      context.stderr(`${verdict}${suffix}.\n`);
      return 1;
    }
    for (const file of changed) context.stdout(`formatted ${shown(file)}\n`);
    context.stdout(`Formatted ${changed.length} of ${files(total)}${suffix}.\n`);
    return broken.length > 0 ? 1 : 0;
  },
};
