import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { captureContext } from "../cli-context.js";
import { main } from "../main.js";

const fixtures = join(import.meta.dirname, "../../../test/fixtures/sap");
const resumeOutputs = join(fixtures, "resume-outputs");

/** A throwaway project with the resume schema in baml_src/. */
function resumeProject(): string {
  const root = mkdtempSync(join(tmpdir(), "sapling-parse-"));
  const schema = join(root, "baml_src");
  mkdirSync(schema);
  writeFileSync(join(schema, "resume.baml"), readFileSync(join(fixtures, "schemas", "resume.baml"), "utf8"));
  return root;
}

describe("sapling parse", () => {
  it("prints the parsed value as JSON", async () => {
    const cwd = resumeProject();
    const context = captureContext({ cwd });
    const code = await main(
      ["parse", "--type", "CandidateEvaluation", join(resumeOutputs, "truncated.txt")],
      context,
    );
    expect(code).toBe(0);
    const value = JSON.parse(context.output().stdout);
    expect(value.years_of_experience).toBe(8);
    expect(value.skills).toEqual(["Python", "Rust", "Distributed Systems"]);
    expect(context.output().stderr).toBe("");
  });

  it("reads standard input and explains the repairs with --explain", async () => {
    const cwd = resumeProject();
    const context = captureContext({ cwd, stdin: "Strong Hire" });
    expect(await main(["parse", "--type", "Decision", "--explain", "-"], context)).toBe(0);
    expect(context.output().stdout).toBe('"STRONG_HIRE"\n');
    expect(context.output().stderr).toContain('$: EnumCaseFold — "Strong Hire" read as STRONG_HIRE');
  });

  it("fails with the parse error's message and exit code 1", async () => {
    const cwd = resumeProject();
    const context = captureContext({ cwd, stdin: "I would not decide." });
    expect(await main(["parse", "--type", "Decision"], context)).toBe(1);
    expect(context.output().stderr).toContain("Could not parse the model's answer: expected enum Decision");
  });

  it("reports a bad type expression as a usage error", async () => {
    const cwd = resumeProject();
    const context = captureContext({ cwd, stdin: "{}" });
    expect(await main(["parse", "--type", "Decisoin"], context)).toBe(2);
    expect(context.output().stderr).toContain('--type "Decisoin" is not a valid type');
  });

  it("needs --type outside --jsonl", async () => {
    const context = captureContext({ stdin: "{}" });
    expect(await main(["parse"], context)).toBe(2);
    expect(context.output().stderr).toContain("name the target type");
  });

  it("--jsonl parses every line and keeps going after bad ones", async () => {
    const cwd = resumeProject();
    const lines = [
      { id: 1, target: "Decision", raw: "lean reject" },
      { id: 2, baml: "enum Mood {\n  HAPPY\n  SAD\n}", target: "Mood[]", raw: "happy, sad" },
      "not json",
      { id: 4, target: "Decision", raw: "no idea" },
      { id: 5, baml: "class {", target: "X", raw: "{}" },
      { id: 6, raw: "HIRE" },
      { id: 7, target: "int", raw: "about 7 years" },
    ].map((line) => (typeof line === "string" ? line : JSON.stringify(line)));
    const context = captureContext({ cwd, stdin: `${lines.join("\n")}\n` });
    expect(await main(["parse", "--jsonl"], context)).toBe(0);
    const out = context
      .output()
      .stdout.trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(out.map((line) => [line.id, line.ok, line.value, line.error?.code ?? null])).toEqual([
      [1, true, "LEAN_REJECT", null],
      [2, true, ["HAPPY", "SAD"], null],
      [null, false, null, "bad-line"],
      [4, false, null, "enum-no-match"],
      [5, false, null, "invalid-schema"],
      [6, false, null, "bad-line"],
      [7, true, 7, null],
    ]);
    expect(out[0].flags).toEqual([
      {
        kind: "EnumCaseFold",
        path: "$",
        detail: '"lean reject" read as LEAN_REJECT',
        span: { start: 0, end: 11 },
      },
    ]);
    expect(context.output().stderr).toContain("Parsed 7 lines: 3 ok, 4 failed.");
  });

  it("--jsonl uses --type as the default target", async () => {
    const cwd = resumeProject();
    const context = captureContext({ cwd, stdin: '{"id": "a", "raw": "HIRE"}\n' });
    expect(await main(["parse", "--jsonl", "--type", "Decision"], context)).toBe(0);
    expect(JSON.parse(context.output().stdout)).toEqual({
      id: "a",
      ok: true,
      value: "HIRE",
      flags: [],
      error: null,
    });
  });

  it("--jsonl without a project still parses lines that carry their schema", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "sapling-parse-empty-"));
    const input = [
      JSON.stringify({ id: 1, baml: "class A {\n  n int\n}", target: "A", raw: '{"n": "3"}' }),
      JSON.stringify({ id: 2, target: "A", raw: "{}" }),
    ].join("\n");
    const context = captureContext({ cwd, stdin: input });
    expect(await main(["parse", "--jsonl"], context)).toBe(0);
    const [first, second] = context
      .output()
      .stdout.trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(first).toMatchObject({ id: 1, ok: true, value: { n: 3 } });
    expect(second).toMatchObject({ id: 2, ok: false, error: { code: "no-schema" } });
  });
});
