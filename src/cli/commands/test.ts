import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { IrIndex } from "../../ir/index.js";
import { SaplingRuntime } from "../../runtime/index.js";
import { type CliContext, CliError, type Command, UsageError } from "../cli-context.js";
import { dotenvFlags, dotenvUsage, environmentFor } from "../dotenv.js";
import { loadCompiledProject, projectDirectory } from "../load-project.js";
import { booleanFlag, parseFlags, stringFlag } from "../parse-flags.js";
import { cliRuntimeExtensions } from "../provider-extensions.js";
import { textFileReader } from "../text-file-reader.js";
import { renderJunitReport } from "./render-junit-report.js";
import { runTestCase, type TestCaseResult } from "./run-test-case.js";
import { selectTestCases } from "./test-cases.js";
import { TestProgress } from "./test-progress.js";
import { renderSummaryTable } from "./test-summary.js";

const usage = `Usage: sapling test [--from DIR] [-i PATTERN]… [-x PATTERN]… [--client NAME] [--list] [--parallel N]
                    [--junit FILE] [--pass-if-no-tests] [--dotenv | --dotenv-path FILE]

Runs the project's test blocks against their functions' configured clients (real model calls; client
options read env.NAME from the environment) and evaluates each test's @@check and @@assert over the
result (\`this\`; \`_.checks.<label>\` is an earlier check). A failed @@assert or @@check fails the test.

Options:
  --from DIR             the baml_src folder (default ./baml_src)
  -i, --include PATTERN  run only matching tests (repeatable): Function::Test, with * and ? wildcards;
                         "Fn::" is every test of Fn, "::Test" a test in every function, a pattern
                         without :: matches a function or a test name
  -x, --exclude PATTERN  skip matching tests (repeatable; wins over --include)
  --client NAME          run every test with this client (a declared name or "provider/model") instead
                         of its function's own, e.g. the Mock client that \`sapling mock\` prints
  --list                 print the selected tests without running them
  --parallel N           run up to N tests at once (default 10)
  --junit FILE           also write a JUnit XML report to FILE
  --pass-if-no-tests     exit 0 instead of 4 when no test is selected
${dotenvUsage(23)}

Exit codes: 0 every test passed, 1 a test failed, 3 interrupted, 4 no tests selected.
`;

/** `sapling test`: run the `test` blocks, like `baml-cli test`. */
export const testCommand: Command = {
  usage,
  run: async (argv: string[], context: CliContext): Promise<number> => {
    const flags = parseFlags(
      argv,
      {
        from: { type: "string" },
        include: { type: "string", short: "i", multiple: true },
        exclude: { type: "string", short: "x", multiple: true },
        client: { type: "string" },
        list: { type: "boolean" },
        parallel: { type: "string" },
        junit: { type: "string" },
        "pass-if-no-tests": { type: "boolean" },
        ...dotenvFlags,
      },
      0,
    );
    const parallelText = stringFlag(flags, "parallel") ?? "10";
    if (!/^\d+$/.test(parallelText) || Number(parallelText) < 1)
      throw new UsageError(`--parallel must be a whole number of at least 1, got "${parallelText}"`);
    const parallel = Number(parallelText);
    const projectDir = projectDirectory(context, stringFlag(flags, "from"));
    const { ir } = await loadCompiledProject(projectDir, context);
    const cases = selectTestCases(ir, {
      include: listFlag(flags, "include"),
      exclude: listFlag(flags, "exclude"),
    });
    const client = stringFlag(flags, "client");
    if (client !== undefined && !client.includes("/") && !ir.clients.some((item) => item.name === client)) {
      const known = ir.clients.map((item) => item.name).join(", ") || "none";
      throw new CliError(
        `--client ${client} is not a client of the project (clients: ${known}); name a declared client or "provider/model".`,
      );
    }
    const noTests = booleanFlag(flags, "pass-if-no-tests") ? 0 : 4;
    if (cases.length === 0) {
      const filtered = ir.tests.length > 0 ? " matching the --include/--exclude patterns" : "";
      context.stderr(`No tests${filtered} in the project.\n`);
      return noTests;
    }
    if (booleanFlag(flags, "list")) {
      for (const item of cases) context.stdout(`${item.id}\n`);
      context.stdout(`${cases.length} test${cases.length === 1 ? "" : "s"}\n`);
      return 0;
    }

    const controller = new AbortController();
    let interrupted = false;
    void context.interrupted.then(() => {
      interrupted = true;
      controller.abort(new Error("interrupted"));
    });
    const env = await environmentFor(flags, context);
    const runtime = SaplingRuntime.fromIr(ir, {
      env,
      readTextFile: textFileReader(context.cwd),
      ...cliRuntimeExtensions,
    });
    const index = new IrIndex(ir);
    const progress = new TestProgress(context.stdout, cases.length, context.isTTY === true);
    context.stdout(
      `Running ${cases.length} test${cases.length === 1 ? "" : "s"} (up to ${parallel} at once)\n`,
    );
    const started = performance.now();
    const results = await runPool(
      cases,
      parallel,
      async (item) => {
        progress.started(item);
        const result = await runTestCase(item, runtime, index, {
          projectDir,
          env,
          signal: controller.signal,
          ...(client !== undefined ? { client } : {}),
        });
        progress.finished(result);
        return result;
      },
      () => controller.signal.aborted,
    );
    progress.done();
    const totalMs = performance.now() - started;
    // Cases never started because of the interrupt are reported as cancelled, so nothing goes missing.
    const complete = cases.map(
      (item, position): TestCaseResult =>
        results[position] ?? {
          testCase: item,
          status: "cancelled",
          durationMs: 0,
          constraints: [],
          reason: "interrupted",
        },
    );
    context.stdout(`\n${renderSummaryTable(complete, totalMs)}`);
    const junit = stringFlag(flags, "junit");
    if (junit !== undefined) {
      const path = resolve(context.cwd, junit);
      await writeFile(path, renderJunitReport(complete, totalMs)).catch((error: unknown) => {
        throw new CliError(
          `cannot write the JUnit report ${junit}: ${error instanceof Error ? error.message : error}`,
        );
      });
      context.stdout(`JUnit report: ${junit}\n`);
    }
    if (interrupted) return 3;
    return complete.every((result) => result.status === "passed") ? 0 : 1;
  },
};

function listFlag(flags: ReturnType<typeof parseFlags>, name: string): string[] {
  const value = flags.values[name];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/** Runs `work` over `items` with at most `limit` in flight; results keep the items' order. */
async function runPool<Item, Result>(
  items: readonly Item[],
  limit: number,
  work: (item: Item) => Promise<Result>,
  stopped: () => boolean,
): Promise<(Result | undefined)[]> {
  const results: (Result | undefined)[] = new Array(items.length).fill(undefined);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && !stopped()) {
      const position = next++;
      results[position] = await work(items[position] as Item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
