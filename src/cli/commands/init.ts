import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { type CliContext, CliError, type Command } from "../cli-context.js";
import { parseFlags, stringFlag } from "../parse-flags.js";
import { initProjectFiles } from "./init-project-files.js";
import { SAPLING_VERSION } from "./sapling-version.js";

const usage = `Usage: sapling init [--dest DIR]

Creates DIR/baml_src/ (DIR defaults to the current folder) with an example function, clients and a
TypeScript generator. Refuses to touch an existing baml_src/. The generator writes ESM, or CommonJS
(module_format "cjs") when the nearest package.json is not "type": "module".

Options:
  --dest DIR   where to create baml_src/
`;

/** `sapling init`: scaffold a working `baml_src/`. */
export const initCommand: Command = {
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
    const format = moduleFormatOf(destination);
    mkdirSync(source, { recursive: true });
    const files = initProjectFiles(SAPLING_VERSION, format.moduleFormat);
    for (const [file, text] of Object.entries(files)) writeFileSync(join(source, file), text);
    const generate = `  npx sapling generate${destination === context.cwd ? "" : ` --from ${shown}`}   # writes baml_client/`;
    context.stdout(
      [
        `Created ${shown}/ with ${Object.keys(files).sort().join(", ")}.`,
        ...(format.packageJson
          ? [
              `The client is ${format.moduleFormat === "cjs" ? "CommonJS" : "ESM"}, as ${format.packageJson} says.`,
            ]
          : []),
        "",
        "Next:",
        ...(installedBelow(destination)
          ? []
          : [
              "  npm install --save-dev sapling-llm   # first: `npx sapling` runs it only once it is installed",
            ]),
        generate,
        ...(format.moduleFormat === "cjs" ? commonJsSnippet : esmSnippet),
        "",
      ].join("\n"),
    );
    return 0;
  },
};

const esmSnippet = [
  '  import { b } from "./baml_client/index.js";',
  "  const evaluation = await b.EvaluateResume(resumeText);",
];

// CommonJS has no top-level await: the call goes in an async function.
const commonJsSnippet = [
  '  import { b } from "./baml_client";',
  "  async function main() {",
  "    const evaluation = await b.EvaluateResume(resumeText);",
  "  }",
  "  main();",
];

/**
 * Whether `npx sapling` in `folder` finds this package: `node_modules/sapling-llm` in the folder or above.
 * Without it, npx would fetch the unrelated npm package named `sapling` (after `npx -p sapling-llm sapling
 * init` in an empty folder, for example).
 */
function installedBelow(folder: string): boolean {
  for (let current = folder; ; current = dirname(current)) {
    if (existsSync(join(current, "node_modules", "sapling-llm"))) return true;
    if (dirname(current) === current) return false;
  }
}

/**
 * The module format of the package that will hold baml_client/: CommonJS when the nearest package.json has
 * no `"type": "module"` (Node's rule, and what `npm init` writes), ESM when it has, or when there is no
 * package.json at all (a fresh folder; ESM is the default of the generated client).
 */
function moduleFormatOf(folder: string): { moduleFormat: "esm" | "cjs"; packageJson?: string } {
  for (let current = folder; ; current = dirname(current)) {
    const path = join(current, "package.json");
    if (existsSync(path)) {
      let type: unknown;
      try {
        type = (JSON.parse(readFileSync(path, "utf8")) as { type?: unknown }).type;
      } catch {
        throw new CliError(
          `${path} is not valid JSON; fix it so init can tell whether the package is ESM or CommonJS.`,
        );
      }
      return { moduleFormat: type === "module" ? "esm" : "cjs", packageJson: path };
    }
    if (dirname(current) === current) return { moduleFormat: "esm" };
  }
}
