import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { captureContext } from "../cli-context.js";
import { main } from "../main.js";

const example = join(import.meta.dirname, "../../../examples/resume");
const allRows = readFileSync(join(example, "eval", "rows.jsonl"), "utf8")
  .trimEnd()
  .split("\n");

/** The first `count` rows of the example's dataset, in a temporary folder. */
function dataset(count: number): { directory: string; data: string } {
  const directory = mkdtempSync(join(tmpdir(), "sapling-eval-"));
  const data = join(directory, "rows.jsonl");
  writeFileSync(data, `${allRows.slice(0, count).join("\n")}\n`);
  return { directory, data };
}

async function evaluate(args: string[], cwd: string) {
  const context = captureContext({ cwd });
  const code = await main(
    ["eval", "EvaluateResume", "--from", join(example, "baml_src"), "--progress", "none", ...args],
    context,
  );
  return { code, ...context.output() };
}

const recordLines = (directory: string) =>
  readFileSync(join(directory, "records", "records.jsonl"), "utf8")
    .trimEnd()
    .split("\n");

describe("sapling eval", () => {
  it("prints the table of a matrix over the mock profiles, and a replay prints the same bytes", async () => {
    const { directory, data } = dataset(6);
    const matrix = [
      "--client",
      "mock/fenced-prose,mock/loose-types,mock/strict-json-cut",
      "--mode",
      "prompt,native",
    ];
    const live = await evaluate(["--data", data, ...matrix, "--record", "records"], directory);
    expect(live.code).toBe(0);
    const lines = live.stdout.split("\n");
    expect(lines[0]).toBe("sapling eval EvaluateResume: 6 rows × 6 cells");
    const row = (client: string, mode: string) =>
      lines.map((line) => line.split(/\s{2,}/)).find((cells) => cells[0] === client && cells[1] === mode) ??
      [];
    // columns: client, mode, schema tok, 1st-call fail, final fail, row acc, field acc, JSON.parse acc, jsonrepair acc
    // A fence in prose: Sapling reads all 6, JSON.parse none, fence strip + jsonrepair all.
    expect(row("mock/fenced-prose", "prompt").slice(3, 9)).toEqual([
      "0.0%",
      "0.0%",
      "100.0%",
      "100.0%",
      "0.0%",
      "100.0%",
    ]);
    // "7.5" for an int and "Strong Hire" for an enum: only Sapling's coercion reads them.
    expect(row("mock/loose-types", "prompt").slice(5, 9)).toEqual(["100.0%", "100.0%", "0.0%", "0.0%"]);
    // In native mode the provider constrains the form, so every pipeline reads it.
    expect(row("mock/loose-types", "native").slice(5, 9)).toEqual(["100.0%", "100.0%", "100.0%", "100.0%"]);
    expect(recordLines(directory)).toHaveLength(1 + 6 * 6);

    const replay = await evaluate(["--data", data, "--replay", "records"], directory);
    expect(replay.code).toBe(0);
    expect(replay.stdout).toBe(live.stdout);
    expect(recordLines(directory)).toHaveLength(1 + 6 * 6);
  });

  it("resumes an interrupted eval without calling the model again for recorded rows", async () => {
    const { directory, data } = dataset(5);
    const args = [
      "--data",
      data,
      "--client",
      "mock/clean-json",
      "--mode",
      "prompt,tools",
      "--record",
      "records",
    ];
    expect((await evaluate(args, directory)).code).toBe(0);
    const complete = recordLines(directory);
    expect(complete).toHaveLength(1 + 10);
    // As if the run had been killed after three rows: the header, three records, and half a line.
    const kept = complete.slice(0, 4);
    writeFileSync(
      join(directory, "records", "records.jsonl"),
      `${kept.join("\n")}\n${complete[4]?.slice(0, 40)}`,
    );
    const resumed = await evaluate(args, directory);
    expect(resumed.stderr).not.toContain("Error");
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain("mock/clean-json · prompt: 5 rows (3 recorded by an earlier run)");
    const after = recordLines(directory).filter((line) => line.startsWith("{"));
    // The three kept records are untouched and no row has two records: only the 7 missing rows ran.
    expect(after.slice(0, 4)).toEqual(kept);
    const keys = after.slice(1).map((line) => {
      const record = JSON.parse(line) as { client: string; mode: string; id: string };
      return `${record.mode}/${record.id}`;
    });
    expect(new Set(keys).size).toBe(10);
    expect(keys).toHaveLength(10);
    // A rerun of a finished eval calls nothing.
    await evaluate(args, directory);
    expect(recordLines(directory).filter((line) => line.startsWith("{")).length).toBe(11);
  });

  it("stops on Ctrl-C with exit code 130 and the records kept, and the rerun completes them", async () => {
    const { directory, data } = dataset(50);
    const args = ["--data", data, "--client", "mock/clean-json", "--record", "records", "--concurrency", "1"];
    const records = join(directory, "records", "records.jsonl");
    const interrupted = new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        let lines = 0;
        try {
          lines = readFileSync(records, "utf8").split("\n").length - 1;
        } catch {}
        if (lines >= 1 + 5) {
          clearInterval(poll);
          resolve();
        }
      }, 5);
    });
    const context = captureContext({ cwd: directory, interrupted });
    const code = await main(
      ["eval", "EvaluateResume", "--from", join(example, "baml_src"), "--progress", "none", ...args],
      context,
    );
    expect(code).toBe(130);
    expect(context.output().stderr).toContain("are kept: rerun the same command to resume");
    const stopped = recordLines(directory).length - 1;
    expect(stopped).toBeGreaterThanOrEqual(5);
    expect(stopped).toBeLessThan(50);
    const resumed = await evaluate(args, directory);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(`(${stopped} recorded by an earlier run)`);
    const ids = recordLines(directory)
      .slice(1)
      .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(new Set(ids).size).toBe(50);
    expect(ids).toHaveLength(50);
  });

  it("refuses bad input with a message that says how to fix it", async () => {
    const { directory, data } = dataset(2);
    const unknownProfile = await evaluate(["--data", data, "--client", "mock/typo"], directory);
    expect(unknownProfile.code).toBe(2);
    expect(unknownProfile.stderr).toContain("mock/typo is not an answer profile");
    const badMode = await evaluate(["--data", data, "--mode", "json"], directory);
    expect(badMode.stderr).toContain('--mode: "json" is not an output mode');
    writeFileSync(join(directory, "bad.jsonl"), '{"args": {"resume_text": "x"}}\n');
    const noExpected = await evaluate(["--data", "bad.jsonl"], directory);
    expect(noExpected.code).toBe(1);
    expect(noExpected.stderr).toContain('bad.jsonl:1: the row has no "expected"');
    const noRecords = await evaluate(["--data", data, "--replay", "nowhere"], directory);
    expect(noRecords.stderr).toContain("does not exist; record an eval first");
  });

  it("reads a CSV dataset with a JSON expected column", async () => {
    const { directory } = dataset(0);
    const first = JSON.parse(allRows[0] as string) as { args: { resume_text: string }; expected: unknown };
    const quote = (text: string) => `"${text.replace(/"/g, '""')}"`;
    writeFileSync(
      join(directory, "rows.csv"),
      `id,resume_text,expected\nr1,${quote(first.args.resume_text)},${quote(JSON.stringify(first.expected))}\n`,
    );
    const result = await evaluate(
      ["--data", "rows.csv", "--client", "mock/clean-json", "--json", "--record", "r"],
      directory,
    );
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { rows: number; cells: { rowAccuracy: number }[] };
    expect(report.rows).toBe(1);
    expect(report.cells[0]?.rowAccuracy).toBe(1);
  });

  it("takes the function's test blocks that name their expected value as the rows (--tests)", async () => {
    const { directory } = dataset(0);
    cpSync(join(example, "baml_src"), join(directory, "baml_src"), { recursive: true });
    const row = (at: number) =>
      JSON.parse(allRows[at] as string) as { args: { resume_text: string }; expected: unknown };
    // A test block per row, its expected value a Jinja literal (JSON here: these rows hold no null).
    const block = (name: string, at: number, constraint: string) =>
      `test ${name} {\n  functions [EvaluateResume]\n  args {\n    resume_text #"\n${row(at).args.resume_text}\n    "#\n  }\n  ${constraint}\n}\n`;
    const expected = (at: number) => `@@check(expected, {{ this == ${JSON.stringify(row(at).expected)} }})`;
    const labelled = join(directory, "baml_src", "labelled.baml");
    writeFileSync(labelled, block("First", 0, expected(0)) + block("Second", 1, expected(1)));
    const evaluate = async (extra: string[]) => {
      const context = captureContext({ cwd: directory });
      const code = await main(
        ["eval", "EvaluateResume", "--tests", "--json", "--progress", "none", ...extra],
        context,
      );
      const { stdout, stderr } = context.output();
      return { code, stderr, report: code === 0 ? (JSON.parse(stdout) as EvalJson) : undefined };
    };
    type EvalJson = { rows: number; cells: { rowAccuracy: number; fieldAccuracy: number }[] };
    const live = await evaluate(["--client", "mock/loose-types"]);
    expect(live.code, live.stderr).toBe(0);
    // EvaluateJane, the example's own test, asserts without naming a value: left out, and said so.
    expect(live.stderr).toContain(
      "1 test block of EvaluateResume without @@check(expected, {{ this == … }}) left out: EvaluateJane",
    );
    expect(live.report?.rows).toBe(2);
    expect(live.report?.cells[0]?.rowAccuracy).toBe(1);
    // The records go to a default folder of their own, beside a --data eval's.
    const records = join(directory, ".sapling", "eval", "EvaluateResume.tests");
    expect(readFileSync(join(records, "records.jsonl"), "utf8")).toContain('"id":"Second"');
    // The expected value is read from the block: relabel Second's decision and replay (no model called).
    writeFileSync(
      labelled,
      block("First", 0, expected(0)) + block("Second", 1, expected(1).replace('"REJECT"', '"HIRE"')),
    );
    const replayed = await evaluate(["--replay", records]);
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(replayed.report?.cells[0]?.rowAccuracy).toBe(0.5);
    // One of the six fields of one of two rows is wrong (reasoning is scored here: no scoring file).
    expect(replayed.report?.cells[0]?.fieldAccuracy).toBeCloseTo(11 / 12, 10);
    // A block whose expected constraint names no value is refused with the form to write.
    writeFileSync(labelled, block("Third", 2, "@@check(expected, {{ this.years_of_experience > 2 }})"));
    const refused = await evaluate(["--client", "mock/clean-json"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("names no value; write it as {{ this == VALUE }}");
  });
});
