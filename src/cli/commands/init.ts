import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { type CliContext, CliError, type Command } from "../cli-context.js";
import { parseFlags, stringFlag } from "../parse-flags.js";
import { initProjectFiles } from "./init-project-files.js";
import { SAPLING_VERSION } from "./sapling-version.js";

const usage = `Usage: sapling init [--dest DIR]

Creates DIR/baml_src/ (DIR defaults to the current folder) with an example function, clients and a
TypeScript generator. Refuses to touch an existing baml_src/.

Options:
  --dest DIR   where to create baml_src/
`;

/** `sapling init`: scaffold a working `baml_src/`. */
export const initCommand: Command = {
  name: "init",
  summary: "create baml_src/ with an example function, clients and a generator",
  usage,
  run: async (argv: string[], context: CliContext): Promise<number> => {
    const flags = parseFlags(argv, { dest: { type: "string" } }, 0);
    const destination = resolve(context.cwd, stringFlag(flags, "dest") ?? ".");
    const source = join(destination, "baml_src");
    const shown = relative(context.cwd, source) || ".";
    if (existsSync(source)) {
      throw new CliError(
        `${shown} already exists; init never overwrites a project. Remove it, or pass --dest to create one elsewhere.`,
      );
    }
    mkdirSync(source, { recursive: true });
    const files = initProjectFiles(SAPLING_VERSION);
    for (const [file, text] of Object.entries(files)) writeFileSync(join(source, file), text);
    context.stdout(
      [
        `Created ${shown}/ with ${Object.keys(files).sort().join(", ")}.`,
        "",
        "Next:",
        `  sapling generate${destination === context.cwd ? "" : ` --from ${shown}`}   # writes baml_client/`,
        '  import { b } from "./baml_client/index.js";',
        "  const evaluation = await b.EvaluateResume(resumeText);",
        "",
      ].join("\n"),
    );
    return 0;
  },
};
