import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compile } from "./compile.js";

const resumeDir = join(import.meta.dirname, "../../examples/resume/baml_src");

function loadResume(): Record<string, string> {
  const sources: Record<string, string> = {};
  for (const name of readdirSync(resumeDir)) sources[name] = readFileSync(join(resumeDir, name), "utf8");
  return sources;
}

describe("compile", () => {
  it("compiles the resume example without diagnostics", () => {
    const result = compile(loadResume());
    expect(result.diagnostics).toEqual([]);
    expect(result.ir?.functions.map((item) => item.name)).toEqual(["EvaluateResume"]);
    expect(result.ir?.clients.map((item) => item.name)).toEqual([
      "GPT4oMini",
      "LocalVLLM",
      "ResilientPipeline",
    ]);
    const fn = result.ir?.functions[0];
    expect(fn?.client).toBe("ResilientPipeline");
    expect(fn?.returnType).toEqual({ kind: "class", name: "CandidateEvaluation" });
    expect(fn?.promptSource).toEqual({ file: "resume.baml", line: 27, column: 12 });
    expect(result.ir?.retryPolicies[0]?.strategy).toEqual({
      type: "exponential_backoff",
      delayMs: 200,
      multiplier: 1.5,
      maxDelayMs: 2000,
    });
    expect(result.ir?.tests[0]?.constraints).toEqual([
      { level: "assert", expression: "this.years_of_experience > 5" },
    ]);
  });

  it("reports an unknown type and an unknown client with their locations, and returns no IR", () => {
    const source =
      'class A {\n  name Strng\n}\nfunction F(x: string) -> A {\n  client GPT4\n  prompt #"hi"#\n}\n';
    const result = compile({ "a.baml": source });
    expect(result.ir).toBeUndefined();
    expect(result.diagnostics.map((item) => [item.code, item.message, item.span.start])).toEqual([
      ["E0101", 'Unknown type "Strng".', source.indexOf("Strng")],
      ["E0301", 'Unknown client "GPT4".', source.indexOf("GPT4")],
    ]);
  });

  it("resolves names across files and reports a duplicate with a note pointing into the other file", () => {
    const sources = {
      "b.baml": "class Person {\n  name string\n}\n",
      "a.baml":
        'class Person {\n  age int\n}\nfunction F() -> Person {\n  client "openai/gpt-4o"\n  prompt #"x"#\n}\n',
    };
    const result = compile(sources);
    expect(result.diagnostics.map((item) => [item.file, item.code, item.notes])).toEqual([
      ["b.baml", "E0102", [{ message: "first declared here", file: "a.baml", span: { start: 6, end: 12 } }]],
    ]);
  });

  it("does not depend on the order of the sources record", () => {
    const one = { "a.baml": "class A {\n  b B\n}\n", "b.baml": "class B {\n  x int\n}\n" };
    const two = { "b.baml": one["b.baml"], "a.baml": one["a.baml"] };
    expect(compile(two)).toEqual(compile(one));
    expect(compile(one).ir?.classes.map((item) => item.source?.file)).toEqual(["a.baml", "b.baml"]);
  });

  it("returns the IR with warnings, and no IR with errors", () => {
    const warningOnly = compile({ "g.baml": 'generator g {\n  output_type "go"\n}\n' });
    expect(warningOnly.ir?.generators[0]?.outputType).toBe("go");
    expect(warningOnly.diagnostics.map((item) => item.severity)).toEqual(["warning"]);
  });

  describe("tests across files", () => {
    const functions = [
      "function Greet(name: string) -> string {",
      '  client "openai/gpt-4o"',
      '  prompt #"Hello {{ name }}"#',
      "}",
      "function Shout(name: string) -> string {",
      '  client "openai/gpt-4o"',
      '  prompt #"HELLO {{ name }}"#',
      "}",
      "",
    ].join("\n");
    const test = (fn: string) => `test Smoke {\n  functions [${fn}]\n  args {\n    name "Ada"\n  }\n}\n`;

    it("accepts one test name for different functions in two files, and keeps both tests", () => {
      const result = compile({
        "functions.baml": functions,
        "a.baml": test("Greet"),
        "b.baml": test("Shout"),
      });
      expect(result.diagnostics).toEqual([]);
      expect(result.ir?.tests.map((item) => `${item.name}:${item.functions.join(",")}`)).toEqual([
        "Smoke:Greet",
        "Smoke:Shout",
      ]);
    });

    it("rejects one test name for the same function in two files, pointing at both", () => {
      const result = compile({
        "functions.baml": functions,
        "a.baml": test("Greet"),
        "b.baml": test("Greet"),
      });
      expect(result.ir).toBeUndefined();
      expect(result.diagnostics.map((item) => [item.code, item.file, item.notes?.[0]?.file])).toEqual([
        ["E0713", "b.baml", "a.baml"],
      ]);
    });
  });
});
