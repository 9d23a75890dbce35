import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { compile } from "./compile.js";
import { formatBaml } from "./format-baml.js";
import { parseSource } from "./parser.js";

const fixturesRoot = join(import.meta.dirname, "../../test/fixtures/language");
const fixtures = readdirSync(fixturesRoot, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith(".baml"))
  .map((entry) => join(entry.parentPath, entry.name))
  .sort();

/** The IR without source locations (formatting moves lines, not meaning). */
function meaning(text: string): unknown {
  const { ir, diagnostics } = compile({ "x.baml": text });
  return JSON.parse(
    JSON.stringify({ ir, codes: diagnostics.map((diagnostic) => diagnostic.code) }, (key, value) =>
      key === "source" || key === "promptSource" ? undefined : value,
    ),
  );
}

function commentTexts(text: string): string[] {
  const { file } = parseSource(text, "x.baml");
  return file.comments.map((comment) => text.slice(comment.span.start, comment.span.end).trimEnd());
}

describe("formatBaml on every fixture", () => {
  for (const path of fixtures) {
    it(relative(fixturesRoot, path), () => {
      const text = readFileSync(path, "utf8");
      const formatted = formatBaml(text);
      expect(formatBaml(formatted)).toBe(formatted);
      expect(commentTexts(formatted)).toEqual(commentTexts(text));
      expect(meaning(formatted)).toEqual(meaning(text));
    });
  }
});

describe("formatBaml", () => {
  it("prints the canonical layout", () => {
    const input = [
      "class A{",
      '  a   int    @alias( "x" )   // kept',
      "",
      "",
      "  b string|null",
      "  @@dynamic",
      "}",
      'client<llm> C { provider: openai, options: { model: "x", stop: ["a", "b",] } }',
      "function F( a:int,b:string ) -> A|null {",
      "  client C",
      '  prompt #"',
      "   hi {{ a }}  ",
      '  "#',
      "}",
      "",
    ].join("\n");
    expect(formatBaml(input)).toBe(
      [
        "class A {",
        '  a int @alias("x") // kept',
        "",
        "  b string | null",
        "  @@dynamic",
        "}",
        "",
        "client<llm> C {",
        "  provider openai",
        "  options {",
        '    model "x"',
        '    stop ["a", "b"]',
        "  }",
        "}",
        "",
        "function F(a: int, b: string) -> A | null {",
        "  client C",
        '  prompt #"',
        "   hi {{ a }}  ",
        '  "#',
        "}",
        "",
      ].join("\n"),
    );
  });

  it("keeps multi-line parameter lists and lists one item per line", () => {
    const input =
      'function F(\n  a: int,\n  b: string\n) -> int {\n  client "openai/gpt-4o"\n  prompt #"x"#\n}\n';
    expect(formatBaml(input)).toBe(
      'function F(\n  a: int,\n  b: string,\n) -> int {\n  client "openai/gpt-4o"\n  prompt #"x"#\n}\n',
    );
  });

  it("keeps the separator of an unquoted value that starts with a colon", () => {
    // `m::x` is the key `m` with the value `:x`; printed as `m :x` it would read back as `m` = `x`.
    const input = "client C {\n  provider anthropic\n  options {\n    m::ax_tokens 1024\n  }\n}\n";
    const formatted = formatBaml(input);
    expect(formatted).toBe("client C {\n  provider anthropic\n  options {\n    m: :ax_tokens 1024\n  }\n}\n");
    expect(formatBaml(formatted)).toBe(formatted);
    expect(meaning(formatted)).toEqual(meaning(input));
  });

  it("leaves text with syntax errors, or marked to be ignored, unchanged", () => {
    expect(formatBaml("class A {\n  a int\n")).toBe("class A {\n  a int\n");
    const ignored = "// baml-format: ignore\nclass   A {\n  a int\n}\n";
    expect(formatBaml(ignored)).toBe(ignored);
  });
});
