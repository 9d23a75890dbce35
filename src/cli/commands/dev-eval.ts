import { readdir } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import type { DevEvalRequest, DevEvalRun } from "../../dev/index.js";
import { renderEvalHtml, renderEvalTable } from "../../eval/index.js";
import type { Ir } from "../../ir/index.js";
import { HttpError } from "../../server/index.js";
import { type CliContext, CliError, UsageError } from "../cli-context.js";
import { locateInsideFolder } from "../locate-inside-folder.js";
import { textFileReader } from "../text-file-reader.js";
import { readEvalRows } from "./eval-data.js";
import {
  answerProfileClients,
  type EvalPlan,
  evalMatrix,
  evalScorer,
  readScoreFile,
  readText,
  recordEval,
  summarizeEval,
} from "./eval-run.js";
import { readTestRows } from "./eval-test-rows.js";

/**
 * `sapling dev`'s Eval view on `sapling eval`'s engine: the dataset and scoring file are read inside the
 * project folder (the folder that holds baml_src), the records go where `sapling eval` run from that
 * folder puts them (`.sapling/eval/<Function>`, `…​.tests` for test blocks), so a rerun resumes and
 * `sapling eval --replay` re-scores them; the table and the HTML report are the command's.
 */
export function devEvalRunner(
  sourceFolder: string,
  env: Record<string, string | undefined>,
  context: CliContext,
): (ir: Ir, request: DevEvalRequest, signal: AbortSignal) => Promise<DevEvalRun> {
  const projectFolder = dirname(sourceFolder);
  const inside = async (path: string, what: string): Promise<string> => {
    const found = await locateInsideFolder(projectFolder, resolve(projectFolder, path));
    if (found.where === "missing")
      throw new CliError(`${what} ${path}: no such file in the project folder (${projectFolder})`);
    if (found.where !== "inside")
      throw new CliError(`${what} ${path}: name a file inside the project folder (${projectFolder})`);
    return found.path;
  };
  return async (ir, request, signal) => {
    try {
      const fn = ir.functions.find((candidate) => candidate.name === request.function);
      if (!fn) throw new CliError(`no function ${request.function}`);
      const rows = request.tests
        ? (await readTestRows(ir, fn, { projectDir: sourceFolder, env })).rows
        : readEvalRows(
            await readText(await inside(request.data ?? "", "data"), "data", request.data ?? ""),
            request.data ?? "",
            fn,
          );
      if (rows.length === 0)
        throw new CliError(
          `no test block of ${fn.name} names its expected value; add @@check(expected, {{ this == {…} }}) to one`,
        );
      const score = request.score
        ? {
            value: await readScoreFile(await inside(request.score, "score"), request.score),
            shown: request.score,
          }
        : undefined;
      const { scorer, repairName } = await evalScorer(ir, fn, score);
      const directory = join(projectFolder, ".sapling", "eval", `${fn.name}${request.tests ? ".tests" : ""}`);
      const plan: EvalPlan = {
        ir,
        fn,
        rows,
        matrix: evalMatrix(request.clients ?? [fn.client], request.modes ?? ["prompt"]),
        scorer,
        repairName,
        recordsPath: join(directory, "records.jsonl"),
        display: (path) => relative(projectFolder, path).split(sep).join("/"),
      };
      const interrupted = await recordEval(
        plan,
        { env, readTextFile: textFileReader(context.cwd), signal },
        request.fresh === true,
      );
      if (interrupted)
        throw new HttpError(
          409,
          "INTERRUPTED",
          "The eval stopped before its end; its records are kept: run it again to resume.",
        );
      const { report, failures } = await summarizeEval(plan, false);
      return {
        table: renderEvalTable(report),
        html: renderEvalHtml(report, failures),
        records: plan.display(plan.recordsPath),
      };
    } catch (error) {
      if (error instanceof CliError || error instanceof UsageError)
        throw new HttpError(400, "BAD_EVAL", error.message);
      throw error;
    }
  };
}

/** What the Eval view offers: the answer profiles, and the `.jsonl`/`.csv` files of the project folder. */
export async function devEvalChoices(
  sourceFolder: string,
): Promise<{ profiles: string[]; datasets: string[] }> {
  const projectFolder = dirname(sourceFolder);
  const datasets: string[] = [];
  const walk = async (folder: string, depth: number): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (datasets.length >= 50) return;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (depth < 3 && !entry.name.startsWith(".") && !["node_modules", "baml_client"].includes(entry.name))
          await walk(path, depth + 1);
      } else if (/\.(jsonl|csv)$/i.test(entry.name))
        datasets.push(relative(projectFolder, path).split(sep).join("/"));
    }
  };
  await walk(projectFolder, 0);
  return { profiles: answerProfileClients(), datasets };
}
