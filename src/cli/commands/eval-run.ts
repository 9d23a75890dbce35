import { createReadStream } from "node:fs";
import { mkdir, open, readFile, rm, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
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
  replayRecord,
  runEvalCell,
} from "../../eval/index.js";
import { type Ir, IrIndex, type LlmFunction } from "../../ir/index.js";
import type { ReadTextFile } from "../../llm/index.js";
import { ClientRegistry, type Prices, SaplingRuntime } from "../../runtime/index.js";
import {
  mockAnswerProfiles,
  profileAnswerKey,
  respondWithProfiles,
  startMockLlmServer,
} from "../../testing/index.js";
import { CliError, UsageError } from "../cli-context.js";
import { loadTokenCounter } from "../count-tokens.js";
import { isPackageMissing } from "../is-package-missing.js";
import { cliRuntimeExtensions } from "../provider-extensions.js";
import { digestRows } from "./batch-rows.js";
import type { EvalRow } from "./eval-data.js";

/**
 * The engine of `sapling eval` on the file system, shared by the command and the `sapling dev` Eval
 * view: the scorer, the matrix, recording the cells into `records.jsonl` (the batch checkpoint: a rerun
 * resumes) and summing a records file into the report, live or replayed.
 */

/** What one eval is about: the function, its rows and cells, how they are scored, where records go. */
export interface EvalPlan {
  ir: Ir;
  fn: LlmFunction;
  rows: readonly EvalRow[];
  /** The cells; `null` for a replay of every cell the records hold. */
  matrix: readonly EvalCell[] | null;
  scorer: RecordScorer;
  /** The name of the repair baseline's library, or `null` when jsonrepair is not installed. */
  repairName: string | null;
  /** The records file (`DIR/records.jsonl`). */
  recordsPath: string;
  /** How a path is shown in messages. */
  display: (path: string) => string;
}

/** How the cells of a live eval call their models. */
export interface EvalRunSettings {
  env: Record<string, string | undefined>;
  readTextFile: ReadTextFile;
  prices?: Prices;
  concurrency?: number;
  rpm?: number;
  tpm?: number;
  timeoutMs?: number;
  signal: AbortSignal;
  /** After each finished row of a cell (`count` of `rows`), and once more with `final` when it is done. */
  onProgress?: (progress: EvalProgress) => void;
  /** A cell is done: how many of its rows an earlier run had recorded. */
  onCellDone?: (cell: EvalCell, recordedBefore: number) => void;
}

export interface EvalProgress {
  cell: EvalCell;
  position: number;
  cells: number;
  count: number;
  rows: number;
  final: boolean;
}

/** The first line of a records file: what the records belong to, checked when a run resumes or replays. */
interface RecordsHeader {
  eval: { function: string; rows: string; version: 1 };
}

/** The cells of `clients` × `modes`; an unknown mode or answer profile is a `UsageError` that lists them. */
export function evalMatrix(clients: readonly string[], modes: readonly string[]): EvalCell[] {
  const checkedModes = modes.map((mode) => {
    if (!(evalModes as readonly string[]).includes(mode))
      throw new UsageError(`--mode: "${mode}" is not an output mode; the modes are ${evalModes.join(", ")}`);
    return mode as EvalMode;
  });
  for (const client of clients)
    if (client.startsWith("mock/") && !(client.slice(5) in mockAnswerProfiles))
      throw new UsageError(
        `--client: ${client} is not an answer profile; the profiles are ${answerProfileClients().join(", ")}`,
      );
  return clients.flatMap((client) => checkedModes.map((mode) => ({ client, mode })));
}

/** The mock answer profiles as clients (`mock/clean-json`, …). */
export function answerProfileClients(): string[] {
  return Object.keys(mockAnswerProfiles).map((name) => `mock/${name}`);
}

/** Reads a scoring file (`--score`); every mistake names the file. */
export async function readScoreFile(path: string, shown: string): Promise<unknown> {
  const text = await readText(path, "--score", shown);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(`--score ${shown}: not JSON (${(error as Error).message})`);
  }
}

/** The scorer of `fn`'s return type with an optional scoring file's value, and the repair baseline. */
export async function evalScorer(
  ir: Ir,
  fn: LlmFunction,
  score: { value: unknown; shown: string } | undefined,
): Promise<{ scorer: RecordScorer; repairName: string | null }> {
  const repair = await loadJsonRepair();
  try {
    const config = score === undefined ? undefined : parseScoreConfig(score.value, score.shown);
    return {
      scorer: new RecordScorer(new IrIndex(ir), fn.returnType, config, repair),
      repairName: repair === undefined ? null : "jsonrepair",
    };
  } catch (error) {
    if (error instanceof EvalConfigError) throw new CliError(`--score ${score?.shown}: ${error.message}`);
    throw error;
  }
}

export async function readText(path: string, flag: string, shown: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new CliError(
      `cannot read ${flag} ${shown}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
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

const rowsDigest = (plan: EvalPlan) => digestRows(plan.rows.map((row) => ({ id: row.id, args: row.args })));

/** Checks that the records of a replay belong to this function and these rows. */
export async function checkReplayRecords(plan: EvalPlan): Promise<void> {
  await checkHeader(plan, "--replay");
}

async function checkHeader(plan: EvalPlan, flag: "--replay" | "--record"): Promise<boolean> {
  const path = plan.recordsPath;
  let first: string | undefined;
  try {
    const handle = await open(path, "r");
    try {
      for await (const line of handle.readLines()) {
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
          `--replay: ${plan.display(path)} does not exist; record an eval first (--record DIR)`,
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
  const where = plan.display(path);
  if (header?.eval?.version !== 1)
    throw new CliError(
      `${where}: not the records of a sapling eval. Choose another --record DIR, or delete the file.`,
    );
  if (header.eval.function !== plan.fn.name)
    throw new CliError(
      `${where} holds an eval of ${header.eval.function}, not ${plan.fn.name}. Choose another directory.`,
    );
  if (header.eval.rows !== rowsDigest(plan))
    throw new CliError(
      `${where} was recorded over other rows (ids or arguments differ from the dataset). ${flag === "--replay" ? "Replay it with the dataset it was recorded with" : "Use --fresh to start over, or another --record DIR"}; expected values may change freely.`,
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

/**
 * Runs every cell of the plan, appending a record per finished row; rows recorded by an earlier run over
 * the same rows are not run again (`fresh` deletes them first). Resolves `true` when interrupted.
 */
export async function recordEval(
  plan: EvalPlan,
  settings: EvalRunSettings,
  fresh: boolean,
): Promise<boolean> {
  const { fn, rows, recordsPath } = plan;
  const matrix = plan.matrix ?? [];
  if (fresh) await rm(recordsPath, { force: true });
  const resuming = await checkHeader(plan, "--record");
  await mkdir(dirname(recordsPath), { recursive: true });
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
    const header: RecordsHeader = { eval: { function: fn.name, rows: rowsDigest(plan), version: 1 } };
    await writeFile(recordsPath, `${JSON.stringify(header)}\n`);
  }

  const registry = new ClientRegistry();
  const profiles = [
    ...new Set(matrix.filter((cell) => cell.client.startsWith("mock/")).map((cell) => cell.client.slice(5))),
  ];
  const mock =
    profiles.length === 0
      ? undefined
      : await startMockLlmServer({ respond: respondWithProfiles(profileAnswerKey(rows)) });
  for (const profile of profiles)
    registry.addLlmClient(`mock/${profile}`, "openai-generic", {
      base_url: mock?.baseUrls.openai,
      model: profile,
      api_key: "none",
    });
  const runtime = SaplingRuntime.fromIr(plan.ir, {
    env: settings.env,
    readTextFile: settings.readTextFile,
    ...cliRuntimeExtensions,
    prices: settings.prices,
  });
  const counter = await loadTokenCounter();
  const countTokens = counter === undefined ? undefined : (text: string) => counter(text).o200k_base;
  const handle = await open(recordsPath, "a");
  // Rows finish concurrently; their lines are written one after another.
  let writing: Promise<unknown> = Promise.resolve();
  try {
    for (const [position, cell] of matrix.entries()) {
      const done = finished.get(cellKey(cell)) ?? new Set<string>();
      const schemaTokens = await measureSchemaTokens(
        runtime,
        fn.name,
        rows[0]?.args ?? {},
        cell,
        countTokens,
        registry,
      );
      let count = done.size;
      const progress = (final: boolean) =>
        settings.onProgress?.({ cell, position, cells: matrix.length, count, rows: rows.length, final });
      const report = await runEvalCell(
        runtime,
        fn.name,
        rows.map((row) => ({ id: row.id, args: row.args })),
        cell,
        {
          checkpoint: recordCheckpoint(done),
          schemaTokens,
          concurrency: settings.concurrency,
          timeoutMs: settings.timeoutMs,
          rateLimit:
            settings.rpm === undefined && settings.tpm === undefined
              ? undefined
              : {
                  ...(settings.rpm !== undefined ? { requestsPerMinute: settings.rpm } : {}),
                  ...(settings.tpm !== undefined ? { tokensPerMinute: settings.tpm } : {}),
                },
          clientRegistry: registry,
          signal: settings.signal,
          onRecord: (record) => {
            // The eval never reads the mock's request log; emptied, it stays small however many rows run.
            if (mock) mock.requests.length = 0;
            writing = writing.then(() => handle.write(`${JSON.stringify(record)}\n`));
            count += 1;
            progress(false);
            return writing as Promise<void>;
          },
        },
      );
      progress(true);
      settings.onCellDone?.(cell, done.size);
      if (report.stoppedBy === "aborted") return true;
    }
    return false;
  } finally {
    await writing;
    await handle.close();
    await mock?.close();
  }
}

/**
 * Sums the records of the plan's cells (every cell of the file, in order of appearance, when the matrix
 * is `null`) into the report, scored against today's expected values. With `replay`, each record's answer
 * is read again by today's parser instead of taken as recorded.
 */
export async function summarizeEval(
  plan: EvalPlan,
  replay: boolean,
): Promise<{ report: EvalReport; failures: EvalFailure[] }> {
  const { matrix, scorer } = plan;
  const expected = new Map(plan.rows.map((row) => [row.id, row.expected]));
  const replayRuntime = replay
    ? SaplingRuntime.fromIr(plan.ir, { constraintEvaluator: cliRuntimeExtensions.constraintEvaluator })
    : undefined;
  const aggregates = new Map<string, CellAggregate>();
  for (const cell of matrix ?? [])
    aggregates.set(cellKey(cell), new CellAggregate(cell, scorer.values.fieldNames));
  const seen = new Set<string>();
  const failures: EvalFailure[] = [];
  const failuresPerCell = new Map<string, number>();
  for await (const recorded of readRecords(plan.recordsPath)) {
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
    const record = replayRuntime ? replayRecord(replayRuntime, plan.fn.name, recorded) : recorded;
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
      function: plan.fn.name,
      rows: plan.rows.length,
      cells: [...aggregates.values()].map((aggregate) => aggregate.summary()),
      repairBaseline: plan.repairName,
    },
    failures,
  };
}
