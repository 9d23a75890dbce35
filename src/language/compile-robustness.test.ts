/**
 * Property tests: the front end returns diagnostics for any input — random token soup, mutated valid
 * projects, pathological nesting — and never throws or hangs (each case runs under the test timeout).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderDiagnostics } from "../diagnostics/index.js";
import { emptyIr } from "../ir/index.js";
import { compile } from "./compile.js";
import { formatBaml } from "./format-baml.js";
import { parseTypeExpression } from "./parse-type-expression.js";

const fixturesRoot = join(import.meta.dirname, "../../test/fixtures/language");
const validFixtures = readdirSync(fixturesRoot, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith(".baml") && !entry.parentPath.includes("errors"))
  .map((entry) => readFileSync(join(entry.parentPath, entry.name), "utf8"));

const fragments = [
  "class",
  "enum",
  "type",
  "function",
  "client<llm>",
  "client",
  "retry_policy",
  "generator",
  "test",
  "template_string",
  "dynamic",
  "type_builder",
  "map",
  "string",
  "int",
  "image",
  "null",
  "true",
  "env.KEY",
  "{",
  "}",
  "(",
  ")",
  "[",
  "]",
  "<",
  ">",
  ",",
  ":",
  "|",
  "?",
  "=",
  ".",
  "@",
  "@@",
  "->",
  '@alias("x")',
  "@check(a, {{ this }})",
  "@@dynamic",
  "@stream.done",
  "{{",
  "}}",
  '"',
  '"text"',
  '#"',
  '"#',
  '##"raw"##',
  "//",
  "///",
  "{//",
  "//}",
  "\n",
  "\r\n",
  " ",
  "\t",
  "Name",
  "field",
  "42",
  "-1.5",
  "$",
  "é",
  "😀",
  "\\",
];

const tokenSoup = fc
  .array(fc.oneof(fc.constantFrom(...fragments), fc.string({ maxLength: 4 })), { maxLength: 80 })
  .map((parts) => parts.join(" "));

type Mutation = { at: number; length: number; insert: string };
const mutation = fc.record({
  at: fc.nat(),
  length: fc.nat({ max: 20 }),
  insert: fc.oneof(fc.constantFrom(...fragments, ""), fc.string({ maxLength: 6 })),
});

function mutate(text: string, mutations: Mutation[]): string {
  let result = text;
  for (const { at, length, insert } of mutations) {
    const start = result.length === 0 ? 0 : at % (result.length + 1);
    result = result.slice(0, start) + insert + result.slice(start + length);
  }
  return result;
}

function chain(length: number, link: (index: number) => string, end: string): string {
  return Array.from({ length }, (_, index) => link(index)).join("") + end;
}

function assertWellFormed(text: string): void {
  const result = compile({ "input.baml": text });
  expect(Array.isArray(result.diagnostics)).toBe(true);
  for (const diagnostic of result.diagnostics) {
    expect(diagnostic.span.start).toBeGreaterThanOrEqual(0);
    expect(diagnostic.span.end).toBeGreaterThanOrEqual(diagnostic.span.start);
    expect(diagnostic.span.end).toBeLessThanOrEqual(text.length);
  }
  const hasError = result.diagnostics.some((diagnostic) => diagnostic.severity === "error");
  expect(result.ir === undefined).toBe(hasError);
  expect(typeof renderDiagnostics(result.diagnostics, { "input.baml": text })).toBe("string");
}

describe("front-end robustness", () => {
  it("returns diagnostics for random token soup", () => {
    fc.assert(fc.property(tokenSoup, assertWellFormed), { numRuns: 400 });
  });

  it("returns diagnostics for arbitrary strings", () => {
    fc.assert(fc.property(fc.string({ maxLength: 300, unit: "binary" }), assertWellFormed), { numRuns: 200 });
  });

  it("returns diagnostics for mutated valid projects", () => {
    expect(validFixtures.length).toBeGreaterThan(20);
    fc.assert(
      fc.property(
        fc.constantFrom(...validFixtures),
        fc.array(mutation, { minLength: 1, maxLength: 5 }),
        (text, edits) => assertWellFormed(mutate(text, edits)),
      ),
      { numRuns: 500 },
    );
  });

  it("formats mutated valid projects idempotently, without changing what they compile to", () => {
    const meaning = (text: string): string =>
      JSON.stringify(compile({ "input.baml": text }), (key, value) =>
        key === "source" || key === "promptSource" || key === "span" || key === "notes" ? undefined : value,
      );
    fc.assert(
      fc.property(
        fc.constantFrom(...validFixtures),
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        (text, edits) => {
          const mutated = mutate(text, edits);
          const formatted = formatBaml(mutated);
          expect(formatBaml(formatted)).toBe(formatted);
          const codes = (source: string) =>
            compile({ "input.baml": source }).diagnostics.map((item) => item.code);
          if (formatted !== mutated) {
            expect(codes(formatted)).toEqual(codes(mutated));
            if (codes(mutated).length === 0) expect(meaning(formatted)).toBe(meaning(mutated));
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it("parses standalone type expressions without throwing", () => {
    fc.assert(
      fc.property(tokenSoup, (text) => {
        const result = parseTypeExpression(text, emptyIr());
        expect(result.type === undefined).toBe(result.diagnostics.some((item) => item.severity === "error"));
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ["deep parentheses", `class A {\n  a ${"(".repeat(5000)}int${")".repeat(5000)}\n}\n`],
    ["deep maps", `class A {\n  a ${"map<string, ".repeat(3000)}int${">".repeat(3000)}\n}\n`],
    ["deep config maps", `client<llm> C {\n  options ${"{ a ".repeat(5000)}\n}\n`],
    ["deep arrays", `client<llm> C {\n  options { a ${"[".repeat(5000)} }\n}\n`],
    ["unclosed everything", 'class A { a ( map < string , [ @check( {{ "#'],
    ["only openers", "{".repeat(10000)],
    ["deep list suffixes", `class A {\n  a int${"[]".repeat(50000)}\n}\n`],
    ["deep optional suffixes", `class A {\n  a int${"?".repeat(50000)}\n}\n`],
    ["a very wide union", `class A {\n  a ${Array.from({ length: 150000 }, () => "int").join(" | ")}\n}\n`],
    ["very many attributes", `class A {\n  a int${" @assert({{ this }})".repeat(100000)}\n}\n`],
    [
      "a long chain of aliases",
      chain(20000, (index) => `type A${index} = A${index + 1}\n`, "type A20000 = A0\n"),
    ],
    [
      "a long chain of classes returned by a function",
      chain(
        30000,
        (index) => `class C${index} {\n  next C${index + 1}\n}\n`,
        'class C20000 {\n  photo image\n}\nfunction F() -> C0 {\n  client "openai/gpt-4o"\n  prompt #"x"#\n}\n',
      ),
    ],
    [
      "a long fallback chain",
      chain(
        30000,
        (index) =>
          `client<llm> K${index} {\n  provider fallback\n  options {\n    strategy [K${index + 1}]\n  }\n}\n`,
        "client<llm> K20000 {\n  provider fallback\n  options {\n    strategy [K0]\n  }\n}\n",
      ),
    ],
    // Once looped forever: an empty unquoted value rewound the scanner onto the same token.
    ["a stray parenthesis in a list", "client<llm> C {\n  options {\n    a [b)\n  }\n}\n"],
    // Fields may share a line (`a0 int a1 int`), so this is one class of 20000 fields on one line.
    [
      "a very long line",
      `class A { ${Array.from({ length: 20000 }, (_, index) => `a${index} int`).join(" ")} }`,
    ],
  ])("survives %s", (_name, text) => {
    assertWellFormed(text);
  });
});
