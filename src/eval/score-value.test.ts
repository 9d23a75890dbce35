import { describe, expect, it } from "vitest";
import { IrIndex } from "../ir/index.js";
import { compile } from "../language/index.js";
import { EvalConfigError, parseScoreConfig } from "./score-config.js";
import { ValueScorer } from "./score-value.js";

const source = `
enum Level {
  JUNIOR
  SENIOR
  STAFF
}
class Job {
  company string
  months int
}
class Profile {
  name string
  level Level
  remote bool
  kind "person"
  score float
  tags string[]
  jobs Job[]
  manager string?
  extra map<string, int>
}
function Read(text: string) -> Profile {
  client "openai/gpt-4o-mini"
  prompt #"{{ text }} {{ ctx.output_format }}"#
}
`;

const { ir } = compile({ "main.baml": source });
if (!ir) throw new Error("the test schema does not compile");
const index = new IrIndex(ir);
const profileType = ir.functions[0]?.returnType ?? { kind: "primitive", name: "null" };

const expected = {
  name: "Jane Doe",
  level: "STAFF",
  remote: true,
  kind: "person",
  score: 0.75,
  tags: ["rust", "go", "k8s"],
  jobs: [
    { company: "Streamline", months: 60 },
    { company: "Acme", months: 24 },
  ],
  manager: null,
  extra: { a: 1, b: 2 },
};

function scorer(fields: Record<string, unknown> = {}) {
  return new ValueScorer(index, profileType, parseScoreConfig({ fields }, "score.json"));
}

function credits(actual: unknown, rules: Record<string, unknown> = {}) {
  return Object.fromEntries(
    scorer(rules)
      .score(actual, expected)
      .fields.map((f) => [f.field, f.credit]),
  );
}

describe("ValueScorer", () => {
  it("gives full credit to the expected value itself, and a missing optional equals null", () => {
    const { manager: _dropped, ...withoutManager } = expected;
    const score = scorer().score(withoutManager, expected);
    expect(score.correct).toBe(true);
    expect(score.fields.map((field) => field.field)).toEqual([
      "name",
      "level",
      "remote",
      "kind",
      "score",
      "tags",
      "jobs",
      "manager",
      "extra",
    ]);
  });

  it("compares enums, bools and literals exactly and normalises strings", () => {
    const result = credits({
      ...expected,
      name: "  jane   DOE. ",
      level: "SENIOR",
      remote: false,
      kind: "Person",
    });
    expect(result.name).toBe(1);
    expect(result.level).toBe(0);
    expect(result.remote).toBe(0);
    expect(result.kind).toBe(0);
  });

  it("holds floats to a tolerance and ints exactly", () => {
    expect(credits({ ...expected, score: 0.7500000001 }).score).toBe(1);
    expect(credits({ ...expected, score: 0.76 }).score).toBe(0);
    expect(credits({ ...expected, score: 0.76 }, { score: { tolerance: 0.02 } }).score).toBe(1);
    // 59 months against 60: one of the two jobs' two fields is wrong, so the jobs get 3/4.
    const jobs = [{ company: "Streamline", months: 59 }, expected.jobs[1]];
    expect(credits({ ...expected, jobs }).jobs).toBe(0.75);
    expect(credits({ ...expected, jobs }, { "jobs[].months": { tolerance: 1 } }).jobs).toBe(1);
  });

  it("gives partial credit to ordered lists and scores sets in any order", () => {
    // ordered: positions 0 and 1 swap, position 2 equal → 1/3
    expect(credits({ ...expected, tags: ["go", "rust", "k8s"] }).tags).toBeCloseTo(1 / 3, 12);
    expect(credits({ ...expected, tags: ["go", "rust", "k8s"] }, { tags: { list: "set" } }).tags).toBe(1);
    // set: 2 of 3 expected found, 4 items written → 2 / max(4, 3) = 0.5
    expect(credits({ ...expected, tags: ["Go", "rust", "java", "c"] }, { tags: { list: "set" } }).tags).toBe(
      0.5,
    );
    // a missing item in an ordered list costs its share: 2/3
    expect(credits({ ...expected, tags: ["rust", "go"] }).tags).toBeCloseTo(2 / 3, 12);
    // one job written of two: the first is right (1), the second missing (0) → 1/2
    expect(credits({ ...expected, jobs: [expected.jobs[0]] }).jobs).toBe(0.5);
  });

  it("accepts near spellings only above a similarity threshold", () => {
    expect(credits({ ...expected, name: "Jane Do" }).name).toBe(0);
    // "jane do" vs "jane doe": one edit over 8 characters → 0.875
    expect(credits({ ...expected, name: "Jane Do" }, { name: { similarity: 0.85 } }).name).toBe(1);
    expect(credits({ ...expected, name: "Jane Do" }, { name: { similarity: 0.9 } }).name).toBe(0);
    expect(credits({ ...expected, name: "jane doe" }, { name: { caseSensitive: true } }).name).toBe(0);
  });

  it("scores maps by key, null against a value as wrong, and ignored fields not at all", () => {
    // keys a, b, c: a right, b wrong, c not expected → 1/3
    expect(credits({ ...expected, extra: { a: 1, b: 3, c: 4 } }).extra).toBeCloseTo(1 / 3, 12);
    expect(credits({ ...expected, manager: "Bob" }).manager).toBe(0);
    expect(credits({ ...expected, name: null }).name).toBe(0);
    const ignoring = scorer({ name: { scorer: "ignore" } });
    expect(ignoring.fieldNames).not.toContain("name");
    expect(ignoring.score({ ...expected, name: "someone else" }, expected).correct).toBe(true);
  });

  it("calls a row correct only when every field is, and a failed row wrong everywhere", () => {
    const score = scorer().score({ ...expected, remote: false }, expected);
    expect(score.correct).toBe(false);
    expect(score.fields.filter((field) => field.credit < 1).map((field) => field.field)).toEqual(["remote"]);
    const failed = scorer().score(undefined, expected);
    expect(failed.correct).toBe(false);
    expect(failed.fields.every((field) => field.credit === 0)).toBe(true);
  });

  it("refuses a scoring file that names a field the type lacks or a bad option", () => {
    expect(() => scorer({ nmae: { scorer: "ignore" } })).toThrow(/names the field "nmae"/);
    expect(() => parseScoreConfig({ fields: { name: { similarity: 2 } } }, "s.json")).toThrow(
      /s.json: fields.name.similarity: must be a number in \(0, 1\]/,
    );
    expect(() => parseScoreConfig({ fields: { tags: { list: "bag" } } }, "s.json")).toThrow(EvalConfigError);
    expect(() => parseScoreConfig({ field: {} }, "s.json")).toThrow(/unknown key "field"/);
  });
});
