/**
 * The language conformance suite. Every `.baml` file under test/fixtures/language/ is compiled on its
 * own; a file that should produce diagnostics ends with them, rendered, as `//` comments (the block starts
 * at the first `// error[` or `// warning[` line). A file without such a block must compile cleanly.
 * Files under `lowering/` also have a `.ir.json` twin holding the expected IR.
 *
 * The first example of each diagnostic code also goes into docs/diagnostics.md, the reference page.
 *
 * `UPDATE_EXPECT=1 npx vitest run test/language-fixtures.test.ts` rewrites the blocks, twins and the
 * reference page from the current output; review the diff before committing.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { diagnosticCodes, renderDiagnostics } from "../src/diagnostics/index.js";
import { compile } from "../src/language/index.js";

const root = join(import.meta.dirname, "fixtures/language");
const update = process.env.UPDATE_EXPECT === "1";

function listFixtures(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".baml"))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join("/"))
    .sort();
}

/** Split a fixture into its source and its expected-diagnostics block (comment markers removed). */
function splitExpectation(text: string): { source: string; expected: string } {
  const lines = text.split("\n");
  const start = lines.findIndex(
    (line, index) =>
      /^\/\/ (error|warning)\[/.test(line) &&
      lines.slice(index).every((rest) => rest === "" || rest.startsWith("//")),
  );
  if (start < 0) return { source: text, expected: "" };
  const expected = lines
    .slice(start)
    .filter((line, index, all) => !(line === "" && index === all.length - 1))
    .map((line) => (line === "//" ? "" : line.slice(3)))
    .join("\n");
  let sourceEnd = start;
  while (sourceEnd > 0 && lines[sourceEnd - 1] === "") sourceEnd--;
  return { source: `${lines.slice(0, sourceEnd).join("\n")}\n`, expected };
}

function withExpectation(source: string, rendered: string): string {
  if (rendered === "") return source;
  const block = rendered
    .split("\n")
    .map((line) => (line === "" ? "//" : `// ${line}`))
    .join("\n");
  return `${source}\n${block}\n`;
}

const fixtures = listFixtures(root);
const seenCodes = new Set<string>();
/** The first rendered example of each code, for the reference page. */
const examples = new Map<string, string>();
const referencePath = join(import.meta.dirname, "../docs/diagnostics.md");

describe("language fixtures", () => {
  it("has at least 80 fixtures", () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(80);
  });

  for (const name of fixtures) {
    it(name, () => {
      const path = join(root, name);
      const text = readFileSync(path, "utf8");
      const { source, expected } = splitExpectation(text);
      const result = compile({ [name]: source });
      for (const diagnostic of result.diagnostics) {
        seenCodes.add(diagnostic.code);
        if (!examples.has(diagnostic.code)) {
          examples.set(diagnostic.code, renderDiagnostics([diagnostic], { [name]: source }));
        }
      }
      const rendered = renderDiagnostics(result.diagnostics, { [name]: source });
      const irPath = path.replace(/\.baml$/, ".ir.json");
      const irText = result.ir ? `${JSON.stringify(result.ir, null, 2)}\n` : undefined;
      if (update) {
        const next = withExpectation(source, rendered);
        if (next !== text) writeFileSync(path, next);
        if (name.startsWith("lowering/") && irText !== undefined) writeFileSync(irPath, irText);
        return;
      }
      expect(rendered).toBe(expected);
      if (result.diagnostics.every((diagnostic) => diagnostic.severity === "warning"))
        expect(result.ir).toBeDefined();
      if (name.startsWith("lowering/")) {
        expect(existsSync(irPath), `${irPath} (run with UPDATE_EXPECT=1 to create it)`).toBe(true);
        expect(irText).toBe(readFileSync(irPath, "utf8"));
      }
    });
  }

  it("docs/diagnostics.md shows every code with an example", () => {
    const page = referencePage();
    if (update) writeFileSync(referencePath, page);
    else expect(readFileSync(referencePath, "utf8")).toBe(page);
  });

  it("covers every diagnostic code in the registry", () => {
    if (update) return;
    const missing = Object.values(diagnosticCodes)
      .map((definition) => definition.code)
      .filter((code) => !seenCodes.has(code));
    expect(missing).toEqual([]);
  });
});

function referencePage(): string {
  const sections = Object.entries(diagnosticCodes)
    .sort(([, left], [, right]) => (left.code < right.code ? -1 : 1))
    .map(([name, definition]) => {
      const example = examples.get(definition.code);
      return [
        `## ${definition.code} \`${name}\` (${definition.severity})`,
        "",
        ...(example === undefined ? ["No example yet."] : ["```text", example, "```"]),
        "",
      ].join("\n");
    });
  return [
    "# Diagnostics reference",
    "",
    "Every diagnostic `sapling check` can report, with its stable code and an example taken from the language",
    "fixtures (test/fixtures/language/). Generated by `UPDATE_EXPECT=1 npx vitest run test/language-fixtures.test.ts`;",
    "do not edit by hand. Codes never change meaning; new ones are added at the end of their group",
    "(00 syntax, 01 types and names, 02 attributes, 03 functions, 04 clients, 05 retry policies, 06 generators,",
    "07 tests, 08 configuration values, 09 template strings). W-codes are warnings: they never block compilation.",
    "",
    ...sections,
  ].join("\n");
}
