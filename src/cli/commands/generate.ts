import { resolve } from "node:path";
import { CodegenError, generateClient, resolveGenerators } from "../../codegen/index.js";
import type { Ir } from "../../ir/index.js";
import { type CliContext, CliError, type Command } from "../cli-context.js";
import { displayPath, loadCompiledProject, projectDirectory } from "../load-project.js";
import { booleanFlag, parseFlags, stringFlag } from "../parse-flags.js";
import { watchBamlFiles } from "../watch-baml-files.js";
import { minorVersion, SAPLING_VERSION } from "./sapling-version.js";
import { writeClientFiles } from "./write-client-files.js";

const usage = `Usage: sapling generate [--from DIR] [--watch]

Compiles the .baml files in DIR (default ./baml_src) and writes a TypeScript client, baml_client/, into
the output_dir of every generator with output_type "typescript" (output_dir is relative to DIR).

Options:
  --from DIR   the baml_src folder to compile
  --watch      regenerate whenever a .baml file changes (Ctrl-C to stop)
`;

/** `sapling generate`: `baml_src/` → `baml_client/`, once or on every change. */
export const generateCommand: Command = {
  usage,
  run: async (argv: string[], context: CliContext): Promise<number> => {
    const flags = parseFlags(argv, { from: { type: "string" }, watch: { type: "boolean" } }, 0);
    const sourceFolder = projectDirectory(context, stringFlag(flags, "from"));
    if (!booleanFlag(flags, "watch")) {
      await generateOnce(sourceFolder, context);
      return 0;
    }
    return watchAndGenerate(sourceFolder, context);
  },
};

/**
 * Compiles the project and writes every TypeScript client. Compile errors, a project without a
 * TypeScript generator, and names the generator cannot emit end with a `CliError`; nothing is written
 * for a project with errors.
 */
async function generateOnce(sourceFolder: string, context: CliContext): Promise<void> {
  const { ir } = await loadCompiledProject(sourceFolder, context);
  writeGeneratedClients(ir, sourceFolder, context);
}

/**
 * Writes every TypeScript client of a compiled project (what `generate` does after compiling; `sapling
 * dev` calls it after each good compile). Warnings go to stderr, one line per client to stdout; a project
 * without a TypeScript generator, or a name the generator cannot emit, is a `CliError`.
 */
export function writeGeneratedClients(ir: Ir, sourceFolder: string, context: CliContext): void {
  const generators = resolveGenerators(ir);
  for (const { skipReason } of generators) if (skipReason) context.stderr(`warning: ${skipReason}\n`);
  const runnable = generators.filter((item) => item.skipReason === null).map((item) => item.generator);
  if (runnable.length === 0) {
    throw new CliError(
      `${displayPath(context, sourceFolder)} has no generator with output_type "typescript". Add one:\n` +
        '  generator target {\n    output_type "typescript"\n    output_dir "../"\n  }',
    );
  }
  for (const generator of runnable) {
    if (
      generator.version !== undefined &&
      minorVersion(generator.version) !== minorVersion(SAPLING_VERSION)
    ) {
      context.stderr(
        `warning: generator ${generator.name} asks for version ${generator.version}, but this is Sapling ` +
          `${SAPLING_VERSION}; update the generator's version (or the sapling package) so they match.\n`,
      );
    }
    if (generator.defaultClientMode === "sync") {
      context.stderr(
        `warning: generator ${generator.name}: default_client_mode "sync" has no effect; JavaScript cannot wait for ` +
          "an LLM call without blocking, so `b` stays async (`b.parse` and `b.parseStream` are synchronous).\n",
      );
    }
    let files: Record<string, string>;
    try {
      files = generateClient(ir, generator);
    } catch (error) {
      if (error instanceof CodegenError) throw new CliError(`generator ${generator.name}: ${error.message}`);
      throw error;
    }
    const clientFolder = resolve(sourceFolder, generator.outputDir, "baml_client");
    const summary = writeClientFiles(clientFolder, files);
    const changes = [
      `${summary.written.length} written`,
      `${summary.unchanged.length} unchanged`,
      ...(summary.removed.length > 0 ? [`${summary.removed.length} stale removed`] : []),
    ];
    context.stdout(
      `Generated ${displayPath(context, clientFolder)}/ for generator ${generator.name} (${changes.join(", ")}).\n`,
    );
  }
}

/**
 * Generates, then regenerates after each burst of `.baml` changes until the user interrupts. Failures are
 * reported and watching goes on: the next save may fix them.
 */
async function watchAndGenerate(sourceFolder: string, context: CliContext): Promise<number> {
  let running = Promise.resolve();
  const regenerate = (): void => {
    running = running.then(() =>
      generateOnce(sourceFolder, context).catch((error: unknown) => {
        if (!(error instanceof CliError) && !isFileSystemError(error)) throw error;
        context.stderr(`sapling generate: ${error instanceof Error ? error.message : String(error)}\n`);
      }),
    );
  };
  regenerate();
  await running;
  context.stdout(`Watching ${displayPath(context, sourceFolder)} for changes (Ctrl-C to stop).\n`);
  const stopWatching = watchBamlFiles(sourceFolder, regenerate);
  await context.interrupted;
  stopWatching();
  await running;
  context.stdout("Stopped watching.\n");
  return 0;
}

/** A file removed or unreadable mid-save (ENOENT, EACCES, …). */
export function isFileSystemError(error: unknown): boolean {
  return error instanceof Error && typeof (error as { code?: unknown }).code === "string";
}
