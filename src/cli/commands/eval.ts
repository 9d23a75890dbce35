import { createReadStream } from "node:fs";
import { mkdir, open, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import {
  CellAggregate,
  cellKey,
  type EvalCell,
  EvalConfigError,
  type EvalFailure,
  type EvalMode,
  type EvalRecord,
  type EvalReport,
  evalModes,
  type JsonRepair,
  measureSchemaTokens,
  parseScoreConfig,
  RecordScorer,
  recordCheckpoint,
  renderEvalHtml,
  renderEvalJson,
  renderEvalMarkdown,
  renderEvalTable,
  replayRecord,
  runEvalCell,
  type ScoreConfig,
} from "../../eval/index.js";
import { IrIndex, type LlmFunction } from "../../ir/index.js";
import { ClientRegistry, SaplingRuntime } from "../../runtime/index.js";
import {
  mockAnswerProfiles,
  profileAnswerKey,
  respondWithProfiles,
  startMockLlmServer,
} from "../../testing/index.js";
import { docsUrl } from "../../util/index.js";
import { type CliContext, CliError, type Command, UsageError } from "../cli-context.js";
import { loadTokenCounter } from "../count-tokens.js";
import { dotenvFlags, dotenvUsage, environmentFor } from "../dotenv.js";
import { isPackageMissing } from "../is-package-missing.js";
import { displayPath, loadCompiledProject, projectDirectory } from "../load-project.js";
import { booleanFlag, optionalWholeNumberFlag, parseFlags, stringFlag } from "../parse-flags.js";
import { providerExtensions } from "../provider-extensions.js";
import { readPriceFlags } from "../read-price-flags.js";
import { textFileReader } from "../text-file-reader.js";
import { unknownFunction } from "../unknown-function.js";
import { digestRows } from "./batch-rows.js";
import { type EvalRow, readEvalRows } from "./eval-data.js";

const usage = `Usage: sapling eval <Function> --data ROWS.jsonl|ROWS.csv [--client A,B,…] [--mode prompt,tools,native]
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
  --client LIST     clients, comma-separated: names from clients.baml, "provider/model" shorthands, or
                    mock/<profile> for the offline answer profiles (${Object.keys(mockAnswerProfiles).join(", ")});
                    default: the function's client
  --mode LIST       output modes, comma-separated: prompt, tools, native (default prompt)
  --from DIR        the baml_src folder (default ./baml_src)
  --score FILE      per-field scoring overrides (JSON), e.g. {"fields": {"skills": {"list": "set"}}}
  --record DIR      where every answer is recorded (records.jsonl; default .sapling/eval/<Function>);
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

/** The first line of a records file: what the records belong to, checked when a run resumes or replays. */
interface RecordsHeader {
  eval: { function: string; rows: string; version: 1 };
}

/** `sapling eval`: accuracy, parse failures, tokens and cost per client × output mode on a dataset. */
export const evalCommand: Command = {
  usage,
  run: async (argv: string[], context: CliContext): Promise<number> => {
    const flags = parseFlags(
      argv,
      {
        from: { type: "string" },
        data: { type: "string" },
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
    if (!dataFlag) throw new UsageError("--data FILE is required: the rows with their expected values");
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

    const { ir } = await loadCompiledProject(projectDirectory(context, stringFlag(flags, "from")), context);
    const fn = ir.functions.find((candidate) => candidate.name === functionName);
    if (!fn) throw unknownFunction(functionName, ir);
    const dataText = await readText(resolve(context.cwd, dataFlag), "--data", dataFlag);
    const rows = readEvalRows(dataText, dataFlag, fn);
    const scoreFlag = stringFlag(flags, "score");
    const scoreConfig = scoreFlag === undefined ? undefined : await readScoreConfig(context, scoreFlag);
    const repair = await loadJsonRepair();
    let scorer: RecordScorer;
    try {
      scorer = new RecordScorer(new IrIndex(ir), fn.returnType, scoreConfig, repair);
    } catch (error) {
      if (error instanceof EvalConfigError) throw new CliError(`--score ${scoreFlag}: ${error.message}`);
      throw error;
    }
    const clients = listFlag(stringFlag(flags, "client")) ?? [fn.client];
    const modes = (listFlag(stringFlag(flags, "mode")) ?? ["prompt"]).map((mode) => {
      if (!(evalModes as readonly string[]).includes(mode))
        throw new UsageError(
          `--mode: "${mode}" is not an output mode; the modes are ${evalModes.join(", ")}`,
        );
      return mode as EvalMode;
    });
    const matrix: EvalCell[] | null =
      replayFlag !== undefined && flags.values.client === undefined && flags.values.mode === undefined
        ? null
        : clients.flatMap((client) => modes.map((mode) => ({ client, mode })));
    const digest = digestRows(rows.map((row) => ({ id: row.id, args: row.args })));

    let recordsPath: string;
    if (replayFlag !== undefined) {
      recordsPath = join(resolve(context.cwd, replayFlag), "records.jsonl");
      await checkHeader(recordsPath, functionName, digest, context, "--replay");
    } else {
      const directory = resolve(
        context.cwd,
        stringFlag(flags, "record") ?? join(".sapling", "eval", functionName),
      );
      recordsPath = join(directory, "records.jsonl");
      if (booleanFlag(flags, "fresh")) await rm(recordsPath, { force: true });
      const interrupted = await runMatrix(
        ir,
        matrix ?? [],
        fn,
        rows,
        recordsPath,
        digest,
        flags,
        context,
        progressMode,
      );
      if (interrupted) {
        context.stderr(
          `Interrupted. The records in ${displayPath(context, recordsPath)} are kept: rerun the same command to resume.\n`,
        );
        return 130;
      }
    }

    const expected = new Map(rows.map((row) => [row.id, row.expected]));
    const replayRuntime = replayFlag === undefined ? undefined : SaplingRuntime.fromIr(ir);
    const { report, failures } = await summarize(recordsPath, matrix, functionName, expected, scorer, {
      replay:
        replayRuntime === undefined
          ? undefined
          : (record) => replayRecord(replayRuntime, functionName, record),
      repairName: repair === undefined ? null : "jsonrepair",
      rows: rows.length,
    });
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

async function readText(path: string, flag: string, shown: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new CliError(
      `cannot read ${flag} ${shown}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

async function readScoreConfig(context: CliContext, file: string): Promise<ScoreConfig> {
  const text = await readText(resolve(context.cwd, file), "--score", file);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(`--score ${file}: not JSON (${(error as Error).message})`);
  }
  try {
    return parseScoreConfig(value, file);
  } catch (error) {
    if (error instanceof EvalConfigError) throw new CliError(error.message);
    throw error;
  }
}

/** jsonrepair for the repair baseline: a devDependency, so loaded only when installed. */
async function loadJsonRepair(): Promise<JsonRepair | undefined> {
  try {
    const module = (await import("jsonrepair")) as { jsonrepair: JsonRepair };
    return module.jsonrepair;
  } catch (error) {
    if (isPackageMissing(error, "jsonrepair")) return undefined;
    throw error;
  }
}

async function checkHeader(
  path: string,
  functionName: string,
  digest: string,
  context: CliContext,
  flag: string,
): Promise<boolean> {
  let first: string | undefined;
  try {
    const handle = await open(path, "r");
    try {
      const lines = handle.readLines();
      for await (const line of lines) {
        first = line;
        break;
      }
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      if (flag === "--replay")
        throw new CliError(
          `--replay: ${displayPath(context, path)} does not exist; record an eval first (--record DIR)`,
        );
      return false;
    }
    throw error;
  }
  if (first === undefined) return false;
  let header: RecordsHeader | undefined;
  try {
    header = JSON.parse(first) as RecordsHeader;
  } catch {}
  const where = displayPath(context, path);
  if (header?.eval?.version !== 1)
    throw new CliError(
      `${where}: not the records of a sapling eval. Choose another --record DIR, or delete the file.`,
    );
  if (header.eval.function !== functionName)
    throw new CliError(
      `${where} holds an eval of ${header.eval.function}, not ${functionName}. Choose another directory.`,
    );
  if (header.eval.rows !== digest)
    throw new CliError(
      `${where} was recorded over other rows (ids or arguments differ from --data). ${flag === "--replay" ? "Replay it with the dataset it was recorded with" : "Use --fresh to start over, or another --record DIR"}; expected values may change freely.`,
    );
  return true;
}

/** Reads the records file line by line (a last line cut by a kill is ignored), header skipped. */
async function* readRecords(path: string): AsyncGenerator<EvalRecord> {
  const size = (await stat(path)).size;
  const lines = createInterface({
    input: createReadStream(path, { encoding: "utf8" }),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let offset = 0;
  let number = 0;
  for await (const line of lines) {
    number += 1;
    offset += Buffer.byteLength(line) + 1;
    if (number === 1 || line.trim() === "") continue;
    let record: EvalRecord;
    try {
      record = JSON.parse(line) as EvalRecord;
    } catch {
      if (offset > size) return; // the last line, cut by a kill
      throw new CliError(
        `${path}:${number}: not a record (not JSON). The file is damaged: rerun with --fresh.`,
      );
    }
    yield record;
  }
}

/**
 * A run killed while writing leaves a last line without its newline: cut it off before appending, so the
 * next record starts on a line of its own (that row runs again).
 */
async function dropCutLine(path: string): Promise<void> {
  const handle = await open(path, "r+");
  try {
    const { size } = await handle.stat();
    const tail = Buffer.alloc(Math.min(size, 1 << 20));
    await handle.read(tail, 0, tail.length, size - tail.length);
    if (tail.length === 0 || tail[tail.length - 1] === 0x0a) return;
    const lastNewline = tail.lastIndexOf(0x0a);
    if (lastNewline === -1)
      throw new CliError(
        `${path}: its last line is longer than 1 MB and cut; rerun with --fresh to start over.`,
      );
    await handle.truncate(size - tail.length + lastNewline + 1);
  } finally {
    await handle.close();
  }
}

/** Runs every cell; resolves `true` when interrupted. */
async function runMatrix(
  ir: unknown,
  matrix: readonly EvalCell[],
  fn: LlmFunction,
  rows: readonly EvalRow[],
  recordsPath: string,
  digest: string,
  flags: ReturnType<typeof parseFlags>,
  context: CliContext,
  progressMode: string,
): Promise<boolean> {
  const resuming = await checkHeader(recordsPath, fn.name, digest, context, "--record");
  await mkdir(resolve(recordsPath, ".."), { recursive: true });
  const finished = new Map<string, Set<string>>();
  if (resuming) {
    await dropCutLine(recordsPath);
    for await (const record of readRecords(recordsPath)) {
      const key = cellKey(record);
      const ids = finished.get(key) ?? new Set<string>();
      ids.add(record.id);
      finished.set(key, ids);
    }
  } else {
    const header: RecordsHeader = { eval: { function: fn.name, rows: digest, version: 1 } };
    await writeFile(recordsPath, `${JSON.stringify(header)}\n`);
  }

  const registry = new ClientRegistry();
  const profiles = matrix
    .filter((cell) => cell.client.startsWith("mock/"))
    .map((cell) => cell.client.slice(5));
  for (const profile of profiles)
    if (!(profile in mockAnswerProfiles))
      throw new UsageError(
        `--client: mock/${profile} is not an answer profile; the profiles are ${Object.keys(
          mockAnswerProfiles,
        )
          .map((name) => `mock/${name}`)
          .join(", ")}`,
      );
  const mock =
    profiles.length === 0
      ? undefined
      : await startMockLlmServer({ respond: respondWithProfiles(profileAnswerKey(rows)) });
  for (const profile of new Set(profiles))
    registry.addLlmClient(`mock/${profile}`, "openai-generic", {
      base_url: mock?.baseUrls.openai,
      model: profile,
      api_key: "none",
    });
  const runtime = SaplingRuntime.fromIr(ir, {
    env: await environmentFor(flags, context),
    readTextFile: textFileReader(context.cwd),
    providers: providerExtensions,
    prices: readPriceFlags((flags.values.price as string[] | undefined) ?? []),
  });
  const counter = await loadTokenCounter();
  const countTokens = counter === undefined ? undefined : (text: string) => counter(text).o200k_base;
  const concurrency = optionalWholeNumberFlag(flags, "concurrency", 1);
  const rpm = optionalWholeNumberFlag(flags, "rpm", 1);
  const tpm = optionalWholeNumberFlag(flags, "tpm", 1);
  const timeoutMs = optionalWholeNumberFlag(flags, "timeout", 1);
  const bar = progressMode === "bar" || (progressMode === "auto" && context.isTTY === true);
  const controller = new AbortController();
  void context.interrupted.then(() => controller.abort(new Error("interrupted")));
  const handle = await open(recordsPath, "a");
  // Rows finish concurrently; their lines are written one after another.
  let writing: Promise<unknown> = Promise.resolve();
  try {
    for (const [position, cell] of matrix.entries()) {
      const done = finished.get(cellKey(cell)) ?? new Set<string>();
      const batchRows = rows.map((row) => ({ id: row.id, args: row.args }));
      const schemaTokens = await measureSchemaTokens(
        runtime,
        fn.name,
        rows[0]?.args ?? {},
        cell,
        countTokens,
        registry,
      );
      let count = done.size;
      let drawnAt = 0;
      const draw = (final: boolean) => {
        if (!bar) return;
        const now = Date.now();
        if (!final && now - drawnAt < 100) return;
        drawnAt = now;
        const share = rows.length === 0 ? 1 : count / rows.length;
        const filled = Math.round(share * 24);
        context.stderr(
          `\r\x1b[2K[${position + 1}/${matrix.length}] ${cellKey(cell)}  ${"█".repeat(filled)}${"░".repeat(24 - filled)} ${count}/${rows.length}${final ? "\n" : ""}`,
        );
      };
      const report = await runEvalCell(runtime, fn.name, batchRows, cell, {
        checkpoint: recordCheckpoint(done),
        schemaTokens,
        concurrency,
        timeoutMs,
        rateLimit:
          rpm === undefined && tpm === undefined
            ? undefined
            : {
                ...(rpm !== undefined ? { requestsPerMinute: rpm } : {}),
                ...(tpm !== undefined ? { tokensPerMinute: tpm } : {}),
              },
        clientRegistry: registry,
        signal: controller.signal,
        onRecord: (record) => {
          // The eval never reads the mock's request log; emptied, it stays small however many rows run.
          if (mock) mock.requests.length = 0;
          writing = writing.then(() => handle.write(`${JSON.stringify(record)}\n`));
          count += 1;
          draw(false);
          return writing as Promise<void>;
        },
      });
      draw(true);
      if (!bar)
        context.stderr(
          `sapling eval: ${cellKey(cell)}: ${rows.length} rows${done.size > 0 ? ` (${done.size} recorded by an earlier run)` : ""}\n`,
        );
      if (report.stoppedBy === "aborted") return true;
    }
    return false;
  } finally {
    await writing;
    await handle.close();
    await mock?.close();
  }
}

/** Sums the records of the cells (all cells of the file, in order of appearance, when `matrix` is null). */
async function summarize(
  recordsPath: string,
  matrix: readonly EvalCell[] | null,
  functionName: string,
  expected: ReadonlyMap<string, unknown>,
  scorer: RecordScorer,
  options: {
    replay: ((record: EvalRecord) => EvalRecord) | undefined;
    repairName: string | null;
    rows: number;
  },
): Promise<{ report: EvalReport; failures: EvalFailure[] }> {
  const aggregates = new Map<string, CellAggregate>();
  for (const cell of matrix ?? [])
    aggregates.set(cellKey(cell), new CellAggregate(cell, scorer.values.fieldNames));
  const seen = new Set<string>();
  const failures: EvalFailure[] = [];
  const failuresPerCell = new Map<string, number>();
  for await (const recorded of readRecords(recordsPath)) {
    const key = cellKey(recorded);
    if (!expected.has(recorded.id)) continue; // a row no longer in the dataset
    let aggregate = aggregates.get(key);
    if (!aggregate) {
      if (matrix !== null) continue;
      aggregate = new CellAggregate(
        { client: recorded.client, mode: recorded.mode },
        scorer.values.fieldNames,
      );
      aggregates.set(key, aggregate);
    }
    const rowKey = `${key}\u0000${recorded.id}`;
    if (seen.has(rowKey)) continue;
    seen.add(rowKey);
    const record = options.replay ? options.replay(recorded) : recorded;
    const scored = scorer.score(record, expected.get(record.id));
    aggregate.add(scored);
    const shown = failuresPerCell.get(key) ?? 0;
    if (!scored.score.correct && shown < 20) {
      failuresPerCell.set(key, shown + 1);
      failures.push({ cell: key, record, expected: expected.get(record.id), fields: scored.score.fields });
    }
  }
  return {
    report: {
      function: functionName,
      rows: options.rows,
      cells: [...aggregates.values()].map((aggregate) => aggregate.summary()),
      repairBaseline: options.repairName,
    },
    failures,
  };
}
