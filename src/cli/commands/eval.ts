import { writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import {
  cellKey,
  type EvalCell,
  renderEvalHtml,
  renderEvalJson,
  renderEvalMarkdown,
  renderEvalTable,
} from "../../eval/index.js";
import { mockAnswerProfiles } from "../../testing/index.js";
import { docsUrl } from "../../util/index.js";
import { type CliContext, type Command, UsageError } from "../cli-context.js";
import { dotenvFlags, dotenvUsage, environmentFor } from "../dotenv.js";
import { displayPath, loadCompiledProject, projectDirectory } from "../load-project.js";
import { booleanFlag, optionalWholeNumberFlag, parseFlags, stringFlag } from "../parse-flags.js";
import { readPriceFlags } from "../read-price-flags.js";
import { textFileReader } from "../text-file-reader.js";
import { unknownFunction } from "../unknown-function.js";
import { type EvalRow, readEvalRows } from "./eval-data.js";
import {
  checkReplayRecords,
  type EvalPlan,
  evalMatrix,
  evalScorer,
  readScoreFile,
  readText,
  recordEval,
  summarizeEval,
} from "./eval-run.js";
import { EXPECTED_LABEL, readTestRows } from "./eval-test-rows.js";

const usage = `Usage: sapling eval <Function> (--data ROWS.jsonl|ROWS.csv | --tests) [--client A,B,…] [--mode prompt,tools,native]
                    [--from DIR] [--score FILE] [--record DIR | --replay DIR] [--fresh]
                    [--json | --markdown] [--html FILE] [--concurrency N] [--rpm N] [--tpm N]
                    [--timeout MS] [--price MODEL=INPUT/OUTPUT]… [--progress auto|bar|none]
                    [--dotenv | --dotenv-path FILE]

Runs a function over a dataset with expected values, for every client × output mode, and prints per
cell: first-call parse failures, final failures, row and field accuracy, schema tokens, tokens, latency
p50/p95 and cost, beside two baselines over the same answers (JSON.parse + schema validation; fence
strip + jsonrepair + validation). Rows run on the batch engine: an interrupted eval resumes where it
stopped, never calling the model again for a recorded row. See ${docsUrl("eval.md")}.

Options:
  --data FILE       the rows: JSON lines {"id"?, "args": {…}, "expected": …}, or a .csv file with a
                    column per parameter, an "expected" column (JSON) and an optional "id" column
  --tests           the rows are the function's test blocks that name their expected value with
                    @@check(${EXPECTED_LABEL}, {{ this == {…} }}) (a Jinja literal; none for null)
  --client LIST     clients, comma-separated: names from clients.baml, "provider/model" shorthands, or
                    mock/<profile> for the offline answer profiles (${Object.keys(mockAnswerProfiles).join(", ")});
                    default: the function's client
  --mode LIST       output modes, comma-separated: prompt, tools, native (default prompt)
  --from DIR        the baml_src folder (default ./baml_src)
  --score FILE      per-field scoring overrides (JSON), e.g. {"fields": {"skills": {"list": "set"}}}
  --record DIR      where every answer is recorded (records.jsonl; default .sapling/eval/<Function>,
                    or .sapling/eval/<Function>.tests with --tests);
                    rerunning with the same DIR resumes
  --fresh           delete the records of DIR first and start over
  --replay DIR      re-score the answers recorded in DIR with today's parser, schema and expected
                    values: no model is called; latency, tokens and cost are the recording's
  --json            print the report as JSON instead of the table
  --markdown        print the report as Markdown tables
  --html FILE       also write an HTML report (charts, accuracy per field, failing rows with answers)
  --concurrency N   rows in flight at once per cell (default 8)
  --rpm N, --tpm N  at most N requests / tokens per minute per client
  --timeout MS      a row that takes longer fails
  --price M=IN/OUT  the price of model M in US dollars per million input and output tokens
  --progress MODE   bar (a live line on a terminal) or none; auto: bar on a terminal (default auto)
${dotenvUsage(18)}

Exit codes: 0 the report was printed; 130 interrupted (the records are kept: rerun to resume).

Example:
  sapling eval EvaluateResume --from examples/resume/baml_src --data examples/resume/eval/rows.jsonl \\
    --client mock/clean-json,mock/fenced-prose --mode prompt,tools,native
`;

/** `sapling eval`: accuracy, parse failures, tokens and cost per client × output mode on a dataset. */
export const evalCommand: Command = {
  usage,
  run: async (argv: string[], context: CliContext): Promise<number> => {
    const flags = parseFlags(
      argv,
      {
        from: { type: "string" },
        data: { type: "string" },
        tests: { type: "boolean" },
        client: { type: "string" },
        mode: { type: "string" },
        score: { type: "string" },
        record: { type: "string" },
        replay: { type: "string" },
        fresh: { type: "boolean" },
        json: { type: "boolean" },
        markdown: { type: "boolean" },
        html: { type: "string" },
        concurrency: { type: "string" },
        rpm: { type: "string" },
        tpm: { type: "string" },
        timeout: { type: "string" },
        price: { type: "string", multiple: true },
        progress: { type: "string" },
        ...dotenvFlags,
      },
      1,
    );
    const functionName = flags.positionals[0];
    if (!functionName)
      throw new UsageError(
        "name the function to evaluate, e.g. `sapling eval ExtractResume --data rows.jsonl`",
      );
    const dataFlag = stringFlag(flags, "data");
    const fromTests = booleanFlag(flags, "tests");
    if (dataFlag === undefined && !fromTests)
      throw new UsageError(
        "--data FILE (the rows with their expected values) or --tests (the function's test blocks) is required",
      );
    if (dataFlag !== undefined && fromTests)
      throw new UsageError("--data and --tests both choose the rows; keep one");
    if (booleanFlag(flags, "json") && booleanFlag(flags, "markdown"))
      throw new UsageError("--json and --markdown both choose the output; keep one");
    const replayFlag = stringFlag(flags, "replay");
    if (replayFlag !== undefined)
      for (const flag of ["record", "fresh", "concurrency", "rpm", "tpm", "timeout", "price"])
        if (flags.values[flag] !== undefined)
          throw new UsageError(`--${flag} does not apply with --replay: no model is called`);
    const progressMode = stringFlag(flags, "progress") ?? "auto";
    if (!["auto", "bar", "none"].includes(progressMode))
      throw new UsageError(`--progress must be auto, bar or none, got "${progressMode}"`);

    const sourceFolder = projectDirectory(context, stringFlag(flags, "from"));
    const { ir } = await loadCompiledProject(sourceFolder, context);
    const fn = ir.functions.find((candidate) => candidate.name === functionName);
    if (!fn) throw unknownFunction(functionName, ir);
    const env = await environmentFor(flags, context);
    let rows: EvalRow[];
    if (dataFlag !== undefined)
      rows = readEvalRows(await readText(resolve(context.cwd, dataFlag), "--data", dataFlag), dataFlag, fn);
    else {
      const tests = await readTestRows(ir, fn, { projectDir: sourceFolder, env });
      if (tests.skipped.length > 0)
        context.stderr(
          `sapling eval: ${tests.skipped.length} test block${tests.skipped.length === 1 ? "" : "s"} of ${fn.name} without @@check(${EXPECTED_LABEL}, {{ this == … }}) left out: ${tests.skipped.join(", ")}\n`,
        );
      rows = tests.rows;
    }
    const scoreFlag = stringFlag(flags, "score");
    const { scorer, repairName } = await evalScorer(
      ir,
      fn,
      scoreFlag === undefined
        ? undefined
        : { value: await readScoreFile(resolve(context.cwd, scoreFlag), scoreFlag), shown: scoreFlag },
    );
    const matrix: EvalCell[] | null =
      replayFlag !== undefined && flags.values.client === undefined && flags.values.mode === undefined
        ? null
        : evalMatrix(
            listFlag(stringFlag(flags, "client")) ?? [fn.client],
            listFlag(stringFlag(flags, "mode")) ?? ["prompt"],
          );
    const recordDirectory =
      replayFlag ??
      stringFlag(flags, "record") ??
      join(".sapling", "eval", `${functionName}${fromTests ? ".tests" : ""}`);
    const plan: EvalPlan = {
      ir,
      fn,
      rows,
      matrix,
      scorer,
      repairName,
      recordsPath: join(resolve(context.cwd, recordDirectory), "records.jsonl"),
      display: (path) => displayPath(context, path),
    };

    if (replayFlag !== undefined) await checkReplayRecords(plan);
    else {
      const bar = progressMode === "bar" || (progressMode === "auto" && context.isTTY === true);
      const controller = new AbortController();
      void context.interrupted.then(() => controller.abort(new Error("interrupted")));
      let drawnAt = 0;
      const interrupted = await recordEval(
        plan,
        {
          env,
          readTextFile: textFileReader(context.cwd),
          prices: readPriceFlags((flags.values.price as string[] | undefined) ?? []),
          concurrency: optionalWholeNumberFlag(flags, "concurrency", 1),
          rpm: optionalWholeNumberFlag(flags, "rpm", 1),
          tpm: optionalWholeNumberFlag(flags, "tpm", 1),
          timeoutMs: optionalWholeNumberFlag(flags, "timeout", 1),
          signal: controller.signal,
          onProgress: ({ cell, position, cells, count, rows: total, final }) => {
            if (!bar) return;
            const now = Date.now();
            if (!final && now - drawnAt < 100) return;
            drawnAt = now;
            const filled = Math.round((total === 0 ? 1 : count / total) * 24);
            context.stderr(
              `\r\x1b[2K[${position + 1}/${cells}] ${cellKey(cell)}  ${"█".repeat(filled)}${"░".repeat(24 - filled)} ${count}/${total}${final ? "\n" : ""}`,
            );
          },
          onCellDone: (cell, recordedBefore) => {
            if (!bar)
              context.stderr(
                `sapling eval: ${cellKey(cell)}: ${rows.length} rows${recordedBefore > 0 ? ` (${recordedBefore} recorded by an earlier run)` : ""}\n`,
              );
          },
        },
        booleanFlag(flags, "fresh"),
      );
      if (interrupted) {
        context.stderr(
          `Interrupted. The records in ${displayPath(context, plan.recordsPath)} are kept: rerun the same command to resume.\n`,
        );
        return 130;
      }
    }

    const { report, failures } = await summarizeEval(plan, replayFlag !== undefined);
    if (booleanFlag(flags, "json")) context.stdout(renderEvalJson(report));
    else if (booleanFlag(flags, "markdown")) context.stdout(renderEvalMarkdown(report));
    else context.stdout(renderEvalTable(report));
    const htmlFlag = stringFlag(flags, "html");
    if (htmlFlag !== undefined) {
      await writeFile(resolve(context.cwd, htmlFlag), renderEvalHtml(report, failures));
      context.stderr(`sapling eval: wrote the HTML report to ${htmlFlag}\n`);
    }
    return 0;
  },
};

function listFlag(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const items = value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
  return items.length === 0 ? undefined : items;
}
