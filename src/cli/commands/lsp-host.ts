import { readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { summarizeDiagnostics } from "../../diagnostics/index.js";
import { IrIndex } from "../../ir/index.js";
import { compile } from "../../language/index.js";
import {
  type LanguageServerHost,
  type RenderTestPromptRequest,
  startLanguageServer,
} from "../../lsp/index.js";
import { renderPrompt } from "../../prompt/index.js";
import { validateArguments } from "../../runtime/index.js";
import type { CliContext } from "../cli-context.js";
import { formatRenderedMessages } from "./format-rendered-messages.js";
import { resolvePromptClient } from "./render-client.js";
import { SAPLING_VERSION } from "./sapling-version.js";
import { toTestArguments } from "./test-arguments.js";
import { testTypeExtension } from "./test-type-extension.js";

/**
 * The machine side of `sapling lsp`: the file system, the environment and the renderer of `sapling
 * render`, given to the server over standard input and output. Loaded only by `sapling lsp`, so the
 * server library stays off every other command's start-up path.
 */
export async function runLanguageServer(context: CliContext): Promise<number> {
  const server = startLanguageServer({
    input: process.stdin,
    output: process.stdout,
    host: nodeHost(context),
  });
  await server.closed;
  // The server library watches the editor's process with a timer; nothing is left to do once it is gone.
  process.exit(0);
}

/** The host over this machine's file system and environment. */
export function nodeHost(context: Pick<CliContext, "env">): LanguageServerHost {
  return {
    version: SAPLING_VERSION,
    listBamlFiles: async (dir) => {
      const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
      return entries
        .filter((entry) => entry.isFile() && entry.name.endsWith(".baml"))
        .map((entry) =>
          relative(
            dir,
            join(
              (entry as { parentPath?: string }).parentPath ?? (entry as { path: string }).path,
              entry.name,
            ),
          )
            .split(sep)
            .join("/"),
        )
        .sort();
    },
    readFile: (path) => readFile(path, "utf8").catch(() => undefined),
    renderTestPrompt: (request) => renderTestPrompt(request, context.env),
  };
}

/** A test case's prompt, rendered as `sapling render` prints it (the test's type_builder applied). */
export async function renderTestPrompt(
  request: RenderTestPromptRequest,
  env: Record<string, string | undefined>,
): Promise<string> {
  const { ir: projectIr, diagnostics } = compile(request.sources);
  if (!projectIr)
    throw new Error(`The project has ${summarizeDiagnostics(diagnostics)}; fix them to render prompts.`);
  const test = projectIr.tests.find(
    (item) => item.name === request.testName && item.functions.includes(request.functionName),
  );
  if (!test)
    throw new Error(`The project has no test ${request.testName} of function ${request.functionName}.`);
  const ir = test.typeBuilder ? testTypeExtension(test.typeBuilder).applyTo(projectIr) : projectIr;
  const index = new IrIndex(ir);
  const fn = index.getFunction(request.functionName);
  const args = await toTestArguments(test, fn.name, index, { projectDir: request.dir, env });
  validateArguments(fn, args, index);
  const client = resolvePromptClient(ir, fn.client);
  const messages = renderPrompt(ir, fn.name, args, { client });
  return `${fn.name}::${test.name}\n\n${formatRenderedMessages(messages, client.name, undefined)}`;
}
