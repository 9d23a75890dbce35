import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { generateProject } from "../../bench/language.js";
import { sortDiagnostics } from "../diagnostics/index.js";
import type { SourceFile } from "./ast.js";
import { checkProject } from "./check-project.js";
import { IncrementalChecker } from "./incremental-checker.js";
import { parseSource } from "./parser.js";

const example = resolve(import.meta.dirname, "../../examples/resume/baml_src");

/** A small deterministic generator (the sequence of edits must be the same on every run). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/** One edit of the kinds typing makes: retype a word (often into another file's name), cut or copy a line, open a brace. */
function edit(text: string, next: () => number, names: readonly string[]): string {
  const lines = text.split("\n");
  const at = Math.floor(next() * lines.length);
  const line = lines[at] ?? "";
  switch (Math.floor(next() * 7)) {
    case 5: {
      // A new declaration whose name is a near miss of another: "did you mean" elsewhere may change.
      const name = names[Math.floor(next() * names.length)] ?? "X";
      return `${text}\nclass ${name}s {\n  id string\n}\n`;
    }
    case 6: {
      // A line that names something near-missing, so suggestions read every name.
      const name = names[Math.floor(next() * names.length)] ?? "X";
      lines.splice(at, 0, `class Extra${at} {\n  other ${name}x\n}`);
      break;
    }
    case 0: {
      const words = [...line.matchAll(/[A-Za-z_]\w*/g)];
      const word = words[Math.floor(next() * words.length)];
      if (!word || word.index === undefined) return text;
      const replacement = names[Math.floor(next() * names.length)] ?? "x";
      lines[at] = line.slice(0, word.index) + replacement + line.slice(word.index + word[0].length);
      break;
    }
    case 1:
      lines.splice(at, 1);
      break;
    case 2:
      lines.splice(at, 0, line);
      break;
    case 3:
      lines[at] = `${line} {`;
      break;
    default:
      lines[at] = line.replace(/string/, "strin");
  }
  return lines.join("\n");
}

function runEdits(sources: Record<string, string>, steps: number, seed: number): { reused: number } {
  const next = random(seed);
  const names = [...new Set(Object.values(sources).flatMap((text) => text.match(/\b[A-Z]\w*/g) ?? []))];
  const files = new Map<string, SourceFile>(
    Object.entries(sources).map(([path, text]) => [path, parseSource(text, path).file]),
  );
  const checker = new IncrementalChecker();
  let reused = 0;
  for (let step = 0; step < steps; step++) {
    const paths = [...files.keys()].sort();
    const path = paths[Math.floor(next() * paths.length)] as string;
    files.set(path, parseSource(edit((files.get(path) as SourceFile).text, next, names), path).file);
    const ordered = paths.map((item) => files.get(item) as SourceFile);
    const incremental = checker.check(ordered);
    reused += checker.reused;
    expect(sortDiagnostics(incremental.diagnostics)).toEqual(
      sortDiagnostics(checkProject(ordered).diagnostics),
    );
    expect([...incremental.symbols.types.keys()]).toEqual([...checkProject(ordered).symbols.types.keys()]);
  }
  return { reused };
}

/** Checks `a.baml` and `b.baml`, then again with `b.baml` replaced; each time against a fresh check. */
function checkTwice(
  a: string,
  b: string,
  laterB: string,
): { before: string[]; after: string[]; reusedA: boolean } {
  const checker = new IncrementalChecker();
  const fileA = parseSource(a, "a.baml").file;
  const run = (bText: string) => {
    const files = [fileA, parseSource(bText, "b.baml").file];
    const result = checker.check(files);
    expect(sortDiagnostics(result.diagnostics)).toEqual(sortDiagnostics(checkProject(files).diagnostics));
    return result.diagnostics.map((diagnostic) =>
      `${diagnostic.file}: ${diagnostic.message} ${diagnostic.hint ?? ""}`.trim(),
    );
  };
  const before = run(b);
  const after = run(laterB);
  return { before, after, reusedA: checker.reused === 1 };
}

describe("IncrementalChecker", () => {
  it("re-checks a file whose suggestions read every name when another file adds a name", () => {
    const { before, after } = checkTwice(
      "class User {\n  home Adress\n}\n",
      "class Other {\n  x string\n}\n",
      "class Address {\n  x string\n}\n",
    );
    expect(before.join("\n")).not.toMatch(/did you mean "Address"/);
    expect(after.join("\n")).toMatch(/did you mean "Address"/);
  });

  it("re-checks a prompt that reads an enum when another file turns a class of that name into an enum", () => {
    const { before, after } = checkTwice(
      'function F(x: string) -> string {\n  client "openai/gpt-4o"\n  prompt #"{{ x }} {{ Color }}"#\n}\n',
      "class Color {\n  x string\n}\n",
      "enum Color {\n  RED\n}\n",
    );
    expect(before.join("\n")).toMatch(/Color/);
    expect(after).toEqual([]);
  });

  it("re-uses a file that reads nothing the edit changed", () => {
    const { reusedA } = checkTwice(
      "class User {\n  name string\n}\n",
      "class Other {\n  x string\n}\n",
      "class Other {\n  y int\n}\n",
    );
    expect(reusedA).toBe(true);
  });

  it("reports what a fresh check reports, after every one of many random edits to the example project", () => {
    const sources = Object.fromEntries(
      ["clients.baml", "resume.baml"].map((name) => [name, readFileSync(join(example, name), "utf8")]),
    );
    runEdits(sources, 150, 7);
  });

  it("reports what a fresh check reports on a generated project, and re-uses the files an edit cannot reach", () => {
    const { reused } = runEdits(generateProject(40_000, 6), 120, 11);
    // Most edits stay within one file's declarations, so most of the other five files are re-used.
    expect(reused).toBeGreaterThan(120 * 2);
  });
});
