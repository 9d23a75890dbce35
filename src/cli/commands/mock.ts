import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { constants } from "node:os";
import { resolve } from "node:path";
import {
  type MockScript,
  MockScriptError,
  parseMockScript,
  type RecordedRequest,
  startMockLlmServer,
} from "../../testing/index.js";
import { docsUrl } from "../../util/index.js";
import { type CliContext, CliError, type Command, UsageError } from "../cli-context.js";
import { booleanFlag, parseFlags, portFlag, stringFlag } from "../parse-flags.js";

const osSignals: Partial<Record<string, number>> = constants.signals;

/** The port `sapling mock` listens on unless told otherwise (`sapling serve` uses 2024). */
export const MOCK_DEFAULT_PORT = 2025;

const usage = `Usage: sapling mock [--answers FILE] [--answer TEXT] [--port N] [--quiet] [-- COMMAND [ARGS…]]

Starts Sapling's mock LLM server on 127.0.0.1: it speaks the OpenAI (chat completions and Responses),
Anthropic, Gemini, Vertex AI and Bedrock wire formats, whole and streamed, and answers with the scripted
answers of FILE in order, then with the default answer. It prints its URL and a client block to paste
into baml_src/. No API key and no network: use it for a first call, demos and tests.

With -- COMMAND, it runs COMMAND once it listens, with LOCAL_LLM_BASE_URL (the base_url of the Local
client that \`sapling init\` writes) and SAPLING_MOCK_URL set, stops when COMMAND ends, and exits with
COMMAND's exit code.

Options:
  --answers FILE  a JSON answer file: answers in order, per-route queues, a default answer, and faults
                  (HTTP errors, resets, malformed streams, hangs, delays); see ${docsUrl("mock-llm-server.md")}
  --answer TEXT   the default answer: sent for every request the file does not script
  --port N        the port (default ${MOCK_DEFAULT_PORT}; 0 picks a free one)
  --quiet         do not log requests (they are logged to stderr)

Example:
  echo '["{\\"name\\": \\"Ada\\", \\"age\\": 36}"]' > answers.json
  sapling mock --answers answers.json
  sapling mock --answers answers.json -- node dist/main.js
`;

/** `sapling mock`: the mock LLM server from the command line, with scripted answers and faults. */
export const mockCommand: Command = {
  usage,
  run: async (argv: string[], context: CliContext): Promise<number> => {
    const separator = argv.indexOf("--");
    const command = separator === -1 ? [] : argv.slice(separator + 1);
    if (separator !== -1 && command.length === 0)
      throw new UsageError("name the command to run after --, e.g. `sapling mock -- node dist/main.js`");
    const flags = parseFlags(
      separator === -1 ? argv : argv.slice(0, separator),
      {
        answers: { type: "string" },
        answer: { type: "string" },
        port: { type: "string" },
        quiet: { type: "boolean" },
      },
      0,
    );
    const port = portFlag(flags, "port", MOCK_DEFAULT_PORT);
    const file = stringFlag(flags, "answers");
    const script: MockScript = file ? await readScript(file, context) : { answers: [], routes: {} };
    const answerText = stringFlag(flags, "answer");
    if (answerText !== undefined) {
      if (script.defaultAnswer)
        throw new UsageError(`--answer and the "default" of ${file} both set the default answer; keep one`);
      script.defaultAnswer = { text: answerText };
    }
    const quiet = booleanFlag(flags, "quiet");
    const server = await startMockLlmServer({
      port,
      // Only counted and logged here: the bodies need not stay in memory while it runs.
      maxRecordedRequests: 0,
      ...(script.defaultAnswer ? { defaultAnswer: script.defaultAnswer } : {}),
      ...(quiet
        ? {}
        : { onRequest: (request) => context.stderr(requestLine(request, server.requestCount())) }),
    }).catch((error: unknown) => {
      if ((error as { code?: unknown }).code === "EADDRINUSE")
        throw new CliError(
          `port ${port} on 127.0.0.1 is in use; pick another with --port N (0 for any free one).`,
        );
      throw new CliError(
        `cannot listen on 127.0.0.1:${port}: ${error instanceof Error ? error.message : error}`,
      );
    });
    server.script(...script.answers);
    for (const [route, answers] of Object.entries(script.routes)) {
      server.scriptFor(route as keyof MockScript["routes"], ...(answers ?? []));
    }
    if (command.length > 0) {
      if (!quiet)
        context.stderr(
          `Mock LLM server at ${server.url}; running ${command.join(" ")} with LOCAL_LLM_BASE_URL=${server.baseUrls.openai}\n`,
        );
      try {
        return await runWhileServing(command, context, {
          LOCAL_LLM_BASE_URL: server.baseUrls.openai,
          SAPLING_MOCK_URL: server.url,
        });
      } finally {
        await server.close();
      }
    }
    context.stdout(banner(server.url, server.baseUrls.openai, script));
    await context.interrupted;
    await server.close();
    const count = server.requestCount();
    context.stdout(`Stopped after ${count} request${count === 1 ? "" : "s"}.\n`);
    return 0;
  },
};

/**
 * Runs `command` with the mock's URLs in its environment and resolves its exit code. Its output goes to
 * the context's stdout and stderr; an interrupt stops it (SIGTERM), and a signal death is exit 128 + n.
 */
function runWhileServing(
  command: string[],
  context: CliContext,
  variables: Record<string, string>,
): Promise<number> {
  const [program, ...args] = command as [string, ...string[]];
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, {
      cwd: context.cwd,
      env: { ...context.env, ...variables },
      stdio: ["ignore", "pipe", "pipe"],
    });
    // Decoded per stream, so a character split across two chunks stays whole.
    child.stdout.setEncoding("utf8").on("data", (text: string) => context.stdout(text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => context.stderr(text));
    void context.interrupted.then(() => child.kill("SIGTERM"));
    child.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new CliError(
          error.code === "ENOENT"
            ? `cannot run ${program}: no such command.`
            : `cannot run ${program}: ${error.message}`,
        ),
      ),
    );
    child.once("close", (code, signal) => {
      if (code !== null) resolve(code);
      else resolve(128 + (signal ? (osSignals[signal] ?? 0) : 0));
    });
  });
}

async function readScript(file: string, context: CliContext): Promise<MockScript> {
  const text = await readFile(resolve(context.cwd, file), "utf8").catch((error: unknown) => {
    throw new CliError(
      `cannot read the answer file ${file}: ${error instanceof Error ? error.message : error}`,
    );
  });
  try {
    return parseMockScript(text);
  } catch (error) {
    if (error instanceof MockScriptError)
      throw new CliError(
        `${file}: ${error.message}\nThe answer file's format: ${docsUrl("mock-llm-server.md")}.`,
      );
    throw error;
  }
}

function banner(url: string, openaiBaseUrl: string, script: MockScript): string {
  const scripted =
    script.answers.length +
    Object.values(script.routes).reduce((sum, answers) => sum + (answers?.length ?? 0), 0);
  const after = script.defaultAnswer
    ? "then the default answer"
    : "then HTTP 500 saying nothing is scripted (add a default answer with --answer TEXT)";
  return [
    `Mock LLM server at ${url}: ${scripted} scripted answer${scripted === 1 ? "" : "s"}, ${after}. Press Ctrl-C to stop.`,
    "",
    `OpenAI-compatible base URL: ${openaiBaseUrl}   (Anthropic: ${url}, Gemini: ${url}/v1beta)`,
    "",
    'Paste this client into baml_src/clients.baml, then call with { client: "Mock" } or --client Mock:',
    "",
    "client<llm> Mock {",
    '  provider "openai-generic"',
    "  options {",
    `    base_url "${openaiBaseUrl}"`,
    '    model "mock"',
    "  }",
    "}",
    "",
    `Or, with the Local client that sapling init writes: LOCAL_LLM_BASE_URL=${openaiBaseUrl}`,
    "",
  ].join("\n");
}

function requestLine(request: RecordedRequest, number: number): string {
  const model = request.model ? ` model ${request.model}` : "";
  return `#${number} ${request.method} ${request.path} (${request.route}${model}${request.stream ? ", streamed" : ""})\n`;
}
