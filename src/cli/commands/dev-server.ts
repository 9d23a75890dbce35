import { readFile } from "node:fs/promises";
import { dirname, extname, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import {
  createDevHandler,
  DEV_RUN_HEADER,
  type DevAsset,
  type DevCompilation,
  type DevMock,
  type DevMockAnswer,
  DevSession,
  type DevTestResult,
} from "../../dev/index.js";
import type { Diagnostic } from "../../diagnostics/index.js";
import { IrIndex } from "../../ir/index.js";
import { compile } from "../../language/index.js";
import { answer, type MockAnswer, serverError, startMockLlmServer } from "../../testing/index.js";
import { computeLineStarts, offsetToLineColumn } from "../../util/index.js";
import { type CliContext, CliError, UsageError } from "../cli-context.js";
import { ENCODINGS, loadTokenCounter, TOKENIZER_MISSING } from "../count-tokens.js";
import { dotenvFlags, environmentFor } from "../dotenv.js";
import { displayPath, loadProject, projectDirectory, renderProjectDiagnostics } from "../load-project.js";
import { locateInsideFolder } from "../locate-inside-folder.js";
import { mediaUrlFlags, mediaUrlPolicyFor } from "../media-url-flags.js";
import { booleanFlag, parseFlags, portFlag, stringFlag } from "../parse-flags.js";
import { providerExtensions } from "../provider-extensions.js";
import { textFileReader } from "../text-file-reader.js";
import { watchBamlFiles } from "../watch-baml-files.js";
import { devEvalChoices, devEvalRunner } from "./dev-eval.js";
import { isFileSystemError, writeGeneratedClients } from "./generate.js";
import { MEDIA_TYPES, toMediaArguments } from "./media-arguments.js";
import { resolvePromptClient } from "./render-client.js";
import { runTestCase } from "./run-test-case.js";
import { serveOverNodeHttp } from "./serve-over-node-http.js";
import { selectTestCases } from "./test-cases.js";

/** `sapling dev`'s default port: `sapling serve`'s, as `baml-cli dev` shares `baml-cli serve`'s. */
const DEV_DEFAULT_PORT = 2024;

/** The page's own files; media files take their types from the table `toMediaArguments` uses. */
const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ...MEDIA_TYPES,
};

/** Runs `sapling dev` until interrupted (see `dev.ts` for the usage). */
export async function runDevServer(argv: string[], context: CliContext): Promise<number> {
  const flags = parseFlags(
    argv,
    {
      from: { type: "string" },
      port: { type: "string" },
      mock: { type: "boolean" },
      ...mediaUrlFlags,
      ...dotenvFlags,
    },
    0,
  );
  const port = portFlag(flags, "port", DEV_DEFAULT_PORT);
  const sourceFolder = projectDirectory(context, stringFlag(flags, "from"));
  const env = await environmentFor(flags, context);
  const mediaUrls = await mediaUrlPolicyFor(flags);
  await loadProject(sourceFolder, context); // a missing folder ends the command here, with its message
  // Indexing the tokenizer's ranks takes seconds: the page comes up first, the counts when they are ready.
  const counter = loadTokenCounter();
  const session = new DevSession(await compileAndGenerate(sourceFolder, context), {
    root: displayPath(context, sourceFolder),
    mock: booleanFlag(flags, "mock"),
    env,
    tokenizer: { available: false, encodings: [...ENCODINGS], install: "loading the tokenizer…" },
    eval: await devEvalChoices(sourceFolder),
  });
  const mock = await startDevMock();
  let handler: ((request: Request) => Promise<Response>) | undefined;
  const server = await serveOverNodeHttp((request) => handler!(request), { port, host: "127.0.0.1" }).catch(
    async (error: unknown) => {
      await mock.close();
      if ((error as { code?: unknown }).code === "EADDRINUSE")
        throw new CliError(
          `port ${port} on 127.0.0.1 is in use; pick another with --port N (0 for any free one).`,
        );
      throw new CliError(
        `cannot listen on 127.0.0.1:${port}: ${error instanceof Error ? error.message : error}`,
      );
    },
  );
  handler = createDevHandler({
    session,
    port: server.port,
    readAsset: readPageAsset,
    readProjectFile: (path) => readInside(sourceFolder, path),
    env,
    readTextFile: textFileReader(context.cwd),
    providers: providerExtensions,
    mediaUrls,
    mock: mock.devMock,
    promptClient: resolvePromptClient,
    resolveArguments: (fn, args, testFile) =>
      toMediaArguments(args, fn, new IrIndex(session.ir!), {
        baseDir: testFile ? dirname(resolve(sourceFolder, testFile)) : sourceFolder,
        where: "the arguments",
        relativeTo: testFile ? `the .baml file of the test (${testFile})` : "the baml_src folder",
        // The project: baml_src and its parent, where tests keep their images (`../images/x.png`).
        confineTo: dirname(sourceFolder),
      }),
    runTest: async (ir, id, runtime, signal) => {
      const [testCase] = selectTestCases(ir, { include: [id], exclude: [] });
      if (!testCase) throw new UsageError(`no test ${id}`);
      const result = await runTestCase(testCase, runtime, new IrIndex(ir), {
        projectDir: sourceFolder,
        env,
        signal,
      });
      const view: DevTestResult = {
        id: testCase.id,
        status: result.status,
        durationMs: result.durationMs,
        constraints: result.constraints,
        ...(result.value !== undefined ? { value: result.value } : {}),
        ...(result.reason !== undefined ? { reason: result.reason } : {}),
        ...(result.rawOutput !== undefined ? { rawOutput: result.rawOutput } : {}),
      };
      return view;
    },
    runEval: devEvalRunner(sourceFolder, env, context),
    countTokens: counter.catch(() => undefined),
  });
  void counter.then(
    (loaded) =>
      session.setTokenizer({
        available: loaded !== undefined,
        encodings: [...ENCODINGS],
        install: TOKENIZER_MISSING,
      }),
    (error: unknown) =>
      session.setTokenizer({
        available: false,
        encodings: [...ENCODINGS],
        install: `the tokenizer failed to load: ${error instanceof Error ? error.message : String(error)}`,
      }),
  );
  let reloading = Promise.resolve();
  const stopWatching = watchBamlFiles(sourceFolder, () => {
    reloading = reloading.then(async () => session.update(await compileAndGenerate(sourceFolder, context)));
  });
  const url = `http://127.0.0.1:${server.port}`;
  context.stdout(
    `Sapling dev at ${url} (watching ${displayPath(context, sourceFolder)}` +
      `${booleanFlag(flags, "mock") ? "; runs and tests answer from the mock LLM server" : ""}). Press Ctrl-C to stop.\n`,
  );
  await context.interrupted;
  stopWatching();
  await reloading;
  await server.close();
  await mock.close();
  context.stdout("Stopped.\n");
  return 0;
}

/**
 * Reads and compiles the project, and regenerates baml_client/ when it compiles. Nothing here ends the
 * command: a broken file, a file removed mid-save or a generator that cannot write become messages.
 */
async function compileAndGenerate(sourceFolder: string, context: CliContext): Promise<DevCompilation> {
  let project: Awaited<ReturnType<typeof loadProject>>;
  try {
    project = await loadProject(sourceFolder, context);
  } catch (error) {
    if (!(error instanceof CliError) && !isFileSystemError(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    return {
      ir: undefined,
      diagnostics: { errors: 1, warnings: 0, text: message, items: [] },
      generated: [],
    };
  }
  const { ir, diagnostics } = compile(project.sources);
  const counts = {
    errors: diagnostics.filter((diagnostic) => diagnostic.severity === "error").length,
    warnings: diagnostics.filter((diagnostic) => diagnostic.severity !== "error").length,
  };
  const view = {
    errors: counts.errors,
    warnings: counts.warnings,
    text: diagnostics.length > 0 ? renderProjectDiagnostics(project, diagnostics, context) : "",
    items: diagnostics.map((diagnostic: Diagnostic) => ({
      severity: diagnostic.severity,
      code: diagnostic.code,
      message: diagnostic.message,
      file: diagnostic.file,
      ...offsetToLineColumn(computeLineStarts(project.sources[diagnostic.file] ?? ""), diagnostic.span.start),
    })),
  };
  if (!ir || counts.errors > 0) {
    context.stderr(`${view.text}\n\n`);
    return { ir: undefined, diagnostics: view, generated: [] };
  }
  const generated: string[] = [];
  const capture: CliContext = {
    ...context,
    stdout: (text) => generated.push(text.trimEnd()),
    stderr: (text) => generated.push(text.trimEnd()),
  };
  try {
    writeGeneratedClients(ir, sourceFolder, capture);
  } catch (error) {
    if (!(error instanceof CliError) && !isFileSystemError(error)) throw error;
    generated.push(error instanceof Error ? error.message : String(error));
  }
  for (const line of generated) context.stdout(`${line}\n`);
  return { ir, diagnostics: view, generated };
}

/** The mock LLM server with one answer queue per run, told apart by the header the mock fetch adds. */
async function startDevMock(): Promise<{ devMock: DevMock; close: () => Promise<void> }> {
  const queues = new Map<string, DevMockAnswer[]>();
  const server = await startMockLlmServer({
    // Answered through `respond`, never read back: no request needs to stay in memory.
    maxRecordedRequests: 0,
    respond: (request) => {
      const queue = queues.get(request.headers[DEV_RUN_HEADER] ?? "");
      const next = queue && (queue.length > 1 ? queue.shift() : queue[0]);
      return next ? toMockAnswer(next) : undefined;
    },
    defaultAnswer: serverError(
      500,
      "sapling dev's mock has no answer for this request (it was not sent by the page)",
    ),
  });
  return {
    devMock: {
      url: server.url,
      queue: (runId, answers) => queues.set(runId, [...answers]),
      forget: (runId) => queues.delete(runId),
    },
    close: () => server.close(),
  };
}

function toMockAnswer(item: DevMockAnswer): MockAnswer {
  if (item.type === "http-error") return serverError(item.status, item.message);
  return answer(item.text, { chunkSize: item.chunkSize, chunkDelayMs: item.chunkDelayMs });
}

/**
 * The built page, `dist/ui/`: beside the bundled CLI (this code runs from `dist/cli/bin.js` or a chunk in
 * `dist/chunks/`, both one level below `dist/`), or the checkout's `dist/ui/` when run from source.
 */
const pageFolders = [
  fileURLToPath(new URL("../ui/", import.meta.url)),
  fileURLToPath(new URL("../../../dist/ui/", import.meta.url)),
];

async function readPageAsset(path: string): Promise<DevAsset | undefined> {
  for (const folder of pageFolders) {
    const asset = await readInside(folder, path);
    if (asset) return asset;
  }
  return undefined;
}

/**
 * A file by its path inside `folder`; a path that leaves the folder (`..`, absolute, a symlink leading
 * out) reads nothing.
 */
async function readInside(folder: string, path: string): Promise<DevAsset | undefined> {
  const file = resolve(folder, path);
  if (!file.startsWith(resolve(folder) + sep)) return undefined;
  if ((await locateInsideFolder(folder, file)).where !== "inside") return undefined;
  const body = await readFile(file).catch(() => undefined);
  if (!body) return undefined;
  const contentType = CONTENT_TYPES[extname(file).toLowerCase()] ?? "application/octet-stream";
  return { body: new Uint8Array(body), contentType };
}
