/**
 * One error brand (CONTRIBUTING.md): every error class under src/ marks itself with `markError(this,
 * "<its name>")` and answers `isInstance` with `hasErrorMark`, so errors are recognized across two copies of
 * the package the same way everywhere.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { LlmError } from "../src/llm/index.js";
import { LlmHttpError, LlmTimeoutError } from "../src/provider-helpers/index.js";
import { SapParseError } from "../src/sap/index.js";
import { markError } from "../src/util/index.js";

const src = resolve(import.meta.dirname, "..", "src");

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

describe("one error brand", () => {
  it("every error class under src/ marks itself and answers isInstance by its mark", () => {
    const unbranded: string[] = [];
    for (const file of sourceFiles(src)) {
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(/^(?:export )?class (\w+) extends (\w+)/gm)) {
        const [, name, parent] = match as unknown as [string, string, string];
        if (!/Error$|^TooDeep$/.test(parent) && !/Error$/.test(name)) continue;
        const marked = text.includes(`markError(this, "${name}")`);
        const asked = new RegExp(
          `isInstance\\(value: unknown\\): value is ${name} \\{\\s*return hasErrorMark\\(value, "${name}"\\)`,
        ).test(text);
        if (!marked || !asked) unbranded.push(`${relative(src, file)}: ${name}`);
      }
    }
    expect(unbranded).toEqual([]);
  });

  it("recognizes an error of another copy of the package by its mark, and a subclass by its parent's", () => {
    const foreign = new Error("from another copy");
    markError(foreign, "LlmError");
    markError(foreign, "LlmTimeoutError");
    expect(LlmError.isInstance(foreign)).toBe(true);
    expect(LlmTimeoutError.isInstance(foreign)).toBe(true);
    expect(LlmHttpError.isInstance(foreign)).toBe(false);
    expect(SapParseError.isInstance(foreign)).toBe(false);
    expect(SapParseError.isInstance({ name: "SapParseError" })).toBe(false);
  });
});
