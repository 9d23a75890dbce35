import {
  BamlClientFinishReasonError,
  BamlError,
  BamlValidationError,
  Collector,
  type FunctionLog,
  formatCallSummary,
  ndjsonLine,
  SaplingRuntime,
  streamEvents,
  summarizeCall,
} from "../../runtime/index.js";
import { docsUrl } from "../../util/index.js";
import { type CliContext, CliError, type Command, UsageError } from "../cli-context.js";
import { cliLogger } from "../cli-logger.js";
import { dotenvFlags, dotenvUsage, environmentFor } from "../dotenv.js";
import { loadCompiledProject, projectDirectory } from "../load-project.js";
import { booleanFlag, parseFlags, stringFlag } from "../parse-flags.js";
import { cliRuntimeExtensions } from "../provider-extensions.js";
import { readArgumentsFlag } from "../read-arguments-flag.js";
import { textFileReader } from "../text-file-reader.js";
import { unknownFunction } from "../unknown-function.js";

const usage = `Usage: sapling call <Function> [--from DIR] [--args JSON|@FILE|-] [--stream [--delta]]
                    [--client NAME] [--dotenv | --dotenv-path FILE]

Runs a function of the project with its configured clients (retries and fallbacks included) and prints
the parsed value as JSON, then a summary of the call on stderr (client, latency, tokens, cost, repairs).
Client options read env.NAME from the environment at call time. BAML_LOG=debug also prints each rendered
prompt and raw answer on stderr (keys redacted); BAML_LOG_JSON=true writes log lines as JSON.

Options:
  --from DIR          the baml_src folder (default ./baml_src)
  --args JSON         the arguments as a JSON object keyed by parameter name; @FILE reads them from a file,
                      - from standard input (default {})
  --stream            stream the answer: print partial values as JSON lines (the latest one, at most ten
                      a second), then the final value
  --delta             with --stream, print the delta format instead: {"delta": [...]} lines with only what
                      changed, then {"final": {"delta": [...]}} (${docsUrl("runtime.md", "the-wire-formats")})
  --client NAME       use this client (a declared name or "provider/model") instead of the function's own
${dotenvUsage(20)}

Example:
  sapling call ExtractResume --args '{"resume": "Jane Doe, Rust engineer…"}' --stream
`;

/** How often `--stream` prints a whole partial at most (the latest one each time). */
const PARTIAL_INTERVAL_MS = 100;

/** `sapling call`: run one function for real and print its value. */
export const callCommand: Command = {
  usage,
  run: async (argv: string[], context: CliContext): Promise<number> => {
    const flags = parseFlags(
      argv,
      {
        from: { type: "string" },
        args: { type: "string" },
        stream: { type: "boolean" },
        delta: { type: "boolean" },
        client: { type: "string" },
        ...dotenvFlags,
      },
      1,
    );
    const functionName = flags.positionals[0];
    if (!functionName) throw new UsageError("name the function to call, e.g. `sapling call ExtractResume`");
    const args = await readArgumentsFlag(stringFlag(flags, "args"), context);
    const { ir } = await loadCompiledProject(projectDirectory(context, stringFlag(flags, "from")), context);
    if (!ir.functions.some((fn) => fn.name === functionName)) throw unknownFunction(functionName, ir);
    const env = await environmentFor(flags, context);
    const runtime = SaplingRuntime.fromIr(ir, {
      env,
      readTextFile: textFileReader(context.cwd),
      ...cliRuntimeExtensions,
      ...cliLogger(env, context),
    });
    const controller = new AbortController();
    void context.interrupted.then(() => controller.abort(new Error("interrupted")));
    const client = stringFlag(flags, "client");
    const collector = new Collector("sapling-call");
    const options = { signal: controller.signal, collector, ...(client ? { client } : {}) };
    try {
      const delta = booleanFlag(flags, "delta");
      if (delta && !booleanFlag(flags, "stream")) throw new UsageError("--delta goes with --stream");
      if (delta) {
        // Only what changed: the whole output is about the size of the answer, however long it streams.
        const stream = runtime.stream(functionName, args, options);
        for await (const event of streamEvents(stream, { format: "delta" }))
          context.stdout(ndjsonLine(event));
      } else if (booleanFlag(flags, "stream")) {
        // Whole partials, paced: printing one per chunk would print the answer once per chunk.
        const stream = runtime.stream(functionName, args, {
          ...options,
          partialIntervalMs: PARTIAL_INTERVAL_MS,
        });
        for await (const partial of stream) context.stdout(`${JSON.stringify(partial)}\n`);
        context.stdout(`${JSON.stringify(await stream.getFinalResponse())}\n`);
      } else {
        const value = await runtime.call(functionName, args, options);
        context.stdout(`${JSON.stringify(value, null, 2)}\n`);
      }
      warnIfTruncated(collector.last, context);
      printSummary(collector.last, context);
      return 0;
    } catch (error) {
      printSummary(collector.last, context);
      if (BamlValidationError.isInstance(error) || BamlClientFinishReasonError.isInstance(error)) {
        context.stderr(`The model answered:\n${error.rawOutput}\n\n`);
      }
      if (BamlError.isInstance(error)) throw new CliError(`${functionName} failed: ${error.message}`);
      throw error;
    }
  },
};

/** The per-call summary, the same line the runtime logs at `info` and `sapling serve`'s access log ends with. */
function printSummary(log: FunctionLog | null, context: CliContext): void {
  if (log !== null) context.stderr(`${formatCallSummary(summarizeCall(log))}\n`);
}

/**
 * A cut answer is returned (BAML's rule), but never silently: stderr says so, which fields are incomplete,
 * and the two ways to refuse it.
 */
function warnIfTruncated(log: FunctionLog | null, context: CliContext): void {
  if (!log?.truncated) return;
  const reason = log.selectedCall?.finishReason;
  const fields = log.incompleteFields;
  context.stderr(
    `warning: the answer was cut${reason ? ` (finish reason ${reason})` : ""}` +
      `${fields.length > 0 ? `; incomplete: ${fields.join(", ")}` : ""}.\n` +
      `  To make a cut answer fail, add finish_reason_deny_list ["length"] to the client's options;\n` +
      "  to fall back to the next client instead, also pass parseRecovery: { nextClient: true } in code.\n",
  );
}
